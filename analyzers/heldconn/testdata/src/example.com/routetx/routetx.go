// Package routetx wraps every API route in a request transaction: its
// router keeps each route's handler in a field of a generic route struct,
// and calls it between Begin and Commit. A handler that waits on the
// network holds the request's transaction, and its connection, meanwhile.
package routetx

import (
	"context"
	"database/sql"
	"net/http"

	"github.com/go-redis/redis/v8"
)

type API struct {
	db     *sql.DB
	client *http.Client
	redis  *redis.Client
	mux    *http.ServeMux
}

// RequestContext carries the request's transaction to its handler.
type RequestContext struct {
	Tx *sql.Tx
}

type HandlerFunc[Req, Res any] func(rc RequestContext, req *Req) (Res, error)

type route[Req, Res any] struct {
	path    string
	handler HandlerFunc[Req, Res]
}

func post[Req, Res any](a *API, path string, handler HandlerFunc[Req, Res]) {
	add(a, route[Req, Res]{path: path, handler: handler})
}

func add[Req, Res any](a *API, r route[Req, Res]) {
	a.mux.HandleFunc(r.path, func(w http.ResponseWriter, hr *http.Request) {
		wrapRoute(a, r, w, hr)
	})
}

func wrapRoute[Req, Res any](a *API, r route[Req, Res], w http.ResponseWriter, hr *http.Request) { // want wrapRoute:`queriesPool\(routetx.API.db\)`
	tx, err := a.db.BeginTx(hr.Context(), nil)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	defer tx.Rollback()
	var req Req
	if _, err := r.handler(RequestContext{Tx: tx}, &req); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	if err := tx.Commit(); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
}

type LoginRequest struct{ Name string }

type LoginResponse struct{ OK bool }

type Empty struct{}

// Login asks the identity provider while the request's transaction is held.
func (a *API) Login(rc RequestContext, req *LoginRequest) (*LoginResponse, error) {
	if _, err := rc.Tx.Exec("UPDATE users SET last_seen = now() WHERE name = $1", req.Name); err != nil {
		return nil, err
	}
	resp, err := a.client.Get("https://idp.example/userinfo") // want `transaction from \(\*sql.DB\).BeginTx is still held during \(\*http.Client\).Get, which waits on the network: \(\*routetx.API\).Login runs through the func field handler, which routetx.wrapRoute calls while it holds the transaction`
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	return &LoginResponse{OK: true}, nil
}

// ListUsers only queries the transaction it is handed.
func (a *API) ListUsers(rc RequestContext, req *Empty) (*Empty, error) {
	rows, err := rc.Tx.Query("SELECT name FROM users")
	if err != nil {
		return nil, err
	}
	return &Empty{}, rows.Close()
}

// Poll ends the request's transaction itself before it waits (a
// long-poll): which of its waits the transaction spans is its own affair,
// not the router's.
func (a *API) Poll(rc RequestContext, req *Empty) (*Empty, error) { // want Poll:`endsHanded\(transaction\)`
	if err := rc.Tx.Rollback(); err != nil {
		return nil, err
	}
	resp, err := a.client.Get("https://peer.example/changes?wait=30s")
	if err != nil {
		return nil, err
	}
	return &Empty{}, resp.Body.Close()
}

// Lockout reads a login lockout from Redis while the request's transaction
// is held.
func (a *API) Lockout(rc RequestContext, req *LoginRequest) (*Empty, error) {
	if err := a.redis.Get(context.TODO(), "lockout:"+req.Name).Err(); err != nil { // want `transaction from \(\*sql.DB\).BeginTx is still held during \(redis.cmdable\).Get, which waits on the network: \(\*routetx.API\).Lockout runs through the func field handler`
		return nil, err
	}
	return &Empty{}, nil
}

// Connect builds a Redis client for the address it is handed while the
// request's transaction is held: go-redis v8's constructor dials nothing,
// and reading a command's result (Err) does not wait.
func (a *API) Connect(rc RequestContext, req *LoginRequest) (*Empty, error) {
	c := redis.NewClient(&redis.Options{Addr: req.Name})
	_ = c
	cmd := &redis.StringCmd{}
	return &Empty{}, cmd.Err()
}

// Routes registers the API, one handler per route.
func (a *API) Routes() {
	post(a, "/login", a.Login)
	post(a, "/lockout", a.Lockout)
	post(a, "/connect", a.Connect)
	post(a, "/users", a.ListUsers)
	post(a, "/poll", a.Poll)
	post(a, "/signup", func(rc RequestContext, req *LoginRequest) (*LoginResponse, error) {
		req2, err := http.NewRequestWithContext(context.Background(), http.MethodPost, "https://mail.example/send", nil)
		if err != nil {
			return nil, err
		}
		resp, err := a.client.Do(req2) // want `transaction from \(\*sql.DB\).BeginTx is still held during \(\*http.Client\).Do, which waits on the network: func literal in \(\*routetx.API\).Routes runs through the func field handler`
		if err != nil {
			return nil, err
		}
		return &LoginResponse{}, resp.Body.Close()
	})
}

// job's run is called with no transaction held: nothing to report.
type job struct{ run func() error }

func (a *API) background() error {
	j := job{run: func() error {
		_, err := a.client.Get("https://peer.example/ping")
		return err
	}}
	return j.run()
}
