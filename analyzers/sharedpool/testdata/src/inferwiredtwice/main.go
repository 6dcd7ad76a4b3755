// Command inferwiredtwice serves requests and sweeps sessions on one pool, // want package:`lanes\(func literal in main\.main@interactive, func literal in main\.main@background\)`
// and has a migrate command that opens another: main wires the pool's
// constructor twice, so neither call is "the" creation, but one call opens
// the pool for both, and the finding sits there, where its limits are set.
package main

import (
	"net/http"
	"os"
	"time"

	"inferwiredtwice/migrate"
	"inferwiredtwice/store"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "migrate" {
		migrate.Run()
		return
	}
	db, _ := store.NewDB("app")
	http.HandleFunc("/users", func(w http.ResponseWriter, r *http.Request) { db.Find() })
	go func() {
		for range time.Tick(time.Minute) {
			db.Sweep()
		}
	}()
	http.ListenAndServe(":8080", nil)
}
