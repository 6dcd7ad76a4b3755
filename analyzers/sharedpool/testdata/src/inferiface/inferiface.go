// Package inferiface reaches its pool through an interface with one // want package:`lanes\(\(\*inferiface\.API\)\.ServeHTTP@interactive, \(\*inferiface\.Syncer\)\.Run@background\)`
// implementation.
package inferiface

import (
	"database/sql"
	"net/http"
	"time"
)

type Repo interface {
	Save(v string) error
}

type pgRepo struct{ db *sql.DB }

func (p *pgRepo) Save(v string) error { // want Save:`reaches\(inferiface\.pgRepo\.db\(no lane\)\)`
	_, err := p.db.Exec("INSERT INTO t VALUES ($1)", v)
	return err
}

type API struct{ repo Repo }

func (a *API) ServeHTTP(w http.ResponseWriter, r *http.Request) { a.repo.Save(r.URL.Path) } // want ServeHTTP:`reaches\(via \(inferiface\.Repo\)\.Save\)`

type Syncer struct{ repo Repo }

func (s *Syncer) Run(ticks <-chan time.Time) { // want Run:`loops\(ticker loop\)` Run:`reaches\(via \(inferiface\.Repo\)\.Save\)`
	for range ticks {
		s.repo.Save("tick")
	}
}

func Start() { // want Start:`reaches\(via \(inferiface\.Repo\)\.Save\)` Start:`creates\(inferiface\.pgRepo\.db\)`
	db, _ := sql.Open("postgres", "app") // want `inferiface.pgRepo.db, a database pool created once, serves both interactive and background work, and no lanes are declared: interactive by \(\*inferiface.API\).ServeHTTP → \(inferiface.Repo\).Save → \(\*inferiface.pgRepo\).Save → inferiface.pgRepo.db`
	repo := &pgRepo{db: db}
	srv := &http.Server{Handler: &API{repo: repo}}
	go (&Syncer{repo: repo}).Run(time.Tick(time.Minute))
	srv.ListenAndServe()
}
