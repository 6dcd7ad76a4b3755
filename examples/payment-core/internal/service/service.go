// Package service is payment-core as a running service: three lanes (card
// authorisation, fraud scoring, tax quotes) on PostgreSQL, each calling its
// own dependency over HTTP, in one of two modes.
//
//   - ModeBulkhead: every lane has its own executor (workers and queue), its
//     own PostgreSQL pool (a lanepgx.Pool[L]; pg_stat_activity shows it by
//     application_name payment-core/<lane>) and its own outbound sockets,
//     sized by the payment spec. Tax sheds with 503 and a verified estimate, fraud
//     degrades to an async scoring queue, card_auth throttles with 429.
//   - ModeBefore: the tax-API incident. One shared worker pool of 120,
//     one shared PostgreSQL pool of 60 (payment-core/shared), and the tax
//     quote handler that holds an order's row lock, and so its connection,
//     while it calls the tax API (internal/tax.Handler, which bhlint
//     reports).
package service

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/bhlint/bhlint/bulkhead"
	"github.com/bhlint/bhlint/bulkhead/compensation"
	"github.com/bhlint/bhlint/bulkhead/lanebreaker"
	"github.com/bhlint/bhlint/bulkhead/lanepgx"
	"github.com/bhlint/bhlint/bulkhead/lanepool"
	"github.com/bhlint/bhlint/bulkhead/tenant"

	"github.com/bhlint/bhlint/examples/payment-core/internal/store"
	"github.com/bhlint/bhlint/examples/payment-core/internal/tax"
	"github.com/bhlint/bhlint/examples/payment-core/internal/taxclient"
)

// The two modes.
const (
	ModeBulkhead = "bulkhead"
	ModeBefore   = "before"
)

// Request deadlines, from arrival: a request that has not finished by then
// is answered 504 and everything it holds is released.
const (
	CardAuthDeadline = time.Second
	FraudDeadline    = time.Second
	// TaxDeadline is the tax lane's deadline in bulkhead mode; the tax API
	// call inside it gives up after TaxAPITimeout and falls back to the
	// verified table.
	TaxDeadline   = 3 * time.Second
	TaxAPITimeout = 2 * time.Second
	// LegacyTaxDeadline is the before mode's: the incident's 10 s socket
	// timeout, plus a second for the database.
	LegacyTaxDeadline = 11 * time.Second
	LegacyTaxTimeout  = 10 * time.Second
)

// Config is what the service needs to start.
type Config struct {
	Mode     string // ModeBulkhead or ModeBefore
	DSN      string
	CardURL  string // the card network
	FraudURL string // the fraud scoring service
	TaxURL   string // the tax API
	// Faults serves POST /debug/fault, the recovery-lag drill's fault
	// injection (faults.go). Off by default.
	Faults bool
	// FraudBreaker is the fraud lane's breaker; zero fields are the spec's
	// terms (lanebreaker's defaults). Tests shorten OpenFor.
	FraudBreaker lanebreaker.Config
	// NoLagReset: the lanes do not reset their pools on
	// ALERT_BULKHEAD_RECOVERY_LAG (the drill's contrast run).
	NoLagReset bool
	// Reports serves POST /merchant/report in its own lane, which every
	// merchant shares (bulkhead mode; reports.go), and TenantQuotas puts
	// per-merchant quotas in front of it: the noisy-neighbour drill.
	Reports, TenantQuotas bool
}

