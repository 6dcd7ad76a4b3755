// Package pg is the database backend of storage.Writer.
package pg

import "database/sql"

type Writer struct{ DB *sql.DB }

func (w *Writer) Write(v string) error {
	_, err := w.DB.Exec("INSERT INTO t VALUES ($1)", v)
	return err
}

type Reader struct{ DB *sql.DB }

func (r *Reader) Read(k string) string {
	var v string
	r.DB.QueryRow("SELECT v FROM t WHERE k = $1", k).Scan(&v)
	return v
}
