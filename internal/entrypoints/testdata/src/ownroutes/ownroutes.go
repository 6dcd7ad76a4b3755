// Package ownroutes registers its handlers with a route table of its own.
package ownroutes

import "net/http"

type route struct {
	path string
	h    http.HandlerFunc
}

type App struct{ routes []route }

// Get returns a handler; the table keeps it, no router bhlint knows.
func Get(app *App) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { // want `interactive: takes a request: func literal in ownroutes.Get\(\)`
		writeJSON(w, r, app)
	}
}

// writeJSON takes the request and the writer but only a handler calls it.
func writeJSON(w http.ResponseWriter, r *http.Request, app *App) { w.Write([]byte(r.URL.Path)) }

// report takes only the request: an error reporter, not a handler.
func report(r *http.Request, err error) { println(r.URL.Path, err.Error()) }

type Reporter interface{ Report(r *http.Request, err error) }

type logReporter struct{}

func (logReporter) Report(r *http.Request, err error) { report(r, err) }

var _ Reporter = logReporter{}

// Delete is a handler method value the table is handed.
func (a *App) Delete(w http.ResponseWriter, r *http.Request) { // want `interactive: takes a request: App.Delete\(\)`
}

func (a *App) Routes() {
	a.routes = append(a.routes, route{"/get", Get(a)}, route{"/delete", a.Delete})
}
