// Package server wires the app: the store's pool serves the handlers and // want package:`lanes\(func literal in server\.Serve@interactive\)`
// the rotation, reported at the call that creates the app and pointing at
// where app.New opens the pool. The logs pool only the handlers use.
package server

import (
	"net/http"

	"inferbackends/api"
	"inferbackends/app"
	"inferbackends/route"
	"inferbackends/store"
)

func Serve(url string) { // want Serve:`creates\(app\.App\.Logs, sqlstore\.Blobs\.DB\)` Serve:`reaches\(app\.App\.Logs\(no lane\), via \(store\.Blobs\)\.Read\)`
	a := app.New(url, false) // want `sqlstore.Blobs.DB, a database pool created once, serves both interactive and background work`
	store.NewRotater(a.Blobs).Maintain()
	mux := http.NewServeMux()
	route.Attach(mux, api.Routes(a.Blobs))
	mux.HandleFunc("/logs", func(w http.ResponseWriter, r *http.Request) { a.Logs.Exec("SELECT 1") })
	http.ListenAndServe(":8080", mux)
}
