// Package infergroup keeps two pools of one type in one value, as // want package:`lanes\(\(\*infergroup\.App\)\.records@interactive, \(\*infergroup\.App\)\.cleanupLoop@background\)`
// pocketbase's core.BaseApp does; both are opened in one function, so one
// finding names both, and the message must not call them alternatives.
package infergroup

import (
	"database/sql"
	"net/http"
	"time"
)

type App struct {
	readDB  *sql.DB
	writeDB *sql.DB
	// cacheDB is reached by the handlers only: not shared, not named.
	cacheDB *sql.DB
}

func NewApp() *App { // want NewApp:`creates\(infergroup\.App\.cacheDB, infergroup\.App\.readDB, infergroup\.App\.writeDB\)`
	read, _ := sql.Open("sqlite", "data.db?mode=ro") // want `database pools infergroup.App.readDB and infergroup.App.writeDB each serve both interactive and background work, and no lanes are declared`
	write, _ := sql.Open("sqlite", "data.db")
	cache, _ := sql.Open("sqlite", "cache.db")
	return &App{readDB: read, writeDB: write, cacheDB: cache}
}

func (a *App) records(w http.ResponseWriter, r *http.Request) {
	a.readDB.Query("SELECT * FROM records")
	a.writeDB.Exec("UPDATE records SET seen = 1")
	a.cacheDB.Query("SELECT * FROM cache")
}

// cleanupLoop deletes expired rows on a ticker, through both pools.
func (a *App) cleanupLoop() {
	t := time.NewTicker(time.Minute)
	for range t.C {
		a.readDB.Query("SELECT id FROM records WHERE expired")
		a.writeDB.Exec("DELETE FROM records WHERE expired")
	}
}

func Main() { // want Main:`reaches\(infergroup\.App\.readDB\(no lane\), infergroup\.App\.writeDB\(no lane\)\)` Main:`creates\(infergroup\.App\.cacheDB, infergroup\.App\.readDB, infergroup\.App\.writeDB\)`
	a := NewApp()
	http.HandleFunc("/records", a.records)
	go a.cleanupLoop()
}
