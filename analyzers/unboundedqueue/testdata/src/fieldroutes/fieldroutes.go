// Package fieldroutes keeps its handlers in a router's func fields, each // want package:"limitsPools" package:`noContextWaitsReported\(1\)`
// made by a factory handed the repository (moov's paygate): the route
// registers the field, and the handler's repository call waits for a slot
// of a pool with a maximum, with no context.
package fieldroutes

import (
	"database/sql"
	"net/http"
)

type Repository interface {
	saveTraceNumbers(id string, numbers []string) error // want saveTraceNumbers:`waitsNoContext\(\(\*sql.DB\).Begin in \(sqlRepo\).saveTraceNumbers\)` saveTraceNumbers:"waitsOnNetwork"
	count() int
}

type sqlRepo struct{ db *sql.DB }

func (r *sqlRepo) saveTraceNumbers(id string, numbers []string) error { // want saveTraceNumbers:`waitsNoContext\(\(\*sql.DB\).Begin in \(sqlRepo\).saveTraceNumbers\)` saveTraceNumbers:"waitsOnNetwork"
	tx, err := r.db.Begin() // want `wait with no deadline: \(\*sql.DB\).Begin waits for a pool slot with no context`
	if err != nil {
		return err
	}
	for _, n := range numbers {
		if _, err := tx.Exec("INSERT INTO trace_numbers VALUES (?, ?)", id, n); err != nil {
			_ = tx.Rollback()
			return err
		}
	}
	return tx.Commit()
}

// count answers from memory: no slot.
func (r *sqlRepo) count() int { return 0 }

func Open(dsn string) (*sql.DB, error) {
	db, err := sql.Open("mysql", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(16)
	return db, nil
}

type Router struct {
	Create http.HandlerFunc
	Count  http.HandlerFunc
}

func NewRouter(repo Repository) *Router {
	return &Router{Create: CreateTransfer(repo), Count: CountTransfers(repo)}
}

func CreateTransfer(repo Repository) http.HandlerFunc { // want CreateTransfer:`returnsNetworkFunc\(fieldroutes.SaveTraceNumbers\)`
	return func(w http.ResponseWriter, r *http.Request) {
		if err := SaveTraceNumbers(repo, r.FormValue("id")); err != nil {
			w.WriteHeader(http.StatusInternalServerError)
		}
	}
}

func SaveTraceNumbers(repo Repository, id string) error { // want SaveTraceNumbers:`waitsNoContext\(\(\*sql.DB\).Begin in \(sqlRepo\).saveTraceNumbers\)` SaveTraceNumbers:"waitsOnNetwork"
	return repo.saveTraceNumbers(id, []string{id + "-1"})
}

func CountTransfers(repo Repository) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { _ = repo.count() }
}

func (c *Router) RegisterRoutes(mux *http.ServeMux) {
	mux.HandleFunc("/transfers", c.Create)
	mux.HandleFunc("/transfers/count", c.Count)
}

// Main wires it.
func Main(dsn string) { // want Main:"servesConns"
	db, _ := Open(dsn)
	mux := http.NewServeMux()
	NewRouter(&sqlRepo{db: db}).RegisterRoutes(mux)
	_ = http.ListenAndServe(":8080", mux)
}