// Server is the service. Its pool and client fields belong to lanes: the
// lanepgx pools by their type, the clients by their //bhlint:lane marks. In
// before mode the lane pools are nil and sharedDB, one pgxpool, serves
// card_auth's and fraud's statements, which is the incident.
type Server struct {
	mode string

	cardDB  *lanepgx.Pool[CardAuth]
	fraudDB *lanepgx.Pool[Fraud]
	taxDB   *lanepgx.Pool[Tax]
	// reportsDB and reportQuotas: the reports lane (Config.Reports)
	reportsDB    lanePool[Reports]
	reportQuotas *tenant.Lane
	sharedDB     *pgxpool.Pool // before mode only

	cardNet  *http.Client //bhlint:lane card_auth
	fraudAPI *http.Client //bhlint:lane fraud
	taxAPI   *http.Client //bhlint:lane tax

	cardURL, fraudURL, taxURL string

	rates        *compensation.Table
	fraudQ       *scoreQueue
	fraudBreaker *lanebreaker.Breaker // bulkhead mode
	fraudLane    bulkhead.Runner
	taxExec      *bulkhead.Executor[Tax] // bulkhead mode
	faults       faults
	lagAlerts    lagAlerts
	legacyTax    http.Handler // before mode only

	lanePools map[string]lanePgx // bulkhead mode, by lane name
	lanes     []bulkhead.Runner
	metrics   *metrics
	handler   http.Handler
}

// New connects the pools and builds the handler. Close releases them.
func New(ctx context.Context, cfg Config) (*Server, error) {
	rates, err := tax.LoadRates()
	if err != nil {
		return nil, fmt.Errorf("payment-core: the tax compensation table: %w", err)
	}
	s := &Server{
		mode: cfg.Mode, rates: rates, lanePools: map[string]lanePgx{},
		cardURL: cfg.CardURL, fraudURL: cfg.FraudURL, taxURL: cfg.TaxURL,
		metrics: newMetrics(),
	}
	var card, fraud, taxLane, reports bulkhead.Runner
	var onReject func(http.ResponseWriter, *http.Request, *bulkhead.Rejection) bool
	switch cfg.Mode {
	case ModeBulkhead:
		if err := s.openLanePools(ctx, cfg.DSN); err != nil {
			s.Close()
			return nil, err
		}
		s.cardNet = laneClient(CardAuthWorkers, 900*time.Millisecond)
		s.fraudAPI = laneClient(FraudWorkers, 900*time.Millisecond)
		s.taxAPI = laneClient(TaxWorkers, TaxAPITimeout)
		// The fraud vendor's breaker, with the spec's terms (lanebreaker's
		// defaults): open when more than half of the last 30 s's calls
		// failed, at least 20 of them; open 30 s; 3 probes close it.
		if s.fraudBreaker, err = lanebreaker.New(cfg.FraudBreaker); err != nil {
			s.Close()
			return nil, err
		}
		fraudExec, err := bulkhead.NewExecutor[Fraud](bulkhead.WithBreaker(s.fraudBreaker), bulkhead.WithObserver(&s.lagAlerts))
		if err != nil {
			s.Close()
			return nil, err
		}
		breaker := s.fraudBreaker
		s.fraudQ = newScoreQueue(s, fraudQueueWorkers, FraudQueueCapacity, FraudDrainRate,
			func() bool { return breaker.State() == bulkhead.BreakerClosed })
		cardExec, taxExec := bulkhead.MustExecutor[CardAuth](bulkhead.WithObserver(&s.lagAlerts)), bulkhead.MustExecutor[Tax](bulkhead.WithObserver(&s.lagAlerts))
		// A lane that lags in recovering (ALERT_BULKHEAD_RECOVERY_LAG)
		// resets its pool: idle connections closed, sessions stuck in a
		// transaction past the leak threshold ended.
		if !cfg.NoLagReset {
			cardExec.ResetOnRecoveryLag(s.cardDB)
			fraudExec.ResetOnRecoveryLag(s.fraudDB)
			taxExec.ResetOnRecoveryLag(s.taxDB)
		}
		s.taxExec = taxExec
		card, fraud, taxLane = cardExec, failureReporting[Fraud]{fraudExec}, failureReporting[Tax]{taxExec}
		s.fraudLane = fraud
		onReject = s.onReject
		if cfg.Reports {
			if reports, err = s.openReports(ctx, cfg.DSN, cfg.TenantQuotas); err != nil {
				s.Close()
				return nil, err
			}
		}
	case ModeBefore:
		if err := s.wireBefore(ctx, cfg); err != nil {
			return nil, err
		}
		one := bulkhead.MustExecutor[Shared]()
		card, fraud, taxLane = one, one, one
	default:
		return nil, fmt.Errorf("payment-core: unknown mode %q; use %q or %q", cfg.Mode, ModeBulkhead, ModeBefore)
	}
	s.lanes = uniqueRunners(card, fraud, taxLane)
	routes := map[string]bulkhead.Runner{
		"POST /card/authorize": card,
		"POST /fraud/score":    fraud,
		"POST /tax/quote":      taxLane,
	}
	if reports != nil {
		s.lanes = append(s.lanes, reports)
		routes["POST /merchant/report"] = reports
	}
	mw, err := bulkhead.NewMiddleware(bulkhead.MiddlewareConfig{
		Routes: routes,
		// The reports lane's tenant is the merchant (reports.go).
		Tenant: merchantOf,
		// The spec's retry limit: a client that retries a rejected request more than 3
		// times in 10 s is answered 429 at the edge. Clients are told apart
		// by X-Client-ID, as behind a gateway all callers share an address.
		RetryGuard: bulkhead.NewRetryGuard(bulkhead.RetryGuardConfig{Key: clientKey}),
		OnReject:   onReject,
	})
	if err != nil {
		s.Close()
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("POST /card/authorize", s.metrics.active(routeCardAuth, s.handle(authorize)))
	mux.Handle("POST /fraud/score", s.metrics.active(routeFraud, s.handle(score)))
	if s.legacyTax != nil {
		mux.Handle("POST /tax/quote", s.metrics.active(routeTax, s.legacyTax))
	} else {
		mux.Handle("POST /tax/quote", s.metrics.active(routeTax, s.handle(quote)))
	}
	if reports != nil {
		mux.Handle("POST /merchant/report", s.metrics.active(routeReports, s.handle(report)))
	}
	mux.HandleFunc("GET /debug/lanes", s.debugLanes)
	if cfg.Faults {
		mux.HandleFunc("POST /debug/fault", s.debugFault)
	}
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("ok\n")) })
	s.handler = s.withDeadline(mw.Wrap(mux))
	return s, nil
}

