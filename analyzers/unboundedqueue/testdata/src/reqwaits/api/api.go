// Package api answers requests from the store. // want package:`noContextWaitsReported\(3\)` package:"limitsPools"
package api

import (
	"fmt"
	"net/http"

	"reqwaits/nomax"
	"reqwaits/store"
)

func Routes() { // want Routes:"waitsOnNetwork"
	http.HandleFunc("/uptime", uptime)
	http.HandleFunc("/count", count)
	http.HandleFunc("/tags", tags)
	http.HandleFunc("/prune", prune)
}

func uptime(w http.ResponseWriter, r *http.Request) { // want uptime:"waitsNoContext" uptime:"waitsOnNetwork"
	fmt.Fprint(w, store.Get().Uptime(r.URL.Query().Get("key")))
}

func tags(w http.ResponseWriter, r *http.Request) { // want tags:"waitsOnNetwork"
	fmt.Fprint(w, nomax.Tags())
}

func count(w http.ResponseWriter, r *http.Request) { // want count:`waitsNoContext\(\(\*sql.DB\).QueryRow in \(Store\).Count \+1\)`
	fmt.Fprint(w, store.Get().Count(r.Context()))
}

func prune(w http.ResponseWriter, r *http.Request) {
	store.Get().OnPrune(r.Context())
}
