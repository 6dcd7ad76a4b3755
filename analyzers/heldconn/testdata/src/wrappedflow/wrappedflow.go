// Package wrappedflow logs its queries through wrappers of sqlx's types,
// as chirpstack's storage package does: TxLogger embeds *sqlx.Tx, which
// embeds *sql.Tx, and the transaction helper begins through DBLogger.
package wrappedflow

import (
	"net/http"

	"github.com/jmoiron/sqlx"
)

type DBLogger struct{ *sqlx.DB }

type TxLogger struct{ *sqlx.Tx }

// Beginx returns the transaction wrapped for logging.
func (db *DBLogger) Beginx() (*TxLogger, error) {
	tx, err := db.DB.Beginx()
	return &TxLogger{tx}, err
}

var db *DBLogger

// Transaction runs f in a transaction.
func Transaction(f func(tx *TxLogger) error) error { // want Transaction:"holdsDuringCallback\\(\\[0\\]\\)"
	tx, err := db.Beginx()
	if err != nil {
		return err
	}
	if err := f(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// Activate locks the device and asks the join server inside the
// transaction.
func Activate(client *http.Client, url string) error {
	return Transaction(func(tx *TxLogger) error {
		if _, err := tx.Exec("SELECT 1 FROM device FOR UPDATE"); err != nil {
			return err
		}
		resp, err := client.Get(url) // want `the function passed to wrappedflow.Transaction calls \(\*http.Client\).Get while the transaction it runs in is held`
		if err != nil {
			return err
		}
		return resp.Body.Close()
	})
}

// Trap: Deactivate calls out after the transaction.
func Deactivate(client *http.Client, url string) error {
	if err := Transaction(func(tx *TxLogger) error {
		_, err := tx.Exec("UPDATE device SET active = false")
		return err
	}); err != nil {
		return err
	}
	resp, err := client.Get(url)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
