// Package splitserver gives the handlers and the rotation a pool each, // want package:`lanes\(\)`
// through one constructor called twice: no finding points at either
// opening as the shared pool's creation.
package splitserver

import (
	"net/http"

	"inferbackends/api"
	"inferbackends/app"
	"inferbackends/route"
	"inferbackends/store"
)

func Serve(url string) { // want Serve:`reaches\(via \(store\.Blobs\)\.Read\)`
	s := app.NewSplit(url)
	store.NewRotater(s.Jobs).Maintain()
	mux := http.NewServeMux()
	route.Attach(mux, api.Routes(s.API))
	http.ListenAndServe(":8080", mux)
}
