// Package inferstmt prepares its queries into a struct of statements, as // want package:`lanes\(\(\*inferstmt\.App\)\.getCampaign@interactive, \(\*inferstmt\.App\)\.run@background\)`
// listmonk does: the handlers query the pool and run some statements, the
// campaign loop runs others; all are the one pool.
package inferstmt

import (
	"database/sql"
	"net/http"
)

var db *sql.DB

type Queries struct {
	GetCampaign  *sql.Stmt
	NextBatch    *sql.Stmt
	UpdateStatus *sql.Stmt
}

// Stmt is a user type named like a statement: not a pool.
type Stmt struct{ Text string }

type App struct {
	queries *Queries
	// texts hold query text only: reached from both, never reported.
	texts *Stmt
}

func initQueries(db *sql.DB) *Queries {
	var q Queries
	q.GetCampaign, _ = db.Prepare("SELECT * FROM campaigns WHERE id = $1")
	q.NextBatch, _ = db.Prepare("SELECT * FROM subscribers LIMIT $1")
	q.UpdateStatus, _ = db.Prepare("UPDATE campaigns SET status = $1")
	return &q
}

func (a *App) getCampaign(w http.ResponseWriter, r *http.Request) {
	a.queries.GetCampaign.Query(1)
	db.Query("SELECT count(*) FROM campaigns")
	_ = a.texts.Text
}

// run sends the queued campaigns for the life of the process.
func (a *App) run(queue chan int) {
	for id := range queue {
		a.queries.NextBatch.Query(id)
		a.queries.UpdateStatus.Exec("finished")
		_ = a.texts.Text
	}
}

func Main() { // want Main:`reaches\(inferstmt\.Queries\.NextBatch\(no lane\), inferstmt\.Queries\.UpdateStatus\(no lane\), inferstmt\.db\(no lane\)\)` Main:`creates\(inferstmt\.db\)`
	db, _ = sql.Open("postgres", "app") // want `inferstmt.db, a database pool created once, serves both interactive and background work`
	app := &App{texts: &Stmt{}}
	app.queries = initQueries(db)
	http.HandleFunc("/campaign", app.getCampaign)
	go app.run(make(chan int))
}
