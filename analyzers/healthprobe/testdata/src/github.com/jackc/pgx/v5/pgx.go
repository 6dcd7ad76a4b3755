// Package pgx is a stub of pgx v5.
package pgx

// Rows is the result of a query.
type Rows interface {
	Close()
	Next() bool
}
