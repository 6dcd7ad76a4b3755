// Package fieldapp fills the exported func-typed fields of its App with
// checks (authn-server's NewApp: DbCheck, RedisCheck); the probe that
// calls them lives in fieldroutes.
package fieldapp

import (
	"context"
	"database/sql"
	"sync/atomic"
)

type pinger func() bool

type App struct {
	DB       *sql.DB
	DbCheck  pinger // want DbCheck:`fieldReaches\(reachesShared\(database pool the database pool passed to the func literal in fieldapp.NewApp via the func literal in fieldapp.NewApp → \(\*sql.DB\).Ping\)\)`
	Started  pinger
	OwnCheck func(ctx context.Context) error
	started  atomic.Bool
}

// NewApp shares db with the handlers (App.DB) and pings it in DbCheck.
func NewApp(dsn string) (*App, error) {
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(10)
	app := &App{
		DB:      db,
		DbCheck: func() bool { return db.Ping() == nil },
	}
	app.Started = app.started.Load
	return app, nil
}
