// Package sql is a stub of ent's dialect/sql: a driver around a
// database/sql pool.
package sql

import (
	"context"
	"database/sql"
)

type Driver struct {
	db      *sql.DB
	dialect string
}

func Open(driver, source string) (*Driver, error) {
	db, err := sql.Open(driver, source)
	if err != nil {
		return nil, err
	}
	return &Driver{db, driver}, nil
}

func OpenDB(driver string, db *sql.DB) *Driver { return &Driver{db, driver} }

func (d *Driver) DB() *sql.DB { return d.db }

func (d *Driver) Exec(ctx context.Context, query string, args, v any) error {
	_, err := d.db.ExecContext(ctx, query)
	return err
}

func (d *Driver) Close() error { return d.db.Close() }
