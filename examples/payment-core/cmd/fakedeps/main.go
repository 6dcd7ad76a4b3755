// Command fakedeps runs payment-core's three dependencies on loopback — the
// card network, the fraud scoring service and the tax API — with a latency
// and an error rate that can be changed while they run:
//
//	curl -X POST 'http://127.0.0.1:9301/admin?latency=8000ms&error_rate=0'
//	curl -X POST 'http://127.0.0.1:9201/admin?latency=0s&error_rate=1&status=503'   # an outage
//	curl http://127.0.0.1:9301/admin
//
// Latency is the mean; each call waits latency ± jitter (default ±20%). A
// call whose client gives up stops waiting at once.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// fault is a dependency's current behaviour.
type fault struct {
	mu        sync.Mutex
	latency   time.Duration
	jitter    float64 // fraction of latency
	errorRate float64
	status    int // the failed calls' status; default 500
}

type faultView struct {
	Latency   string  `json:"latency"`
	Jitter    float64 `json:"jitter"`
	ErrorRate float64 `json:"error_rate"`
	Status    int     `json:"status"`
}

func (f *fault) view() faultView {
	f.mu.Lock()
	defer f.mu.Unlock()
	return faultView{Latency: f.latency.String(), Jitter: f.jitter, ErrorRate: f.errorRate, Status: f.failStatus()}
}

func (f *fault) failStatus() int {
	if f.status == 0 {
		return http.StatusInternalServerError
	}
	return f.status
}

// failed answers a failed call with the fault's status.
func (f *fault) failed(w http.ResponseWriter, msg string) {
	f.mu.Lock()
	st := f.failStatus()
	f.mu.Unlock()
	http.Error(w, msg, st)
}

// delay is this call's latency and whether it fails.
func (f *fault) delay() (time.Duration, bool) {
	f.mu.Lock()
	lat, j, er := f.latency, f.jitter, f.errorRate
	f.mu.Unlock()
	d := time.Duration(float64(lat) * (1 + j*(2*rand.Float64()-1)))
	return d, rand.Float64() < er
}

// wait applies the fault; false means answer 500 (or the client left).
func (f *fault) wait(ctx context.Context) bool {
	d, failNow := f.delay()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return !failNow
	case <-ctx.Done():
		return false
	}
}

func (f *fault) admin(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodPost {
		if err := f.set(r); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(f.view())
}

func (f *fault) set(r *http.Request) error {
	q := r.URL.Query()
	f.mu.Lock()
	defer f.mu.Unlock()
	if v := q.Get("latency"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 || d > time.Minute {
			return fmt.Errorf("latency %q: want a duration between 0 and 1m", v)
		}
		f.latency = d
	}
	if v := q.Get("jitter"); v != "" {
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || x < 0 || x > 1 {
			return fmt.Errorf("jitter %q: want a fraction between 0 and 1", v)
		}
		f.jitter = x
	}
	if v := q.Get("error_rate"); v != "" {
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || x < 0 || x > 1 {
			return fmt.Errorf("error_rate %q: want a fraction between 0 and 1", v)
		}
		f.errorRate = x
	}
	if v := q.Get("status"); v != "" {
		x, err := strconv.Atoi(v)
		if err != nil || x < 500 || x > 599 {
			return fmt.Errorf("status %q: want a 5xx status for the failed calls", v)
		}
		f.status = x
	}
	return nil
}

// taxRates is the fake tax API's authority: the published rates the
// service's verified table was checked against.
var taxRates = map[string]float64{"US-CA": 0.0725, "US-NY": 0.04, "US-TX": 0.0625, "US-WA": 0.065, "US-FL": 0.06}

func main() {
	cardAddr := flag.String("card", "127.0.0.1:9101", "card network listen address")
	fraudAddr := flag.String("fraud", "127.0.0.1:9201", "fraud service listen address")
	taxAddr := flag.String("tax", "127.0.0.1:9301", "tax API listen address")
	cardLat := flag.Duration("card-latency", 10*time.Millisecond, "card network latency")
	fraudLat := flag.Duration("fraud-latency", 15*time.Millisecond, "fraud service latency")
	taxLat := flag.Duration("tax-latency", 50*time.Millisecond, "tax API latency")
	flag.Parse()

	card := &fault{latency: *cardLat, jitter: 0.2}
	fraud := &fault{latency: *fraudLat, jitter: 0.2}
	taxF := &fault{latency: *taxLat, jitter: 0.2}

	cardMux := http.NewServeMux()
	cardMux.HandleFunc("/admin", card.admin)
	cardMux.HandleFunc("POST /authorize", func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			AmountCents int64 `json:"amount_cents"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		if !card.wait(r.Context()) {
			card.failed(w, "card network error")
			return
		}
		answer(w, map[string]any{"approved": req.AmountCents <= 1_000_000})
	})

	fraudMux := http.NewServeMux()
	fraudMux.HandleFunc("/admin", fraud.admin)
	fraudMux.HandleFunc("POST /score", func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			CardHash string `json:"card_hash"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		if !fraud.wait(r.Context()) {
			fraud.failed(w, "fraud service error")
			return
		}
		answer(w, map[string]any{"score": len(req.CardHash) * 7 % 100})
	})

	taxMux := http.NewServeMux()
	taxMux.HandleFunc("/admin", taxF.admin)
	taxMux.HandleFunc("GET /quote", func(w http.ResponseWriter, r *http.Request) {
		rate, ok := taxRates[r.FormValue("jurisdiction")]
		amount, err := strconv.ParseInt(r.FormValue("amount"), 10, 64)
		if !ok || err != nil {
			http.Error(w, "unknown jurisdiction or bad amount", http.StatusNotFound)
			return
		}
		if !taxF.wait(r.Context()) {
			taxF.failed(w, "tax API error")
			return
		}
		answer(w, map[string]any{"tax_cents": int64(float64(amount)*rate + 0.5)})
	})

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	servers := []*http.Server{
		{Addr: *cardAddr, Handler: cardMux, ReadHeaderTimeout: 2 * time.Second},
		{Addr: *fraudAddr, Handler: fraudMux, ReadHeaderTimeout: 2 * time.Second},
		{Addr: *taxAddr, Handler: taxMux, ReadHeaderTimeout: 2 * time.Second},
	}
	errc := make(chan error, len(servers))
	for _, s := range servers {
		ln, err := net.Listen("tcp", s.Addr)
		if err != nil {
			log.Fatalf("fakedeps: %v", err)
		}
		go func() { errc <- s.Serve(ln) }()
	}
	log.Printf("fakedeps: card %s, fraud %s, tax %s", *cardAddr, *fraudAddr, *taxAddr)
	select {
	case err := <-errc:
		if !errors.Is(err, http.ErrServerClosed) {
			log.Fatalf("fakedeps: %v", err)
		}
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	for _, s := range servers {
		_ = s.Close()
		_ = s.Shutdown(shutdown)
	}
}

func answer(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}