// wireBefore gives every lane the same pool and the same HTTP client, and
// serves tax quotes with the incident's handler. It is the shared failure
// domain bhlint exists to find, kept on purpose so the drill can show it.
//
//bhlint:ignore ERR_SHARED_FAILURE_DOMAIN_DETECTED the before mode reproduces the tax-API incident on purpose
func (s *Server) wireBefore(ctx context.Context, cfg Config) error {
	shared, err := openPool(ctx, cfg.DSN, "shared", SharedConns)
	if err != nil {
		return err
	}
	s.sharedDB = shared
	s.cardNet = laneClient(SharedWorkers, 10*time.Second)
	s.fraudAPI = s.cardNet
	s.legacyTax = &tax.Handler{Store: store.New(shared), TaxAPI: taxclient.New(cfg.TaxURL, LegacyTaxTimeout)}
	return nil
}

// openLanePools gives every lane its own lanepgx.Pool[L], of the lane's
// connection budget. A lane's callers wait for a connection at most the
// acquire timeout, a fraction of the lane's deadline; as many may wait as
// the lane has workers beyond its connections, so a caller is turned away
// only when the pool stayed full for the whole timeout.
func (s *Server) openLanePools(ctx context.Context, dsn string) error {
	card, err := openLanePool[CardAuth](ctx, dsn, lanepool.Config{
		MaxConns: CardAuthConns, MaxWaiters: CardAuthWorkers - CardAuthConns, AcquireTimeout: CardAuthAcquireTimeout,
	})
	if err != nil {
		return err
	}
	s.lanePools[card.Lane()] = card
	s.cardDB = card
	fraud, err := openLanePool[Fraud](ctx, dsn, lanepool.Config{
		// The async scoring queue's workers use the pool too.
		MaxConns: FraudConns, MaxWaiters: FraudWorkers + fraudQueueWorkers - FraudConns, AcquireTimeout: FraudAcquireTimeout,
	})
	if err != nil {
		return err
	}
	s.lanePools[fraud.Lane()] = fraud
	s.fraudDB = fraud
	if s.taxDB, err = openLanePool[Tax](ctx, dsn, lanepool.Config{
		MaxConns: TaxConns, MaxWaiters: TaxWorkers - TaxConns, AcquireTimeout: TaxAcquireTimeout,
	}); err != nil {
		return err
	}
	s.lanePools[s.taxDB.Lane()] = s.taxDB
	return nil
}

