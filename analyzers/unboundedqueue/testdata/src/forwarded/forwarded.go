// Package forwarded waits for pool slots through functions that hand the // want package:"limitsPools" package:"noContextWaitsReported\\(3\\)"
// context they are given to the wait (forwardsSlotWait, across packages):
// the caller that gives them context.Background() or TODO() waits with no
// deadline, as if it called QueryContext itself.
package forwarded

import (
	"context"
	"database/sql"
	"net/http"
	"time"

	"example.com/orders"
	"example.com/sqlf"
)

type Service struct {
	db      *sql.DB
	store   *orders.Store
	queries *orders.Queries
}

// NewService gives the pool its maximum: a wait for one of its slots
// queues the caller.
func NewService(db *sql.DB, store *orders.Store) *Service { // want NewService:`boundsDBParam\(\[0\]\)`
	db.SetMaxOpenConns(20)
	return &Service{db: db, store: store}
}

func (s *Service) List() error { // want List:"waitsNoContext"
	return sqlf.From("messages").QueryAndClose(context.TODO(), s.db, func(*sql.Rows) {}) // want `wait with no deadline: \(\*sqlf.Stmt\).QueryAndClose → .*Query → .*QueryContext waits for a slot with a context from context.TODO\(\) that has no deadline, in \(Service\).List, and a request reaches it`
}

func (s *Service) ArchiveAll(ids []int) { // want ArchiveAll:"waitsOnNetwork" ArchiveAll:"waitsNoContext"
	ctx := context.Background()
	for _, id := range ids {
		s.store.Archive(ctx, id) // want `wait with no deadline: \(\*orders.Store\).Archive → \(\*orders.Store\).Save → \(\*sql.DB\).BeginTx waits for a slot with a context from context.Background\(\)`
	}
}

func (s *Service) SaveDetached(id int) { // want SaveDetached:"waitsOnNetwork" SaveDetached:"waitsNoContext"
	s.store.Save(context.WithoutCancel(context.Background()), id) // want `wait with no deadline: .*Save → \(\*sql.DB\).BeginTx waits for a slot with a context from context.WithoutCancel\(\)`
}

// A request's path reaches the three above.
func (s *Service) ServeHTTP(w http.ResponseWriter, r *http.Request) { // want ServeHTTP:"waitsNoContext" ServeHTTP:"waitsOnNetwork"
	s.List()
	s.ArchiveAll(nil)
	s.SaveDetached(1)
}

// ---- traps ----

// The statement runs on a transaction, which already holds its connection.
func (s *Service) ListInTx(tx *sql.Tx) error {
	return sqlf.From("messages").QueryAndClose(context.TODO(), tx, func(*sql.Rows) {})
}

// The caller's context reaches the wait: its deadline is the caller's.
func (s *Service) ListFor(ctx context.Context) error { // want ListFor:"forwardsSlotWait\\(ctx=0, pool=-1"
	return sqlf.From("messages").QueryAndClose(ctx, s.db, func(*sql.Rows) {})
}

// A deadline added before the call.
func (s *Service) SaveSoon(id int) error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	return s.store.Save(ctx, id)
}

// The callee bounds its own wait.
func (s *Service) SaveBounded(id int) error {
	return s.store.SaveWithin(context.Background(), id)
}

func (s *Service) ExecBounded() error {
	return sqlf.From("messages").ExecWithin(context.Background(), s.db)
}

// The callee's wait is in a goroutine it starts, not in the call.
func (s *Service) Vacuum() {
	s.store.Later(context.Background())
}

// Setting up the schema runs before the service serves.
func (s *Service) Setup() error { // want Setup:"waitsOnNetwork"
	return s.store.Migrate(context.Background())
}

// An interface field (sqlc's DBTX) may hold a transaction: not followed.
func (s *Service) Touch() error {
	return s.queries.Touch(context.Background())
}
