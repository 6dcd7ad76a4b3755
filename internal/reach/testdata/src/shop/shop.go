// Package shop is a service with no declared lanes: its HTTP handlers are
// inferred interactive entry points, its start-up loop a background one.
package shop

import (
	"context"
	"database/sql"
	"net/http"
	"os/exec"
	"time"

	"github.com/bhlint/bhlint/bulkhead"

	"taxapi"
)

// DB is the orders pool, which every handler needs.
var DB *sql.DB

// ReportsDB is the reporting pool, which only the background loop uses.
var ReportsDB *sql.DB

var (
	Tax      *taxapi.Client // reached inside a transaction of DB
	Webhooks *http.Client   // called after the commit: holds nothing
	Audit    *http.Client   // only the background loop calls it
	Fraud    *http.Client   // called inside a lane executor's slot
)

// InTx is a user's transaction helper: fn runs while the tx is held.
func InTx(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := DB.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return err
	}
	return tx.Commit()
}

// quote calls the tax API inside InTx's transaction: every DB user
// stalls when the tax API slows.
func quote(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	InTx(ctx, func(tx *sql.Tx) error {
		return Tax.Quote(ctx, r.FormValue("order"))
	})
}

// checkout holds its transaction across the tax API, commits, and only
// then calls the webhooks: they hold nothing.
func checkout(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	tx, err := DB.BeginTx(ctx, nil)
	if err != nil {
		return
	}
	defer tx.Rollback()
	if err := Tax.Quote(ctx, "o1"); err != nil {
		return
	}
	if err := tx.Commit(); err != nil {
		return
	}
	taxapi.Post(ctx, Webhooks, "https://hooks.example.com/paid")
}

// browse only reads the orders pool.
func browse(w http.ResponseWriter, r *http.Request) {
	var n int
	DB.QueryRowContext(r.Context(), "SELECT count(*) FROM orders").Scan(&n)
}

// auditLoop holds a reporting transaction while it calls the audit
// service: only the background loop needs that pool, so no handler stalls.
func auditLoop() {
	for {
		time.Sleep(time.Minute)
		tx, err := ReportsDB.Begin()
		if err != nil {
			continue
		}
		Audit.Get("https://audit.example.com/ping")
		tx.Commit()
	}
}

// Scoring is the fraud lane's type.
type Scoring struct{}

func (Scoring) Spec() bulkhead.LaneSpec { return bulkhead.LaneSpec{Name: "scoring"} }

var scoring, _ = bulkhead.NewExecutor[Scoring]()

// score runs the fraud call in the scoring executor: it holds a slot.
func score(w http.ResponseWriter, r *http.Request) {
	scoring.Do(r.Context(), func(ctx context.Context) error {
		_, err := Fraud.Get("https://fraud.example.com/score")
		return err
	})
}

// rescore is another user of the scoring executor.
func rescore(w http.ResponseWriter, r *http.Request) {
	scoring.Do(r.Context(), func(ctx context.Context) error { return nil })
}

// thumbnail runs a subprocess.
func thumbnail(w http.ResponseWriter, r *http.Request) {
	exec.CommandContext(r.Context(), "/usr/bin/convert", "in.png", "out.png").Run()
}

// Main registers the handlers and starts the loop.
func Main() {
	http.HandleFunc("/quote", quote)
	http.HandleFunc("/checkout", checkout)
	http.HandleFunc("/browse", browse)
	http.HandleFunc("/score", score)
	http.HandleFunc("/rescore", rescore)
	http.HandleFunc("/thumbnail", thumbnail)
	go auditLoop()
	http.ListenAndServe(":8080", nil)
}
