package app // want package:`pendingProbes\(probes: ; resolved 0; impls: \(\*app.DepsHandler\).Ready, \(\*store.Store\).Ping\)`

import (
	"context"
	"database/sql"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/go-chi/chi/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/labstack/echo/v4"
	"gorm.io/gorm"

	"store"
)

type Server struct {
	db      *sql.DB
	store   *store.Store
	pinger  store.Pinger
	healthy atomic.Bool
	// probeDB is opened for the probe alone (newServer) and read only by it.
	probeDB *sql.DB
	gdb     *gorm.DB
}

func newServer(dsn string, db *sql.DB, st *store.Store) *Server {
	probeDB, _ := sql.Open("postgres", dsn)
	return &Server{db: db, store: st, pinger: st, probeDB: probeDB}
}

// ---- net/http ----

func (s *Server) healthz(w http.ResponseWriter, r *http.Request) { // want healthz:"reachesShared\\(database pool Server.db"
	if err := s.db.PingContext(r.Context()); err != nil { // want `ERR_HEALTH_PROBE_SHARES_FAILURE_DOMAIN: health probe \(\*app.Server\).healthz \(route "/healthz"\) reaches the database pool Server.db that request traffic also uses \(\(\*app.Server\).healthz → \(\*sql.DB\).PingContext\): when it is slow or out of connections, every instance fails the probe at once and leaves the load balancer`
		http.Error(w, "db down", http.StatusServiceUnavailable)
		return
	}
	w.Write([]byte("ok"))
}

func (s *Server) livez(w http.ResponseWriter, r *http.Request) { // want livez:"reachesShared\\(database pool Server.db"
	w.Write([]byte("ok"))
	s.touch(r.Context()) // want `liveness probe \(\*app.Server\).livez \(route "GET /livez"\) reaches the database pool Server.db .*\(\(\*app.Server\).livez → \(\*app.Server\).touch → \(\*sql.DB\).ExecContext\): .*every pod fails its liveness probe at once and is restarted`
}

func (s *Server) touch(ctx context.Context) { // want touch:"reachesShared\\(database pool Server.db"
	s.db.ExecContext(ctx, "UPDATE heartbeat SET at = now()")
}

func (s *Server) users(w http.ResponseWriter, r *http.Request) { // want users:"reachesShared\\(database pool Server.db"
	s.db.QueryRowContext(r.Context(), "SELECT 1")
}

// readyCached reads a status a background goroutine keeps: clean.
func (s *Server) readyCached(w http.ResponseWriter, r *http.Request) {
	if !s.healthy.Load() {
		w.WriteHeader(http.StatusServiceUnavailable)
	}
}

func (s *Server) watchDB(ctx context.Context) { // want watchDB:"reachesShared\\(database pool Server.db"
	t := time.NewTicker(5 * time.Second)
	for range t.C {
		s.healthy.Store(s.db.PingContext(ctx) == nil)
	}
}

// readyOwnPool pings a pool opened for the probe alone: clean.
func (s *Server) readyOwnPool(w http.ResponseWriter, r *http.Request) {
	if s.probeDB.PingContext(r.Context()) != nil {
		w.WriteHeader(http.StatusServiceUnavailable)
	}
}

// statsOnly reads the pool's statistics, no connection: clean.
func (s *Server) statsOnly(w http.ResponseWriter, r *http.Request) {
	if s.db.Stats().OpenConnections > 100 {
		w.WriteHeader(http.StatusServiceUnavailable)
	}
}

// Health is called Health but no probe's route is registered for it.
func (s *Server) Health(w http.ResponseWriter, r *http.Request) { // want Health:"reachesShared\\(database pool Server.db"
	s.db.PingContext(r.Context())
}

// pingInBackground starts the ping and does not wait for it: clean.
func (s *Server) pingInBackground(w http.ResponseWriter, r *http.Request) {
	go s.db.PingContext(context.Background())
	w.Write([]byte("ok"))
}

