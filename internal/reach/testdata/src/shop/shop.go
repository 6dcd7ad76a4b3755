// Package shop is a service with no declared lanes: its HTTP handlers are
// inferred interactive entry points, its start-up loop a background one.
package shop

import (
	"context"
	"database/sql"
	"net/http"
	"os/exec"
	"time"

	"github.com/redis/go-redis/v9"

	"pb"
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

// signup sends the welcome mail in a goroutine: it does not wait on it,
// and its transaction is not held there.
func signup(w http.ResponseWriter, r *http.Request) {
	tx, err := DB.BeginTx(r.Context(), nil)
	if err != nil {
		return
	}
	defer tx.Rollback()
	go func() {
		Webhooks.Post("https://mail.example.com/welcome", "text/plain", nil)
	}()
	tx.Commit()
}

// Billing is a gRPC service's generated client; Cache a Redis client.
var (
	Billing pb.BillingClient
	Cache   redis.UniversalClient
)

// pay charges through gRPC inside a transaction, and reads the cache
// after the commit.
func pay(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	InTx(ctx, func(tx *sql.Tx) error {
		_, err := Billing.Charge(ctx, &pb.ChargeRequest{})
		return err
	})
	Cache.Get(ctx, "receipt")
}

// export starts a loop from a request: it is part of the request, not a
// background entry point of its own.
func export(w http.ResponseWriter, r *http.Request) {
	go func() {
		for {
			Audit.Get("https://audit.example.com/export")
			time.Sleep(time.Second)
		}
	}()
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
	http.HandleFunc("/thumbnail", thumbnail)
	http.HandleFunc("/signup", signup)
	http.HandleFunc("/pay", pay)
	http.HandleFunc("/export", export)
	http.HandleFunc("/refund", func(w http.ResponseWriter, r *http.Request) {
		taxapi.PostAsync(Webhooks, "https://hooks.example.com/refund")
	})
	go auditLoop()
	http.ListenAndServe(":8080", nil)
}

// Handler is wired where bhlint cannot see (a middleware's map): no entry
// point reaches the payment API, and Handler is listed as what does.
type Handler struct{ Pay *http.Client }

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	InTx(r.Context(), func(tx *sql.Tx) error {
		_, err := h.Pay.Get("https://pay.example.com/charge")
		return err
	})
}
