// Package app opens the pool in one of two ways and hands it to the store's
// constructor, which keeps it in its backend's field: the pool is created
// here, at the opening call, whatever field carries it.
package app

import (
	"database/sql"

	"inferbackends/store"
)

type App struct {
	Blobs store.Blobs
	Logs  *sql.DB
}

func open(url string, replica bool) (*sql.DB, error) {
	if replica {
		return sql.Open("postgres", url+"?target_session_attrs=any")
	}
	return sql.Open("postgres", url)
}

func New(url string, replica bool) *App { // want New:`creates\(app\.App\.Logs, sqlstore\.Blobs\.DB\)`
	var db *sql.DB
	if replica {
		db, _ = open(url, true)
	} else {
		db, _ = sql.Open("pgx", url)
	}
	logs, _ := sql.Open("postgres", url+"/logs")
	return &App{Blobs: store.NewEncrypted(store.New(db)), Logs: logs}
}

// Split holds two stores over two pools: one for the handlers, one for the
// rotation.
type Split struct{ API, Jobs store.Blobs }

// NewSplit opens two pools and hands each to the store's constructor: the
// backend's field holds two pools, and neither opening is the one.
func NewSplit(url string) *Split {
	api, _ := sql.Open("postgres", url)
	jobs, _ := sql.Open("postgres", url+"?application_name=jobs")
	return &Split{API: store.New(api), Jobs: store.New(jobs)}
}
