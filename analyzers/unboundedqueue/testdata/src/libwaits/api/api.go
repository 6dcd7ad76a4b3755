// Package api serves requests through a library that waits for a pool // want package:"limitsPools" package:"noContextWaitsReported\\(3\\)"
// slot with no context: the program's call into the library is the line
// to change.
package api

import (
	"net/http"

	"example.org/gorplike"
	"example.org/sqlxlike"
	"example.org/zestylike"
	"libwaits/db"
)

type API struct {
	dbp   zestylike.DBProvider
	dbmap *gorplike.DbMap
	sx    *sqlxlike.DB
}

func New(dsn string) (*API, error) {
	m, err := db.Open(dsn)
	if err != nil {
		return nil, err
	}
	return &API{dbp: zestylike.NewDBProvider(m), dbmap: m}, nil
}

// After utask's CreateTask: dbp.Tx() reaches go-gorp's Begin through
// zesty's two interfaces.
func (a *API) CreateTask(w http.ResponseWriter, r *http.Request) { // want CreateTask:"waitsNoContext"
	if err := a.dbp.Tx(); err != nil { // want `wait with no deadline: \(zestylike.DBProvider\).Tx \(\(\*sql.DB\).Begin inside it\) waits for a pool slot with no context, in a dependency that takes none`
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	_ = a.dbp.Commit()
}

// save is the module's function that calls the library: the wait is here,
// whichever request reaches it.
func (a *API) save() error { // want save:"waitsNoContext" save:"waitsOnNetwork"
	_, err := a.dbmap.Begin() // want `wait with no deadline: \(\*gorplike.DbMap\).Begin \(\(\*sql.DB\).Begin inside it\) waits for a pool slot with no context, in a dependency`
	return err
}

func (a *API) UpdateTask(w http.ResponseWriter, r *http.Request) { // want UpdateTask:"waitsNoContext" UpdateTask:"waitsOnNetwork"
	_ = a.save()
}

// Trap: the library's variant that takes the request's context.
func (a *API) ListTasks(w http.ResponseWriter, r *http.Request) { // want ListTasks:"waitsOnNetwork"
	_, _ = a.dbmap.BeginContext(r.Context())
}

// After listmonk's handleQuerySubscribers: the transaction is taken with the
// request's context, and its Select runs on the connection it holds. The
// package's Select, which the pool's Select calls too, waits for no slot
// when a transaction calls it (trap).
func (a *API) ListSubscribers(w http.ResponseWriter, r *http.Request) { // want ListSubscribers:"waitsOnNetwork"
	tx, err := a.sx.BeginTxx(r.Context(), nil)
	if err != nil {
		return
	}
	defer tx.Rollback()
	var names []string
	_ = tx.Select(&names, "SELECT name FROM subscribers")
}

// The pool's Select, on the other hand, waits for a slot with no context.
func (a *API) CountSubscribers(w http.ResponseWriter, r *http.Request) { // want CountSubscribers:"waitsNoContext" CountSubscribers:"waitsOnNetwork"
	var n int
	_ = a.sx.Select(&n, "SELECT count(*) FROM subscribers") // want `wait with no deadline: \(\*sqlxlike.DB\).Select \(\(\*sql.DB\).Query inside it\) waits for a pool slot with no context, in a dependency that takes none, and a request reaches it \(\(\*API\).CountSubscribers\)`
}