// statements is what the card_auth and fraud handlers run their statements
// on: the lane's own pool in bulkhead mode, the shared pool in before mode.
type statements interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// lanePool is a lane's pool as statements.
type lanePool[L bulkhead.Lane] struct{ *lanepgx.Pool[L] }

// QueryRow is lanepgx.Pool.QueryRow; the connection goes back at Scan.
func (p lanePool[L]) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	return p.Pool.QueryRow(ctx, sql, args...)
}

// cardStatements is where card_auth runs its statements.
func (s *Server) cardStatements() statements {
	if s.sharedDB != nil {
		return s.sharedDB
	}
	return lanePool[CardAuth]{s.cardDB}
}

// fraudStatements is where fraud runs its statements.
func (s *Server) fraudStatements() statements {
	if s.sharedDB != nil {
		return s.sharedDB
	}
	return lanePool[Fraud]{s.fraudDB}
}

// lanePgx is what Snapshot and Close need of a lane's pool.
type lanePgx interface {
	PoolStats() lanepool.Stats
	Pgx() *pgxpool.Pool
	Close()
}

// handle binds a handler function to the server. The handlers are
// functions, not methods, so that the lane map (bhlint lanes) lists the
// seeded entry points of each lane first.
func (s *Server) handle(h func(*Server, http.ResponseWriter, *http.Request)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h(s, w, r) })
}

// ServeHTTP serves the service's routes.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// Close stops the async queue and closes every pool; afterwards the service
// holds no PostgreSQL connection.
func (s *Server) Close() {
	if s.fraudQ != nil {
		s.fraudQ.close()
	}
	for _, p := range s.lanePools {
		p.Close()
	}
	if s.sharedDB != nil {
		s.sharedDB.Close()
	}
}

// openPool opens a pool of at most maxConns connections that PostgreSQL
// shows as application_name payment-core/<lane>.
func openPool(ctx context.Context, dsn, lane string, maxConns int32) (*pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("payment-core: parsing the DSN: %w", err)
	}
	// A fixed-size pool, as HikariCP's default (minimumIdle = maximumPoolSize):
	// every connection is opened at start, none on a request's path.
	cfg.MaxConns, cfg.MinConns = maxConns, maxConns
	cfg.ConnConfig.RuntimeParams["application_name"] = AppName(lane)
	cfg.ConnConfig.RuntimeParams["search_path"] = Schema
	p, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("payment-core: opening the %s pool: %w", lane, err)
	}
	// Wait (at most 15 s) for the pool to fill, so the service is ready
	// when it starts listening.
	for i := 0; i < 300 && p.Stat().TotalConns() < maxConns; i++ {
		time.Sleep(50 * time.Millisecond)
	}
	if n := p.Stat().TotalConns(); n < maxConns {
		p.Close()
		return nil, fmt.Errorf("payment-core: the %s pool opened %d of its %d connections in 15 s; is max_connections high enough?", lane, n, maxConns)
	}
	return p, nil
}

// openLanePool opens lane L's pool, whose sessions PostgreSQL shows as
// application_name payment-core/<lane>, and opens all its connections, as
// openPool does, so none is opened on a request's path.
func openLanePool[L bulkhead.Lane](ctx context.Context, dsn string, lcfg lanepool.Config) (*lanepgx.Pool[L], error) {
	spec, err := bulkhead.SpecOf[L]()
	if err != nil {
		return nil, err
	}
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("payment-core: parsing the DSN: %w", err)
	}
	cfg.ConnConfig.RuntimeParams["search_path"] = Schema
	// lanepgx names the sessions after the lane ("card_auth"); keep the
	// service's prefix, which the drill and the README's query look for.
	lcfg.ApplicationName = AppName(spec.Name)
	p, err := lanepgx.NewWithConfig[L](ctx, cfg, lcfg)
	if err != nil {
		return nil, fmt.Errorf("payment-core: opening the %s pool: %w", spec.Name, err)
	}
	if err := fill(ctx, p, lcfg.MaxConns); err != nil {
		p.Close()
		return nil, err
	}
	return p, nil
}

