package stdlib

import (
	"context"
	"database/sql"
	"database/sql/driver"

	"github.com/jackc/pgx/v5/pgxpool"
)

type connector struct{ pool *pgxpool.Pool }

func (connector) Connect(context.Context) (driver.Conn, error) { return nil, nil }
func (connector) Driver() driver.Driver                        { return nil }

// OpenDBFromPool, as pgx's: a database/sql face whose connections all come
// from pool.
func OpenDBFromPool(pool *pgxpool.Pool) *sql.DB { return sql.OpenDB(connector{pool}) }
