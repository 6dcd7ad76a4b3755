// Package db opens the program's pool and gives it a maximum. // want package:"limitsPools"
package db

import (
	"database/sql"

	"example.org/gorplike"
	"example.org/sqlxlike"
)

func Open(dsn string) (*gorplike.DbMap, error) {
	sqldb, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, err
	}
	sqldb.SetMaxOpenConns(50)
	return &gorplike.DbMap{Db: sqldb}, nil
}

func OpenX(dsn string) (*sqlxlike.DB, error) {
	sqldb, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, err
	}
	sqldb.SetMaxOpenConns(50)
	return &sqlxlike.DB{DB: sqldb}, nil
}