// fill opens n connections of p by holding n at once (at most 15 s), then
// gives them back: lanepgx keeps them idle, so the pool starts full like a
// fixed-size one. Start-up is outside every lane, so the guard lets it through.
func fill[L bulkhead.Lane](ctx context.Context, p *lanepgx.Pool[L], n int) error {
	held := make([]*lanepgx.Conn[L], 0, n)
	defer func() {
		for _, c := range held {
			c.Release()
		}
	}()
	deadline := time.Now().Add(15 * time.Second)
	var err error
	for len(held) < n && time.Now().Before(deadline) {
		var c *lanepgx.Conn[L]
		if c, err = p.Acquire(ctx); err != nil {
			if ctx.Err() != nil {
				break
			}
			time.Sleep(50 * time.Millisecond)
			continue
		}
		held = append(held, c)
	}
	if len(held) < n {
		return fmt.Errorf("payment-core: the %s pool opened %d of its %d connections in 15 s; is max_connections high enough? (last error: %v)", p.Lane(), len(held), n, err)
	}
	return nil
}

// AppName is the application_name of a lane's connections.
func AppName(lane string) string { return "payment-core/" + lane }

// laneClient is an HTTP client with its own sockets: at most conns
// connections to the dependency, so one lane cannot take another's.
func laneClient(conns int, timeout time.Duration) *http.Client {
	return &http.Client{
		Timeout: timeout,
		Transport: &http.Transport{
			MaxConnsPerHost:     conns,
			MaxIdleConnsPerHost: conns,
			IdleConnTimeout:     30 * time.Second,
		},
	}
}

func uniqueRunners(rs ...bulkhead.Runner) []bulkhead.Runner {
	var out []bulkhead.Runner
	seen := map[bulkhead.Runner]bool{}
	for _, r := range rs {
		if !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
	}
	return out
}

func clientKey(r *http.Request) string {
	if id := r.Header.Get("X-Client-ID"); id != "" {
		return id
	}
	return r.RemoteAddr
}

// withDeadline gives every request its lane's deadline and records how
// long rejections took.
func (s *Server) withDeadline(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		route := routeOf(r.URL.Path)
		d := deadlineOf(route, s.mode)
		if d > 0 {
			ctx, cancel := context.WithTimeout(r.Context(), d)
			defer cancel()
			r = r.WithContext(ctx)
		}
		sw := &statusWriter{ResponseWriter: w}
		next.ServeHTTP(sw, r)
		if route != routeNone && (sw.status == http.StatusServiceUnavailable || sw.status == http.StatusTooManyRequests) {
			s.metrics.shed(route, time.Since(start))
		}
	})
}

func deadlineOf(route, mode string) time.Duration {
	switch route {
	case routeCardAuth:
		return CardAuthDeadline
	case routeFraud:
		return FraudDeadline
	case routeTax:
		if mode == ModeBefore {
			return LegacyTaxDeadline
		}
		return TaxDeadline
	case routeReports:
		return ReportsDeadline
	}
	return 0
}

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// AuthRequest is the body of POST /card/authorize.
type AuthRequest struct {
	MerchantID  string `json:"merchant_id"`
	CardHash    string `json:"card_hash"`
	AmountCents int64  `json:"amount_cents"`
}

