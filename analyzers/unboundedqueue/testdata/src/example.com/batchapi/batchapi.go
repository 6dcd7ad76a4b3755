// Package batchapi is shaped as readflow's incoming-webhook handler: a // want package:`noContextWaitsReported\(1\)`
// request carries a batch of articles.
package batchapi

import (
	"net/http"

	"example.com/batchsvc"
)

type API struct{ Reg *batchsvc.Registry }

func (a *API) PostArticles(w http.ResponseWriter, r *http.Request) {
	a.Reg.CreateAll(r.Context(), r.URL.Query()["url"])
}

func (a *API) PostArticlesLimited(w http.ResponseWriter, r *http.Request) { // want PostArticlesLimited:"parksOnSend\\(r.Slots via \\(\\*batchsvc.Registry\\).CreateAllLimited\\)"
	a.Reg.CreateAllLimited(r.Context(), r.URL.Query()["url"])
	a.Reg.ReadAll(r.Context(), r.URL.Query()["url"])
}
