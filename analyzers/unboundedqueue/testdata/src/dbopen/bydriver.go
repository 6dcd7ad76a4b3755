package dbopen // want package:"limitsPools"

import (
	"database/sql"
	"strings"
)

// OpenFor chooses the driver by the address's scheme, as authn-server's
// data.NewDB does: each branch opens a pool with no maximum, and a caller
// that stores it is pointed at both.
func OpenFor(dsn string) (*sql.DB, error) { // want OpenFor:"opensUnboundedDB\\(0, sql.Open\\)"
	if strings.HasPrefix(dsn, "mysql://") {
		return sql.Open("mysql", dsn)
	}
	db, err := sql.Open("pgx", dsn)
	return db, err
}
