package main

import (
	"database/sql"
	"testing"
)

func TestPool(t *testing.T) {
	db, _ := sql.Open("pgx", "")
	db.SetMaxOpenConns(100) // a test's pool serves one test
	_ = db
}