// pingWithTimeout waits for the ping it starts, up to a timeout: it
// still waits on the pool.
func (s *Server) pingWithTimeout(w http.ResponseWriter, r *http.Request) { // want pingWithTimeout:"reachesShared"
	done := make(chan error, 1)
	go func() { done <- s.db.PingContext(r.Context()) }() // want `health probe \(\*app.Server\).pingWithTimeout \(route "/ready/timeout/healthz"\) reaches the database pool Server.db`
	select {
	case err := <-done:
		if err != nil {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	case <-time.After(time.Second):
		w.WriteHeader(http.StatusServiceUnavailable)
	}
}

// refreshAsync starts a refresh and answers from the last status without
// waiting for it: clean.
func (s *Server) refreshAsync(w http.ResponseWriter, r *http.Request) {
	done := make(chan error, 1)
	go func() { done <- s.db.PingContext(context.Background()) }()
	if !s.healthy.Load() {
		w.WriteHeader(http.StatusServiceUnavailable)
	}
}

// deepOnRequest pings only when the caller asks for a deep check
// (/healthz?full=1): the load balancer polls the shallow answer. Clean.
func (s *Server) deepOnRequest(w http.ResponseWriter, r *http.Request) { // want deepOnRequest:"reachesShared"
	if r.URL.Query().Get("full") == "1" {
		if err := s.db.PingContext(r.Context()); err != nil {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
	}
	w.Write([]byte("ok"))
}

// deepThenAlways has an opt-in deep check, then a query every poll runs.
func (s *Server) deepThenAlways(w http.ResponseWriter, r *http.Request) { // want deepThenAlways:"reachesShared"
	if r.FormValue("verbose") != "" {
		s.db.PingContext(r.Context())
	}
	s.touch(r.Context()) // want `health probe \(\*app.Server\).deepThenAlways \(route "/always/healthz"\) .*\(\*app.Server\).touch`
}

// methodGuard checks the method, not an opt-in: still reported.
func (s *Server) methodGuard(w http.ResponseWriter, r *http.Request) { // want methodGuard:"reachesShared"
	if r.Method != http.MethodGet {
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	s.db.PingContext(r.Context()) // want `health probe \(\*app.Server\).methodGuard \(route "/method/healthz"\)`
}

// suppressed is reported and ignored with a reason.
func (s *Server) suppressed(w http.ResponseWriter, r *http.Request) { // want suppressed:"reachesShared\\(database pool Server.db"
	//bhlint:ignore ERR_HEALTH_PROBE_SHARES_FAILURE_DOMAIN the database is this service's only dependency and has its own replicas per zone
	s.db.PingContext(r.Context())
}

// ignoredInDoc pings the pool; the finding is ignored in its doc comment.
//
//bhlint:ignore ERR_HEALTH_PROBE_SHARES_FAILURE_DOMAIN readiness on this internal tool may fail together; it serves no users
func (s *Server) ignoredInDoc(w http.ResponseWriter, r *http.Request) { // want ignoredInDoc:"reachesShared"
	s.db.PingContext(r.Context())
}

// upstream calls another service through http.DefaultClient's pool.
func upstream(w http.ResponseWriter, r *http.Request) { // want upstream:"reachesShared\\(HTTP client http.DefaultClient"
	resp, err := http.Get("http://billing.internal/healthz") // want `readiness probe app.upstream \(route "/readyz"\) reaches the HTTP client http.DefaultClient .*\(app.upstream → http.Get\)`
	if err == nil {
		resp.Body.Close()
	}
}

// readyHandler is a handler type whose ServeHTTP is the probe.
type readyHandler struct{ db *sql.DB }

func (h readyHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) { // want ServeHTTP:"reachesShared\\(database pool readyHandler.db"
	if h.db.PingContext(r.Context()) != nil { // want `readiness probe \(app.readyHandler\).ServeHTTP \(route "/readyz/"\) reaches the database pool readyHandler.db`
		w.WriteHeader(http.StatusServiceUnavailable)
	}
}

// draining answers from in-process state, a channel closed at shutdown:
// clean.
func (s *Server) draining(stop chan struct{}) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-stop:
			w.WriteHeader(http.StatusServiceUnavailable)
		default:
			w.Write([]byte("ok"))
		}
	}
}

