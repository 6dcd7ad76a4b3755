// Package app opens one pool and hands it to two constructors, each of
// which keeps it in a field of its own type: one pool under two names. The
// metrics pool, opened apart, is another: no link to it.
package app

import (
	"database/sql"

	"inferlinked/jobs"
	"inferlinked/tokens"
)

type App struct {
	Tokens  *tokens.Store
	Queue   *jobs.Queue
	Metrics *jobs.Metrics
}

func New(url string) *App { // want New:`creates\(jobs\.Metrics\.db, jobs\.Queue\.db, tokens\.Store\.db\)`
	db, _ := sql.Open("postgres", url)
	metrics, _ := sql.Open("postgres", url+"/metrics")
	return &App{Tokens: tokens.New(db), Queue: jobs.New(db), Metrics: jobs.NewMetrics(metrics)}
}
