// Package ownrouter registers routes on a router of the project's own, as
// gitea's modules/web.Router: methods named for HTTP verbs on a type that
// serves what it routes, handed ...any handlers.
package ownrouter

import (
	"database/sql"
	"net/http"
)

type Router struct{ mux *http.ServeMux }

func (r *Router) Get(pattern string, h ...any) {
	for _, x := range h {
		if f, ok := x.(func(http.ResponseWriter, *http.Request)); ok {
			r.mux.HandleFunc(pattern, f)
		}
	}
}

func (r *Router) Methods(methods, pattern string, h ...any) { r.Get(pattern, h...) }

func (r *Router) ServeHTTP(w http.ResponseWriter, req *http.Request) { r.mux.ServeHTTP(w, req) }

// Cache is no router (it serves nothing): Get("/healthz", …) is a key.
type Cache struct{ m map[string]any }

func (c *Cache) Get(key string, fill ...any) {
	if _, ok := c.m[key]; !ok && len(fill) > 0 {
		c.m[key] = fill[0]
	}
}

var db *sql.DB

func check(w http.ResponseWriter, r *http.Request) { // want check:"reachesShared\\(database pool ownrouter.db"
	if err := db.PingContext(r.Context()); err != nil { // want `health probe ownrouter.check \(route "/api/healthz"\) reaches the database pool ownrouter.db`
		w.WriteHeader(http.StatusServiceUnavailable)
	}
}

func live(w http.ResponseWriter, r *http.Request) { // want live:"reachesShared\\(database pool ownrouter.db"
	db.ExecContext(r.Context(), "UPDATE beat SET at = now()") // want `liveness probe ownrouter.live \(route "/livez"\) reaches the database pool ownrouter.db`
}

func users(w http.ResponseWriter, r *http.Request) { // want users:"reachesShared\\(database pool ownrouter.db"
	db.QueryRowContext(r.Context(), "SELECT 1")
}

func refill(w http.ResponseWriter, r *http.Request) { // want refill:"reachesShared\\(database pool ownrouter.db"
	db.PingContext(r.Context())
}

func Routes(r *Router, c *Cache) {
	r.Get("/api/healthz", check)
	r.Methods("GET,HEAD", "/livez", live)
	r.Get("/api/users", users) // not a probe's name
	c.Get("/healthz", refill)  // a cache's key, not a route
	http.ListenAndServe(":8080", r)
}
