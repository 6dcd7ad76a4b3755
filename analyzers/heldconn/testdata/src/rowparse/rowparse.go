// Package rowparse scans rows for other packages: its facts travel. (It
// imports database/sql, as such helpers do for ErrNoRows: heldconn learns
// nothing in a package that reaches no database package.)
package rowparse

import (
	"database/sql"
	"errors"
)

// Scanner is what a *sql.Row is.
type Scanner interface {
	Scan(dest ...any) error
}

// One scans one row through the interface; no row is a zero.
func One(s Scanner) (int, error) { // want One:"releasesParam.*Scan"
	var n int
	err := s.Scan(&n)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return n, err
}