// authorize serves POST /card/authorize: the merchant must be active, the
// card network must approve, and the authorisation is recorded. The pool
// is used for one statement at a time and never held across the network
// call.
//
//bhlint:lane card_auth
func authorize(s *Server, w http.ResponseWriter, r *http.Request) {
	var req AuthRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.MerchantID == "" {
		http.Error(w, "bad request: want {merchant_id, card_hash, amount_cents}", http.StatusBadRequest)
		return
	}
	ctx := r.Context()
	var status string
	db := s.cardStatements()
	err := db.QueryRow(ctx, `SELECT status FROM merchants WHERE id = $1`, req.MerchantID).Scan(&status)
	if err != nil {
		fail(w, ctx, "merchant lookup", err)
		return
	}
	approved := false
	if status == "active" {
		var resp struct {
			Approved bool `json:"approved"`
		}
		if err := callJSON(ctx, s.cardNet, http.MethodPost, s.cardURL+"/authorize", req, &resp); err != nil {
			fail(w, ctx, "card network", err)
			return
		}
		approved = resp.Approved
	}
	_, err = db.Exec(ctx, `INSERT INTO authorizations (merchant_id, card_hash, amount_cents, approved) VALUES ($1, $2, $3, $4)`,
		req.MerchantID, req.CardHash, req.AmountCents, approved)
	if err != nil {
		fail(w, ctx, "recording the authorisation", err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"approved": approved, "merchant_status": status})
}

// ScoreRequest is the body of POST /fraud/score.
type ScoreRequest struct {
	CardHash    string `json:"card_hash"`
	AmountCents int64  `json:"amount_cents"`
}

// score serves POST /fraud/score synchronously.
//
//bhlint:lane fraud
func score(s *Server, w http.ResponseWriter, r *http.Request) {
	var req ScoreRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.CardHash == "" {
		http.Error(w, "bad request: want {card_hash, amount_cents}", http.StatusBadRequest)
		return
	}
	score, err := s.scoreCard(r.Context(), req)
	if err != nil {
		// With bulkheads a failed score degrades like a full lane: the
		// breaker is told of the failure and the score is queued
		// (pending_fraud); the before mode fails the request.
		if s.fraudQ != nil && !isPoolRejection(err) {
			reportFailure(r.Context(), err)
			if s.fraudQ.offer(req) {
				s.metrics.fallback(routeFraud)
				writeJSON(w, http.StatusAccepted, map[string]any{"result": "pending_fraud"})
				return
			}
		}
		fail(w, r.Context(), "fraud scoring", err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"result": "scored", "score": score})
}

// scoreCard asks the fraud service and records the score.
//
//bhlint:lane fraud
func (s *Server) scoreCard(ctx context.Context, req ScoreRequest) (int, error) {
	var resp struct {
		Score int `json:"score"`
	}
	if err := callJSON(ctx, s.fraudAPI, http.MethodPost, s.fraudURL+"/score", req, &resp); err != nil {
		return 0, err
	}
	_, err := s.fraudStatements().Exec(ctx, `INSERT INTO card_scores (card_hash, score) VALUES ($1, $2)
		ON CONFLICT (card_hash) DO UPDATE SET score = EXCLUDED.score, scored_at = now()`, req.CardHash, resp.Score)
	return resp.Score, err
}

// QuoteRequest is the body of POST /tax/quote. AmountCents is the basket's
// amount, which the checkout knows; the before mode's handler reads it from
// the locked order row instead.
type QuoteRequest struct {
	OrderID      string `json:"order_id"`
	Jurisdiction string `json:"jurisdiction"`
	AmountCents  int64  `json:"amount_cents"`
}