// gormProbe unwraps the ORM's pool and pings it: the pool is the ORM's.
func gormProbe(gdb *gorm.DB) http.HandlerFunc { // want gormProbe:"returnsHandler"
	return func(w http.ResponseWriter, r *http.Request) {
		sqlDB, err := gdb.DB()
		if err == nil {
			sqlDB.PingContext(r.Context()) // want `health probe the func literal in app.gormProbe \(route "/_health/"\) reaches the database pool Server.gdb`
		}
	}
}

// gormExec runs a query through the ORM's handle.
func gormExec(gdb *gorm.DB) http.HandlerFunc { // want gormExec:"returnsHandler"
	return func(w http.ResponseWriter, r *http.Request) {
		if err := gdb.WithContext(r.Context()).Exec("SELECT 1").Error; err != nil { // want `health probe the func literal in app.gormExec \(route "/healthz/"\) reaches the database pool Server.gdb .*→ \(\*gorm.DB\).Exec\)`
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	}
}

// Pinger is satisfied by *pgxpool.Pool itself.
type Pinger interface {
	Ping(ctx context.Context) error
}

// Closer is satisfied by *pgxpool.Pool too, but closing is no use of it.
type Closer interface{ Close() }

type DepsHandler struct {
	pg     Pinger
	closer Closer
}

func (h *DepsHandler) Ready(w http.ResponseWriter, r *http.Request) { // want Ready:"reachesShared\\(database pool DepsHandler.pg"
	if err := h.pg.Ping(r.Context()); err != nil { // want `readiness probe \(\*app.DepsHandler\).Ready \(route "/api/ready"\) reaches the database pool DepsHandler.pg .*\(\*pgxpool.Pool\).Ping`
		w.WriteHeader(http.StatusServiceUnavailable)
	}
}

func (h *DepsHandler) Live(w http.ResponseWriter, r *http.Request) { // want Live:`callsThrough\(\(app.Closer\).Close\)`
	if r.Method == "DELETE" {
		h.closer.Close()
	}
}

func routes(s *Server, db *sql.DB, dsn string) {
	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", s.healthz)
	mux.HandleFunc("GET /livez", s.livez)
	mux.HandleFunc("/readyz", upstream)
	mux.HandleFunc("/users", s.users)
	mux.HandleFunc("/ready", s.readyCached)
	mux.HandleFunc("/internal/ready", s.readyOwnPool)
	mux.HandleFunc("/healthcheck", s.statsOnly)
	mux.HandleFunc("/alive", s.pingInBackground)
	mux.HandleFunc("/deep/healthz", s.deepOnRequest)
	mux.HandleFunc("/always/healthz", s.deepThenAlways)
	mux.HandleFunc("/method/healthz", s.methodGuard)
	mux.HandleFunc("/ready/timeout/healthz", s.pingWithTimeout)
	mux.HandleFunc("/ready/async/readyz", s.refreshAsync)
	mux.HandleFunc("/hc", s.suppressed)
	mux.HandleFunc("/tool/readyz", s.ignoredInDoc)
	mux.HandleFunc("/api/health-report", s.Health) // not a probe's name
	mux.HandleFunc("/status", s.Health)            // status is not a probe
	mux.HandleFunc("/api/v1/ping", s.Health)       // an API's ping, not the top-level probe
	go s.watchDB(context.Background())

	// A closure capturing the pool request traffic uses.
	mux.HandleFunc("/health", func(w http.ResponseWriter, r *http.Request) {
		db.PingContext(r.Context()) // want `health probe the func literal in app.routes \(route "/health"\) reaches the database pool passed to app.routes`
	})
	// A closure capturing a pool opened for it alone: clean.
	healthDB, _ := sql.Open("postgres", dsn)
	defer healthDB.Close()
	mux.HandleFunc("/_health", func(w http.ResponseWriter, r *http.Request) {
		healthDB.PingContext(r.Context())
	})
	// A constant answer: clean.
	mux.HandleFunc("/ping", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("pong")) })
	// A probe that opens and closes its own connection: clean.
	mux.HandleFunc("/live", func(w http.ResponseWriter, r *http.Request) {
		own, err := sql.Open("postgres", dsn)
		if err == nil {
			own.PingContext(r.Context())
			own.Close()
		}
	})
	// A factory's closure, bound to the shared pool.
	mux.Handle("/readiness", readiness(db))
	mux.Handle("/readyz/", readyHandler{db: db})
	var pool *pgxpool.Pool
	deps := &DepsHandler{pg: pool, closer: pool}
	mux.HandleFunc("/api/ready", deps.Ready)
	mux.HandleFunc("/api/live", deps.Live)
	mux.Handle("/_health/", gormProbe(s.gdb))
	mux.Handle("/healthz/", gormExec(s.gdb))
	mux.Handle("/liveness", s.draining(make(chan struct{})))
	http.ListenAndServe(":8080", mux)
}

