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

func Register(mux *http.ServeMux) {
	mux.HandleFunc("/api/healthz", Check)
	mux.HandleFunc("/ping", ping)
	mux.HandleFunc("/livez", live)
	mux.HandleFunc("/readyz", stats)
	mux.HandleFunc("/health", ready)
}