// quote serves POST /tax/quote in the tax lane: the tax API is called with
// no connection held and a 2 s timeout; if it fails, the tax comes from the
// verified compensation table (source "compensation"), and a jurisdiction
// the table lacks fails the request. The quote is then recorded.
//
//bhlint:lane tax
func quote(s *Server, w http.ResponseWriter, r *http.Request) {
	var req QuoteRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.OrderID == "" || req.AmountCents <= 0 {
		http.Error(w, "bad request: want {order_id, jurisdiction, amount_cents}", http.StatusBadRequest)
		return
	}
	ctx := r.Context()
	source := "api"
	taxCents, err := s.callTaxAPI(ctx, req)
	if err != nil {
		// The answer is the verified estimate, a success; the lane is told
		// the tax API failed, so that recovery lag counts from its first
		// normal answer, not from the first fallback.
		reportFailure(ctx, err)
		taxCents, err = s.estimate(req)
		if err != nil {
			fail(w, ctx, "tax quote", err)
			return
		}
		source = "compensation"
	}
	_, err = s.taxDB.Exec(ctx, `INSERT INTO tax_quotes (order_id, tax_cents, source) VALUES ($1, $2, $3)
		ON CONFLICT (order_id) DO UPDATE SET tax_cents = EXCLUDED.tax_cents, source = EXCLUDED.source, quoted_at = now()`,
		req.OrderID, taxCents, source)
	if err != nil {
		fail(w, ctx, "recording the quote", err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"tax_cents": taxCents, "source": source})
}

//bhlint:lane tax
func (s *Server) callTaxAPI(ctx context.Context, req QuoteRequest) (int64, error) {
	var resp struct {
		TaxCents int64 `json:"tax_cents"`
	}
	u := fmt.Sprintf("%s/quote?jurisdiction=%s&amount=%d", s.taxURL, url.QueryEscape(req.Jurisdiction), req.AmountCents)
	if err := callJSON(ctx, s.taxAPI, http.MethodGet, u, nil, &resp); err != nil {
		return 0, err
	}
	return resp.TaxCents, nil
}

// estimate is the tax from the verified compensation table.
func (s *Server) estimate(req QuoteRequest) (int64, error) {
	rate, err := s.rates.Rate(req.Jurisdiction)
	if err != nil {
		return 0, err
	}
	return int64(math.Round(float64(req.AmountCents) * rate)), nil
}

// onReject answers the rejections of lanes that degrade instead of failing:
// fraud hands the work to the async scoring queue (202 pending_fraud); tax
// sheds with 503 and Retry-After: 5, and includes the verified estimate so
// the checkout can complete. Card authorisation gets the middleware's 429.
func (s *Server) onReject(w http.ResponseWriter, r *http.Request, rej *bulkhead.Rejection) bool {
	switch routeOf(r.URL.Path) {
	case routeFraud:
		var req ScoreRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.CardHash == "" {
			return false
		}
		if !s.fraudQ.offer(req) {
			return false // the async queue is full too: 429
		}
		s.metrics.fallback(routeFraud)
		writeJSON(w, http.StatusAccepted, map[string]any{"result": "pending_fraud"})
		return true
	case routeTax:
		var req QuoteRequest
		_ = json.NewDecoder(r.Body).Decode(&req)
		writeTaxShed(w, rej, s.rates, req)
		return true
	}
	return false
}

// taxShed is the tax lane's 503 body: RFC 9457 problem details with the
// verified estimate as an extension member.
type taxShed struct {
	bulkhead.Problem
	Estimate *taxEstimate `json:"estimate,omitempty"`
}

type taxEstimate struct {
	TaxCents int64  `json:"tax_cents"`
	Table    string `json:"table"`
	AsOf     string `json:"as_of"`
}

func writeTaxShed(w http.ResponseWriter, rej *bulkhead.Rejection, rates *compensation.Table, req QuoteRequest) {
	secs := int(math.Ceil(rej.RetryAfter.Seconds()))
	body := taxShed{Problem: bulkhead.Problem{
		Type:       bulkhead.ProblemTypeSaturated,
		Title:      "The tax lane has no capacity for this quote right now",
		Status:     http.StatusServiceUnavailable,
		Detail:     fmt.Sprintf("The tax lane rejected the quote (%s) without starting it. Retry after %d seconds.", rej.Reason, secs),
		Code:       rej.Code,
		Lane:       rej.Lane,
		Reason:     rej.Reason.String(),
		RetryAfter: secs,
	}}
	if rate, err := rates.Rate(req.Jurisdiction); err == nil && req.AmountCents > 0 {
		body.Estimate = &taxEstimate{
			TaxCents: int64(math.Round(float64(req.AmountCents) * rate)),
			Table:    rates.Name,
			AsOf:     rates.AsOf.Format(compensation.DateLayout),
		}
	}
	w.Header().Set("Content-Type", "application/problem+json")
	w.Header().Set("Retry-After", strconv.Itoa(secs))
	w.WriteHeader(http.StatusServiceUnavailable)
	_ = json.NewEncoder(w).Encode(body)
}

