// Package inbox is handed the pool itself and fills its statements
// from it through a loader of the program's own.
package inbox

import (
	"reflect"

	"github.com/jmoiron/sqlx"
)

type queries struct {
	GetInbox *sqlx.Stmt
}

type Manager struct {
	q queries
}

// scan prepares a statement for every field of dst on db.
func scan(dst interface{}, db *sqlx.DB) error {
	v := reflect.ValueOf(dst).Elem()
	for i := 0; i < v.NumField(); i++ {
		stmt, err := db.Preparex(v.Type().Field(i).Name)
		if err != nil {
			return err
		}
		v.Field(i).Set(reflect.ValueOf(stmt))
	}
	return nil
}

func New(db *sqlx.DB) (*Manager, error) { // want New:`storesParam\(inbox\.queries\.GetInbox\)`
	var q queries
	if err := scan(&q, db); err != nil {
		return nil, err
	}
	return &Manager{q: q}, nil
}

func (m *Manager) Get(id int) { // want Get:`reaches\(inbox\.queries\.GetInbox\(no lane\)\)`
	var v string
	m.q.GetInbox.Get(&v, id)
}
