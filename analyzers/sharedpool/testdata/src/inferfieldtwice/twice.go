// Package inferfieldtwice calls a constructor that opens a pool into a // want package:`lanes\(\(\*inferfieldtwice\.app\)\.users@interactive, \(\*inferfieldtwice\.app\)\.refresh@background\)`
// field twice: two pools, one for the handlers and one for the loop. No
// call of it is where "the" pool is created, and this package, which is
// not the program's main, leaves the finding to the one that is.
package inferfieldtwice

import (
	"net/http"
	"time"

	"inferfieldstore"
)

type app struct{ web, jobs *inferfieldstore.Database }

func (a *app) users(w http.ResponseWriter, r *http.Request) { a.web.Query() }

func (a *app) refresh() {
	for range time.Tick(time.Minute) {
		a.jobs.Query()
	}
}

func Main() { // want Main:`creates\(inferfieldstore\.Database\.engine\)` Main:`reaches\(inferfieldstore\.Database\.engine\(no lane\)\)`
	a := &app{web: inferfieldstore.NewDatabase("web"), jobs: inferfieldstore.NewDatabase("jobs")}
	http.HandleFunc("/users", a.users)
	go a.refresh()
}