// callJSON sends in (if not nil) as JSON and decodes the answer into out.
func callJSON(ctx context.Context, c *http.Client, method, u string, in, out any) error {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, body)
	if err != nil {
		return err
	}
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s %s: %s", method, u, resp.Status)
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

// fail answers an error: the lane's rejection if the lane's pool turned the
// request away, 504 if the request's deadline passed, 502 if a dependency
// failed.
func fail(w http.ResponseWriter, ctx context.Context, what string, err error) {
	if shedAcquire(w, err) {
		return
	}
	if errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil {
		http.Error(w, what+": deadline exceeded", http.StatusGatewayTimeout)
		return
	}
	http.Error(w, what+": "+err.Error(), http.StatusBadGateway)
}

// isPoolRejection: the lane's pool turned the request away; nothing was run.
func isPoolRejection(err error) bool {
	var ae *lanepool.AcquireError
	return errors.As(err, &ae) && errors.Is(err, bulkhead.ErrRejected)
}

// failureReporting runs a lane whose handler degrades instead of failing
// (fraud answers 202 pending_fraud when the fraud service fails): the
// middleware feeds a lane's breaker from the status written, which a
// degraded answer hides, so the handler reports the dependency's failure
// with reportFailure and the lane's work returns it to the executor, whose
// breaker counts it.
type failureReporting[L bulkhead.Lane] struct{ *bulkhead.Executor[L] }

type failureKey struct{}

// Do runs fn in the lane; fn's error, or else the failure its handler
// reported, is the work's result.
func (f failureReporting[L]) Do(ctx context.Context, fn func(context.Context) error) error {
	return f.Executor.Do(ctx, func(ctx context.Context) error {
		var reported error
		if err := fn(context.WithValue(ctx, failureKey{}, &reported)); err != nil {
			return err
		}
		return reported
	})
}

// reportFailure tells the lane's breaker, through failureReporting, that
// the request's dependency failed although the answer is a degraded success.
func reportFailure(ctx context.Context, err error) {
	if p, ok := ctx.Value(failureKey{}).(*error); ok && *p == nil {
		*p = err
	}
}

// shedAcquire answers, as the lane's own rejection (its status, code and
// Retry-After), a request whose lane's pool had no connection for it within
// the acquire timeout or had too many callers waiting: nothing was run.
func shedAcquire(w http.ResponseWriter, err error) bool {
	var ae *lanepool.AcquireError
	if !errors.As(err, &ae) || !errors.Is(err, bulkhead.ErrRejected) {
		return false
	}
	spec, ok := laneSpec(ae.Lane)
	if !ok {
		return false
	}
	secs := max(int(math.Ceil(ae.RetryAfter.Seconds())), 1)
	bulkhead.WriteProblem(w, secs, bulkhead.Problem{
		Type:       bulkhead.ProblemTypeSaturated,
		Title:      "The lane's database pool has no connection for this request right now",
		Status:     spec.Policy.Status(),
		Detail:     ae.Error(),
		Code:       spec.Code(),
		Lane:       ae.Lane,
		Reason:     "pool_" + ae.Reason.String(),
		RetryAfter: secs,
	})
	return true
}

// laneSpec is the spec of the bulkhead lane named name.
func laneSpec(name string) (bulkhead.LaneSpec, bool) {
	for _, of := range []func() (bulkhead.LaneSpec, error){bulkhead.SpecOf[CardAuth], bulkhead.SpecOf[Fraud], bulkhead.SpecOf[Tax]} {
		if spec, err := of(); err == nil && spec.Name == name {
			return spec, true
		}
	}
	return bulkhead.LaneSpec{}, false
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
