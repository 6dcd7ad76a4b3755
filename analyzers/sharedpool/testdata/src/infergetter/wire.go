// Package infergetter wires a program whose repositories get their pools // want package:`lanes\(\(\*infergetter\.app\)\.users@interactive, \(\*infergetter\.app\)\.jobs@background, \(\*infergetter\.app\)\.reports@background\)`
// through an interface getter. The handlers' and the job loop's
// repositories hold the same pool, opened by postgres.NewDB: the finding is
// at the call of it, and names the pool, not a repository's field. The
// report loop reads the replica, a pool the handlers do not use.
package infergetter

import (
	"net/http"
	"time"

	"infergetter/database"
	"infergetter/postgres"
)

type app struct{ d database.Database }

func (a *app) users(w http.ResponseWriter, r *http.Request) { postgres.NewUserRepo(a.d).Find() }

func (a *app) jobs() {
	for range time.Tick(time.Minute) {
		postgres.NewJobRepo(a.d).Claim()
	}
}

func (a *app) reports() {
	for range time.Tick(time.Hour) {
		postgres.NewReportRepo(a.d).Scan()
	}
}

func Main() { // want Main:`reaches\(postgres\.Postgres\.dbx\(no lane\), postgres\.Postgres\.replica\(no lane\), via \(database\.Database\)\.GetDB, via \(database\.Database\)\.GetReplica\)` Main:`creates\(postgres\.Postgres\.dbx, postgres\.Postgres\.replica\)`
	pg, _ := postgres.NewDB("dsn") // want `postgres.Postgres.dbx, a database pool created once, serves both interactive and background work`
	a := &app{d: pg}
	http.HandleFunc("/users", a.users)
	go a.jobs()
	go a.reports()
}
