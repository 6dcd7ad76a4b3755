// Package sqlite3 is an embedded database's backend, after dendrite's // want package:"noContextWaitsReported\\(1\\)"
// roomserver/storage/sqlite3: the pool its tables are handed gets no
// maximum (the opener sets one only for server databases), so its calls
// without a deadline queue nobody; a semaphore's wait still does.
package sqlite3

import (
	"context"
	"database/sql"
	"net/http"

	"golang.org/x/sync/semaphore"
)

type Events struct {
	db  *sql.DB
	sem *semaphore.Weighted
}

func NewEvents(db *sql.DB) *Events {
	return &Events{db: db, sem: semaphore.NewWeighted(4)}
}

// Trap: a statement prepared per call (a variadic IN list) without the
// context, on a pool with no maximum: no slot to wait for.
func (e *Events) BulkSelect(ctx context.Context, n int) error { // want BulkSelect:"ignoresContext" BulkSelect:"waitsOnNetwork"
	stmt, err := e.db.Prepare("SELECT id FROM events WHERE nid IN (?)")
	if err != nil {
		return err
	}
	defer stmt.Close()
	rows, err := stmt.QueryContext(ctx, n)
	if err != nil {
		return err
	}
	return rows.Close()
}

// Trap: a context with no deadline on the same pool.
func (e *Events) HasColumn() bool { // want HasColumn:"waitsOnNetwork"
	var ok bool
	_ = e.db.QueryRowContext(context.Background(), "SELECT 1 FROM pragma_table_info('events')").Scan(&ok)
	return ok
}

// A semaphore with a maximum of its own queues its callers, in this
// package as in any other.
func (e *Events) Throttled() error { // want Throttled:"takesSlot" Throttled:"waitsNoContext"
	if err := e.sem.Acquire(context.Background(), 1); err != nil { // want `wait with no deadline: \(\*semaphore.Weighted\).Acquire waits for a slot with a context from context.Background\(\) that has no deadline`
		return err
	}
	defer e.sem.Release(1)
	return nil
}

// A request reaches both: the semaphore queues it, the pool opens a
// connection instead.
func (e *Events) Routes(mux *http.ServeMux) { // want Routes:"waitsOnNetwork"
	mux.HandleFunc("/events", func(w http.ResponseWriter, r *http.Request) {
		e.Throttled()
		e.HasColumn()
	})
}
