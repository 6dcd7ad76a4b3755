// Package inferdirect declares no lanes: its handlers and its ticker loop // want package:`lanes\(inferdirect\.listFeeds@interactive, inferdirect\.withAudit@interactive, inferdirect\.refreshLoop@background, inferdirect\.exportLoop@background\)`
// are the two inferred classes.
package inferdirect

import (
	"database/sql"
	"net/http"
	"time"
)

var db *sql.DB

// reportDB is the background work's own pool: not shared.
var reportDB *sql.DB

func open() {
	db, _ = sql.Open("postgres", "app") // want `inferdirect.db, a database pool created once, serves both interactive and background work, and no lanes are declared: interactive by inferdirect.listFeeds → inferdirect.db \(net/http handler registered with http.HandleFunc\); background by inferdirect.refreshLoop → inferdirect.db \(ticker loop started by go inferdirect.refreshLoop\(\)\)`
	reportDB, _ = sql.Open("postgres", "reports")
}

func listFeeds(w http.ResponseWriter, r *http.Request) {
	db.Query("SELECT * FROM feeds")
}

func refreshLoop() {
	t := time.NewTicker(time.Minute)
	for range t.C {
		db.Exec("UPDATE feeds SET checked = now()")
	}
}

// exportLoop uses the reports pool only.
func exportLoop(jobs chan string) {
	for j := range jobs {
		reportDB.Exec("INSERT INTO exports VALUES ($1)", j)
	}
}

// audit runs once per request, in a goroutine of the request: it is part
// of the interactive work, not a background loop, even though it loops.
func audit(events chan string) {
	for e := range events {
		db.Exec("INSERT INTO audit VALUES ($1)", e)
	}
}

func withAudit(w http.ResponseWriter, r *http.Request) {
	events := make(chan string)
	go audit(events)
	events <- r.URL.Path
	close(events)
}

// warm runs once at start-up and returns: not a background loop.
func warm() {
	db.Exec("SELECT 1")
}

func Main() { // want Main:`reaches\(inferdirect\.db\(no lane\), inferdirect\.reportDB\(no lane\)\)` Main:`creates\(inferdirect\.db, inferdirect\.reportDB\)`
	open()
	http.HandleFunc("/feeds", listFeeds)
	http.HandleFunc("/audited", withAudit)
	go refreshLoop()
	go exportLoop(make(chan string))
	go warm()
}
