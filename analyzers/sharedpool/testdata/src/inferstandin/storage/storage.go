// Package storage declares the writer interface and, beside it, the no-op
// that a deployment without a database uses: a stand-in, no proof that
// Write reaches no pool.
package storage

import "database/sql"

type Writer interface{ Write(v string) error }

// ErrNotFound is what a reader of any backend returns for a missing row.
var ErrNotFound = sql.ErrNoRows

type NoopWriter struct{}

func (NoopWriter) Write(string) error { return nil }

// Reader has a no-op beside it too; its database backend serves only the
// handlers.
type Reader interface{ Read(k string) string }

type NoopReader struct{}

func (NoopReader) Read(string) string { return "" }
