package enginecheck // want package:`pendingProbes\(probes: enginecheck.stats: \(enginedb.Engine\).Stats, enginecheck.ready: \(enginedb.Status\).Healthy; resolved 0; impls: \)`

// Package enginecheck is the probe of a service whose pool is reached
// through another package's accessor (gitea's routers/web/healthcheck).

import (
	"net/http"

	"enginedb"
)

// Check pings the pool every request uses, through the accessor.
func Check(w http.ResponseWriter, r *http.Request) { // want Check:`reachesShared\(database pool enginedb.x via enginedb.GetEngine → \(enginedb.Engine\).PingContext\)`
	if err := enginedb.GetEngine(r.Context()).PingContext(r.Context()); err != nil { // want `ERR_HEALTH_PROBE_SHARES_FAILURE_DOMAIN: health probe enginecheck.Check \(route "/api/healthz"\) reaches the database pool enginedb.x that request traffic also uses \(enginecheck.Check → enginedb.GetEngine → \(enginedb.Engine\).PingContext\)`
		w.WriteHeader(http.StatusFailedDependency)
	}
}

// ping reaches the xorm engine through a session the accessor returns.
func ping(w http.ResponseWriter, r *http.Request) { // want ping:`reachesShared\(database pool enginedb.xormEngine via enginedb.XormEngine → \(enginedb.Pinger\).Ping\)`
	if err := enginedb.XormEngine(r.Context()).Ping(); err != nil { // want `health probe enginecheck.ping \(route "/ping"\) reaches the database pool enginedb.xormEngine that request traffic also uses \(enginecheck.ping → enginedb.XormEngine → \(enginedb.Pinger\).Ping\)`
		w.WriteHeader(http.StatusFailedDependency)
	}
}

// live reaches the pool through an accessor of an accessor.
func live(w http.ResponseWriter, r *http.Request) { // want live:`reachesShared\(database pool enginedb.x via enginedb.Current → \(enginedb.Engine\).ExecContext\)`
	enginedb.Current().ExecContext(r.Context(), "SELECT 1") // want `liveness probe enginecheck.live \(route "/livez"\) reaches the database pool enginedb.x .*enginedb.Current → \(enginedb.Engine\).ExecContext`
}

// stats reads the pool's statistics through the accessor: an answer from
// the process, no connection.
func stats(w http.ResponseWriter, r *http.Request) { // want stats:`callsThrough\(\(enginedb.Engine\).Stats\)`
	_ = enginedb.GetEngine(r.Context()).Stats()
}

// ready reads a memory status through an accessor that returns no pool.
func ready(w http.ResponseWriter, r *http.Request) { // want ready:`callsThrough\(\(enginedb.Status\).Healthy\)`
	if !enginedb.GetStatus().Healthy() {
		w.WriteHeader(http.StatusServiceUnavailable)
	}
}

// dbPing pings the pool the package's accessor hands out: the one every
// request uses.
func dbPing(w http.ResponseWriter, r *http.Request) { // want dbPing:`reachesShared\(database pool enginedb.db via \(\*sql.DB\).PingContext\)`
	_ = enginedb.DB().PingContext(r.Context()) // want `readiness probe enginecheck.dbPing \(route "/ready"\) reaches the database pool enginedb.db that request traffic also uses`
}

// redisPing pings the client the accessor hands out.
func redisPing(w http.ResponseWriter, r *http.Request) { // want redisPing:`reachesShared\(Redis client enginedb.rdb via \(redis.cmdable\).Ping\)`
	_ = enginedb.Redis().Ping(r.Context()).Err() // want `health probe enginecheck.redisPing \(route "/healthcheck"\) reaches the Redis client enginedb.rdb`
}

// ownPing pings a pool it opens for itself: a connection of its own.
func ownPing(w http.ResponseWriter, r *http.Request) {
	p := enginedb.Open("postgres://probe")
	defer p.Close()
	_ = p.PingContext(r.Context())
}

func Register(mux *http.ServeMux) {
	mux.HandleFunc("/ready", dbPing)
	mux.HandleFunc("/healthcheck", redisPing)
	mux.HandleFunc("/alive", ownPing)
	mux.HandleFunc("/api/healthz", Check)
	mux.HandleFunc("/ping", ping)
	mux.HandleFunc("/livez", live)
	mux.HandleFunc("/readyz", stats)
	mux.HandleFunc("/health", ready)
}
