// Package inferbackends wires a pool into a store whose backends disagree // want package:`lanes\(\)`
// and hands the store to handlers of its own route builder and to a
// background rotation: the database backend's pool serves both.
package inferbackends

import (
	"database/sql"
	"net/http"

	"inferbackends/api"
	"inferbackends/route"
	"inferbackends/store"
)

func Main() { // want Main:`creates\(sqlstore\.Blobs\.DB\)` Main:`reaches\(via \(store\.Blobs\)\.Read\)`
	db, _ := sql.Open("postgres", "app") // want `sqlstore.Blobs.DB, a database pool created once, serves both interactive and background work.*interactive by func literal in api.GetBlob → \(store.Blobs\).Read → \(\*sqlstore.Blobs\).Read → sqlstore.Blobs.DB \(takes a request: func literal in api.GetBlob\(\)\); background by func literal in \(\*store.Rotater\).Maintain`
	blobs := store.NewEncrypted(store.New(db))
	store.NewRotater(blobs).Maintain()
	mux := http.NewServeMux()
	route.Attach(mux, api.Routes(blobs))
	http.ListenAndServe(":8080", mux)
}
