// Package cgo holds a transaction across an HTTP call in a file that uses
// cgo: positions must still point at this file.
package cgo

/*
static int answer(void) { return 42; }
*/
import "C"

import (
	"context"
	"database/sql"
	"net/http"
)

// Answer calls C.
func Answer() int { return int(C.answer()) }

// Charge holds a transaction across client.Do.
func Charge(ctx context.Context, db *sql.DB, client *http.Client, req *http.Request) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	return tx.Commit()
}
