// Package api answers requests from the store and the sessions.
package api

import (
	"net/http"

	"inferelsewhere/provider"
)

func Serve() {
	http.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(provider.Get(r.URL.Path) + provider.Session(r.Header.Get("Cookie"))))
		provider.Audit("get")
	})
	http.ListenAndServe(":8080", nil)
}
