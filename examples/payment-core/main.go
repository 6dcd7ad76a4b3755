// Command payment-core is a small payment service with three kinds of work —
// card authorisation, fraud scoring and tax quotes — used to show what bhlint
// finds and what the bulkhead runtime prevents.
package main

import (
	"context"
	"log"
	"net/http"
	"os"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/bhlint/bhlint/examples/payment-core/internal/store"
	"github.com/bhlint/bhlint/examples/payment-core/internal/tax"
	"github.com/bhlint/bhlint/examples/payment-core/internal/taxclient"
)

func main() {
	dsn := envOr("PAYMENT_CORE_DSN", "postgres://postgres@127.0.0.1:5432/test")
	pool, err := pgxpool.New(context.Background(), dsn)
	if err != nil {
		log.Fatalf("payment-core: connecting to %s: %v", dsn, err)
	}
	defer pool.Close()

	taxAPI := taxclient.New(envOr("TAX_API_URL", "http://127.0.0.1:9301"), 10*time.Second)
	quotes := &tax.Handler{Store: store.New(pool), TaxAPI: taxAPI}

	mux := http.NewServeMux()
	mux.Handle("POST /tax/quote", quotes)
	addr := envOr("PAYMENT_CORE_ADDR", "127.0.0.1:8080")
	log.Printf("payment-core listening on %s", addr)
	log.Fatal(http.ListenAndServe(addr, mux))
}

func envOr(name, fallback string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return fallback
}
