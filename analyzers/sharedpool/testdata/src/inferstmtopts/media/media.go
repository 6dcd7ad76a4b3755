// Package media prepares its statements the way goyesql's loaders do: a // want package:`lanes\(\)`
// call handed the pool (a field of the options its constructor was
// given) and a pointer to a struct of statements fills every field; the
// struct is then copied into the manager.
package media

import (
	"reflect"
	"time"

	"github.com/jmoiron/sqlx"
)

type Opts struct {
	DB *sqlx.DB
}

type queries struct {
	Get    *sqlx.Stmt
	Delete *sqlx.Stmt
}

type Manager struct {
	q queries
}

// scanQueries prepares a statement for every field of dst on db.
func scanQueries(dst interface{}, db *sqlx.DB) error {
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

func New(opt Opts) (*Manager, error) { // want New:`reaches\(media\.Opts\.DB\(no lane\)\)`
	var q queries
	if err := scanQueries(&q, opt.DB); err != nil {
		return nil, err
	}
	return &Manager{q: q}, nil
}

func (m *Manager) Upload(id int) { // want Upload:`reaches\(media\.queries\.Delete\(no lane\), media\.queries\.Get\(no lane\)\)`
	var v string
	m.q.Get.Get(&v, id)
	m.Delete(id)
}

func (m *Manager) Delete(id int) { // want Delete:`reaches\(media\.queries\.Delete\(no lane\)\)`
	var v string
	m.q.Delete.Get(&v, id)
}

// CleanLoop deletes unlinked media for the life of the process.
func (m *Manager) CleanLoop() { // want CleanLoop:`reaches\(media\.queries\.Delete\(no lane\)\)` CleanLoop:`loops\(ticker loop\)`
	for range time.Tick(time.Hour) {
		m.Delete(0)
	}
}