func readiness(db *sql.DB) http.HandlerFunc { // want readiness:"returnsHandler\\(the func literal in app.readiness: reachesShared\\(database pool param 0"
	return func(w http.ResponseWriter, r *http.Request) {
		if err := db.PingContext(r.Context()); err != nil { // want `readiness probe the func literal in app.readiness \(route "/readiness"\) reaches the database pool passed to app.routes`
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	}
}

// ---- gin, echo, chi: through another package ----

func (s *Server) ginHealth(c *gin.Context) { // want ginHealth:"reachesShared\\(database pool Store.db"
	if err := s.store.Ping(c.Request.Context()); err != nil { // want `health probe \(\*app.Server\).ginHealth \(route "/health"\) reaches the database pool Store.db .*\(\(\*app.Server\).ginHealth → \(\*store.Store\).Ping → \(\*store.Store\).check → \(\*sql.DB\).PingContext\)`
		c.String(http.StatusServiceUnavailable, "down")
		return
	}
	c.String(http.StatusOK, "ok")
}

func (s *Server) ginStats(c *gin.Context) {
	c.String(http.StatusOK, "ok")
	_ = s.store.Stats()
}

func (s *Server) echoReady(c echo.Context) error { // want echoReady:"reachesShared\\(database pool Store.db"
	return s.pinger.Ping(context.Background()) // want `readiness probe \(\*app.Server\).echoReady \(route "/readyz"\) reaches the database pool Store.db .*\(\(\*app.Server\).echoReady → \(\*store.Store\).Ping → \(\*store.Store\).check → \(\*sql.DB\).PingContext\)`
}

func (s *Server) chiLive(w http.ResponseWriter, r *http.Request) { // want chiLive:"reachesShared\\(database pool Store.db"
	_, _ = s.store.UserName(r.Context(), 1) // want `liveness probe \(\*app.Server\).chiLive \(route "/livez"\) reaches the database pool Store.db`
}

// pingDB is registered as the top-level /ping of a router made here.
func (s *Server) pingDB(c *gin.Context) { // want pingDB:"reachesShared"
	s.db.PingContext(c.Request.Context()) // want `health probe \(\*app.Server\).pingDB \(route "/ping"\) reaches the database pool Server.db`
}

// apiPing is /api/ping, an API endpoint: not a probe.
func (s *Server) apiPing(c *gin.Context) { // want apiPing:"reachesShared"
	s.db.PingContext(c.Request.Context())
}

// groupPing is /ping on a group passed in, whose prefix is unknown: not
// known to be the top-level probe.
func (s *Server) groupPing(c *gin.Context) { // want groupPing:"reachesShared"
	s.db.PingContext(c.Request.Context())
}

// groupHealth is / on the group /healthz: a probe.
func (s *Server) groupHealth(c *gin.Context) { // want groupHealth:"reachesShared"
	s.db.PingContext(c.Request.Context()) // want `health probe \(\*app.Server\).groupHealth \(route "/healthz/"\) reaches the database pool Server.db`
}

// rootPing is /ping on the root router passed in: a probe.
func (s *Server) rootPing(c *gin.Context) { // want rootPing:"reachesShared"
	s.db.PingContext(c.Request.Context()) // want `health probe \(\*app.Server\).rootPing \(route "/ping"\)`
}

// HealthAPI is a handler kept behind an interface.
type HealthAPI interface {
	Ready(w http.ResponseWriter, r *http.Request)
}

func registerAPI(mux *http.ServeMux, api HealthAPI) {
	mux.HandleFunc("/api/readyz", api.Ready) // want `readiness probe \(app.HealthAPI\).Ready \(route "/api/readyz"\) reaches the database pool DepsHandler.pg .*\(\(app.HealthAPI\).Ready → \(\*app.DepsHandler\).Ready → \(\*pgxpool.Pool\).Ping\)`
}

func registerPing(rg *gin.RouterGroup, s *Server) {
	rg.GET("/ping", s.groupPing)
}

func registerRootPing(r *gin.Engine, s *Server) {
	r.GET("/ping", s.rootPing)
}

// chiRouted is / under chi's r.Route("/healthz", …).
func (s *Server) chiRouted(w http.ResponseWriter, r *http.Request) { // want chiRouted:"reachesShared"
	s.db.PingContext(r.Context()) // want `health probe \(\*app.Server\).chiRouted \(route "/healthz/"\)`
}

// chiAPIPing is /api/ping under chi's r.Route("/api", …): not a probe.
func (s *Server) chiAPIPing(w http.ResponseWriter, r *http.Request) { // want chiAPIPing:"reachesShared"
	s.db.PingContext(r.Context())
}

func frameworks(s *Server) {
	g := gin.New()
	g.GET("/health", s.ginHealth)
	g.GET("/healthz", s.ginStats)
	g.GET("/ping", s.pingDB)
	api := g.Group("/api")
	api.GET("/ping", s.apiPing)
	g.Group("/healthz").GET("/", s.groupHealth)
	registerPing(api, s)
	registerRootPing(g, s)
	e := echo.New()
	e.GET("/readyz", s.echoReady)
	r := chi.NewRouter()
	r.Get("/livez", s.chiLive)
	r.Route("/healthz", func(r chi.Router) {
		r.Get("/", s.chiRouted)
	})
	r.Route("/api", func(r chi.Router) {
		r.Group(func(r chi.Router) {
			r.Get("/ping", s.chiAPIPing)
		})
	})
}

// ---- a route under a prefix the operator configures ----

// webrootRoutes registers under a configured prefix, as mailpit does with
// "GET "+config.Webroot+"readyz": the route's last segment is still the
// probe's name.
func webrootRoutes(s *Server, webroot string) {
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+webroot+"readyz", s.readyzUnderRoot)
	mux.HandleFunc("GET "+webroot+"api/messages", s.messagesUnderRoot) // not a probe's name
	mux.HandleFunc(webroot+"ping", s.pingUnderRoot)                    // /ping only as a root path, and where this one starts is not known
	mux.HandleFunc(webroot+"healthz/"+s.version(), s.versionUnderRoot) // the last segment is not a constant
	http.ListenAndServe(":8081", mux)
}

func (s *Server) readyzUnderRoot(w http.ResponseWriter, r *http.Request) { // want readyzUnderRoot:"reachesShared\\(database pool Server.db"
	if err := s.db.PingContext(r.Context()); err != nil { // want `readiness probe \(\*app.Server\).readyzUnderRoot \(route "GET …readyz"\) reaches the database pool Server.db`
		w.WriteHeader(http.StatusServiceUnavailable)
	}
}

func (s *Server) messagesUnderRoot(w http.ResponseWriter, r *http.Request) { // want messagesUnderRoot:"reachesShared\\(database pool Server.db"
	s.db.QueryRowContext(r.Context(), "SELECT 1")
}

func (s *Server) pingUnderRoot(w http.ResponseWriter, r *http.Request) { // want pingUnderRoot:"reachesShared\\(database pool Server.db"
	s.db.PingContext(r.Context())
}

func (s *Server) versionUnderRoot(w http.ResponseWriter, r *http.Request) { // want versionUnderRoot:"reachesShared\\(database pool Server.db"
	s.db.PingContext(r.Context())
}

func (s *Server) version() string { return "v1" }
