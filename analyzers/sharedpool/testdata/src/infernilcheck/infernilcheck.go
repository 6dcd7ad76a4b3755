// Package infernilcheck declares no lanes. Its background loop asks // want package:`lanes\(infernilcheck\.listFeeds@interactive, infernilcheck\.watchLoop@background\)`
// whether the pools are open; it queries only one of them. Comparing a
// pool with nil takes no connection: that pool is not shared.
package infernilcheck

import (
	"database/sql"
	"net/http"
	"time"
)

var (
	db     *sql.DB // queried by both classes: shared
	metaDB *sql.DB // queried by requests, only compared with nil in the background
)

func open() {
	db, _ = sql.Open("postgres", "app") // want `infernilcheck.db, a database pool created once, serves both interactive and background work`
	metaDB, _ = sql.Open("postgres", "meta")
}

func listFeeds(w http.ResponseWriter, r *http.Request) {
	db.Query("SELECT * FROM feeds")
	metaDB.Query("SELECT * FROM meta")
}

func ready() bool { return metaDB != nil }

func watchLoop() {
	t := time.NewTicker(time.Minute)
	for range t.C {
		if !ready() || metaDB == nil {
			continue
		}
		db.Exec("UPDATE feeds SET checked = now()")
	}
}

func Main() { // want Main:`reaches\(infernilcheck\.db\(no lane\), infernilcheck\.metaDB\(no lane\)\)` Main:`creates\(infernilcheck\.db, infernilcheck\.metaDB\)`
	open()
	http.HandleFunc("/feeds", listFeeds)
	go watchLoop()
}
