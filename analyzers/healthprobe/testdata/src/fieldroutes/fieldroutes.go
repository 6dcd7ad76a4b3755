// Package fieldroutes' probe calls the checks fieldapp stored in App's
// fields.
package fieldroutes

import (
	"net/http"

	"fieldapp"
	"fieldroutes/route"
)

// GetHealth returns the probe: it calls DbCheck, which pings the pool the
// handlers use.
func GetHealth(app *fieldapp.App) http.HandlerFunc { // want GetHealth:`returnsHandler`
	return func(w http.ResponseWriter, r *http.Request) {
		if !app.DbCheck() { // want `ERR_HEALTH_PROBE_SHARES_FAILURE_DOMAIN: health probe the func literal in fieldroutes.GetHealth \(route "/healthz?"\) reaches the database pool passed to the func literal in fieldapp.NewApp that request traffic also uses \(.*App.DbCheck → the func literal in fieldapp.NewApp → \(\*sql.DB\).Ping\)`
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	}
}

// GetStarted reads a flag the app keeps: silent.
func GetStarted(app *fieldapp.App) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !app.Started() {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	}
}

// GetReady is registered only through the route builder.
func GetReady(app *fieldapp.App) http.HandlerFunc { // want GetReady:`returnsHandler`
	return func(w http.ResponseWriter, r *http.Request) {
		if !app.DbCheck() { // want `readiness probe the func literal in fieldroutes.GetReady \(route "/readyz"\) reaches the database pool`
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	}
}

// GetAccountsCheck has the same body on a route no probe polls: silent.
func GetAccountsCheck(app *fieldapp.App) http.HandlerFunc { // want GetAccountsCheck:`returnsHandler`
	return func(w http.ResponseWriter, r *http.Request) {
		if !app.DbCheck() {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	}
}

// Built registers handlers through the route builder (authn-server's
// route.Get(path).SecuredWith(…).Handle(h)).
func Built(app *fieldapp.App) []*route.HandledRoute {
	return []*route.HandledRoute{
		route.Get("/readyz").Unsecured().Handle(GetReady(app)),
		route.Get("/accounts/check").Unsecured().Handle(GetAccountsCheck(app)),
		route.Get("/started").Unsecured().Handle(GetStarted(app)),
	}
}

func Routes(app *fieldapp.App) {
	http.Handle("/health", GetHealth(app))
	http.Handle("/started", GetStarted(app))
	http.HandleFunc("/accounts", func(w http.ResponseWriter, r *http.Request) {
		_ = app.DB.QueryRowContext(r.Context(), "SELECT 1")
	})
}
