// Package ctxlessnomax ignores the context it is handed, on a pool nothing
// in the program gives a maximum (garm's SQL store, its pool opened with
// no SetMaxOpenConns): a query never waits for a slot, it opens another
// connection (what the pool lacks is its maximum, reported where it is
// opened). Trap: its wait is reported by nobody, even where a request
// reaches it (ctxlessnomaxmain).
package ctxlessnomax

import (
	"context"

	"gorm.io/gorm"
)

type Runner struct{ ID int }

type Store struct{ conn *gorm.DB }

func (s *Store) Runner(ctx context.Context, id int) Runner { // want Runner:"waitsOnNetwork" Runner:"ignoresContext" Runner:`waitsNoContext\(\(\*gorm.DB\).First in \(Store\).Runner\)`
	var r Runner
	s.conn.Where("id = ?", id).First(&r)
	return r
}

func New(db *gorm.DB) *Store { return &Store{conn: db} }
