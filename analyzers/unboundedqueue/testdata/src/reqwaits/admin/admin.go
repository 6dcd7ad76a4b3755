// Package admin serves the admin pages on top of the API's routes; its // want package:`noContextWaitsReported\(3\)` package:"limitsPools"
// handler reaches the uptime wait too, which api, before it, reported:
// silent here.
package admin

import (
	"fmt"
	"net/http"

	"reqwaits/api"
	"reqwaits/store"
)

func Routes() { // want Routes:"waitsOnNetwork"
	api.Routes()
	http.HandleFunc("/admin/uptime", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, store.Get().Uptime("all"))
	})
}
