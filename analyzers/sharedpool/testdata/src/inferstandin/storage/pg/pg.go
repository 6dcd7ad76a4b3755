// Package pg is the database backend of storage.Writer.
package pg

import "database/sql"

type Writer struct{ DB *sql.DB }

func (w *Writer) Write(v string) error {
	_, err := w.DB.Exec("INSERT INTO t VALUES ($1)", v)
	return err
}
