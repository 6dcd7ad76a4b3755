// Package inferuncarried calls through interfaces. // want package:`lanes\(\)`
// A call through a named
// interface is carried in the caller's fact, for an importer that sees the
// implementations to resolve; calls no importer could ever resolve to a
// pool are not, so that facts do not grow with them up the call graph.
package inferuncarried

import (
	"database/sql"

	"github.com/stretchr/testify/assert"
)

type Store interface {
	Save(v string) error
}

type pgStore struct{ db *sql.DB }

func (p *pgStore) Save(v string) error { // want Save:`reaches\(inferuncarried\.pgStore\.db\(no lane\)\)`
	_, err := p.db.Exec("INSERT INTO t VALUES ($1)", v)
	return err
}

// Named calls through a named interface: carried.
func Named(s Store) error { // want Named:`reaches\(via \(inferuncarried\.Store\)\.Save\)`
	return s.Save("x")
}

// Literal calls the same method through an interface literal, which has no
// object path: no importer could look its implementations up. No fact.
func Literal(v any) error {
	if s, ok := v.(interface{ Save(string) error }); ok {
		return s.Save("x")
	}
	return nil
}

// Assert calls through testify's TestingT, which *testing.T implements,
// never code on a lane's path: only the Store call is carried.
func Assert(t assert.TestingT, s Store) { // want Assert:`reaches\(via \(inferuncarried\.Store\)\.Save\)`
	t.Errorf("saving")
	s.Save("y")
}
