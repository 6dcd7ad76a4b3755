// Command modstore serves devices and cleans sessions up every hour, both // want package:`lanes\(func literal in main\.main@interactive, func literal in main\.main@background\)`
// through the service and the store interface, on the one pool sqlstore
// opens: the interfaces' packages reach no database, their implementation
// does.
package main

import (
	"net/http"
	"time"

	"example.com/modstore/service"
	"example.com/modstore/store/sqlstore"
)

func main() {
	st, _ := sqlstore.Open("postgres://app") // want `sqlstore.Store.db, a database pool created once, serves both interactive and background work`
	svc := service.New(st)
	http.HandleFunc("/devices", func(w http.ResponseWriter, r *http.Request) { svc.Device(r.URL.Query().Get("id")) })
	go func() {
		for range time.Tick(time.Hour) {
			svc.Cleanup()
		}
	}()
	http.ListenAndServe(":8080", nil)
}
