// Package api's handlers are closures its factories return, handed to the
// project's own route builder.
package api

import (
	"net/http"

	"inferbackends/route"
	"inferbackends/store"
)

func GetBlob(b store.Blobs) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(b.Read(r.URL.Query().Get("k"))))
	}
}

// logRequest takes a request but cannot answer it: a helper, no handler.
func logRequest(r *http.Request, b store.Blobs) { b.Read(r.URL.Path) }

func Routes(b store.Blobs) []*route.Handled {
	return []*route.Handled{route.Get("/blob").Handle(GetBlob(b))}
}
