// Package inferdbx keeps its pools as pocketbase does: dbx.Builder fields // want package:`lanes\(\(\*inferdbx\.App\)\.records@interactive, \(\*inferdbx\.App\)\.cleanupLoop@background\)`
// filled with *dbx.DB; the one both classes reach is reported where the
// first *dbx.DB is made.
package inferdbx

import (
	"database/sql"
	"net/http"
	"time"

	"github.com/pocketbase/dbx"
)

type App struct {
	concurrentDB dbx.Builder
	// logsDB is the background work's own pool: not shared.
	logsDB *dbx.DB
	// params are not a pool: reached from both, never reported.
	params dbx.Params
}

func NewApp() *App { // want NewApp:`creates\(inferdbx\.App\.concurrentDB, inferdbx\.App\.logsDB\)`
	main, _ := dbx.Open("sqlite", "data.db") // want `inferdbx.App.concurrentDB, a database pool created once, serves both interactive and background work`
	raw, _ := sql.Open("sqlite", "logs.db")
	return &App{concurrentDB: main, logsDB: dbx.NewFromDB(raw, "sqlite"), params: dbx.Params{}}
}

func (a *App) records(w http.ResponseWriter, r *http.Request) {
	a.concurrentDB.NewQuery("SELECT * FROM records").Execute()
	_ = a.params["x"]
}

// cleanupLoop deletes expired rows and flushes logs on a ticker.
func (a *App) cleanupLoop() {
	t := time.NewTicker(time.Minute)
	for range t.C {
		a.concurrentDB.NewQuery("DELETE FROM mfas WHERE expired").Execute()
		a.logsDB.NewQuery("INSERT INTO logs").Execute()
		_ = a.params["y"]
	}
}

func Main() { // want Main:`reaches\(inferdbx\.App\.concurrentDB\(no lane\), inferdbx\.App\.logsDB\(no lane\)\)` Main:`creates\(inferdbx\.App\.concurrentDB, inferdbx\.App\.logsDB\)`
	a := NewApp()
	http.HandleFunc("/records", a.records)
	go a.cleanupLoop()
}
