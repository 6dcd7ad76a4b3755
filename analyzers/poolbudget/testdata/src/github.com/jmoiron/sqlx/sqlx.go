// Package sqlx is a stub of github.com/jmoiron/sqlx.
package sqlx

import "database/sql"

type DB struct{ *sql.DB }

func MustConnect(driverName, dataSourceName string) *DB { return &DB{} }
