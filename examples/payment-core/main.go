// Command payment-core is a small payment service with three kinds of work —
// card authorisation, fraud scoring and tax quotes — used to show what bhlint
// finds and what the bulkhead runtime prevents.
//
//	payment-core -mode=bulkhead   # each lane its own workers, queue, DB pool, sockets
//	payment-core -mode=before     # the incident: one shared worker pool and DB pool
//
// It needs PostgreSQL (PAYMENT_CORE_DSN) and the three dependencies, which
// cmd/fakedeps provides. The code under internal/ that the service does not
// serve (checkout, webhooks, card, fraud, merchant, pools, tax/estimate.go)
// is the code bhlint catches, one finding per analyzer.
package main

import (
	"context"
	"errors"
	"flag"
	"log"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/bhlint/bhlint/examples/payment-core/internal/service"
)

func main() {
	var cfg service.Config
	flag.StringVar(&cfg.Mode, "mode", envOr("PAYMENT_CORE_MODE", service.ModeBulkhead), "bulkhead or before")
	flag.StringVar(&cfg.DSN, "dsn", envOr("PAYMENT_CORE_DSN", "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"), "PostgreSQL DSN")
	flag.StringVar(&cfg.CardURL, "card-url", envOr("CARD_NETWORK_URL", "http://127.0.0.1:9101"), "card network base URL")
	flag.StringVar(&cfg.FraudURL, "fraud-url", envOr("FRAUD_API_URL", "http://127.0.0.1:9201"), "fraud service base URL")
	flag.StringVar(&cfg.TaxURL, "tax-url", envOr("TAX_API_URL", "http://127.0.0.1:9301"), "tax API base URL")
	addr := flag.String("addr", envOr("PAYMENT_CORE_ADDR", "127.0.0.1:8080"), "listen address")
	reset := flag.Bool("reset", false, "empty the tables the service writes before starting")
	flag.BoolVar(&cfg.Faults, "faults", false, "serve POST /debug/fault (the recovery-lag drill's fault injection)")
	flag.BoolVar(&cfg.NoLagReset, "no-lag-reset", false, "do not reset a lane's pool on ALERT_BULKHEAD_RECOVERY_LAG (the drill's contrast)")
	flag.BoolVar(&cfg.Reports, "reports", false, "serve POST /merchant/report in a lane every merchant shares (the noisy-neighbour drill)")
	flag.BoolVar(&cfg.TenantQuotas, "tenant-quotas", false, "with -reports: per-merchant quotas in the reports lane (X-Merchant-ID)")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := service.Setup(ctx, cfg.DSN, *reset); err != nil {
		log.Fatal(err)
	}
	svc, err := service.New(ctx, cfg)
	if err != nil {
		log.Fatal(err)
	}
	defer svc.Close()

	srv := &http.Server{
		Addr:              *addr,
		Handler:           svc,
		ReadHeaderTimeout: 2 * time.Second,
		WriteTimeout:      15 * time.Second,
		IdleTimeout:       60 * time.Second,
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.ListenAndServe() }()
	log.Printf("payment-core (%s mode) listening on %s", cfg.Mode, *addr)
	select {
	case err := <-errc:
		log.Fatal(err)
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Printf("payment-core: shutdown: %v", err)
	}
	log.Printf("payment-core: stopped")
}

func envOr(name, fallback string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return fallback
}
