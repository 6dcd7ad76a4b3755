package waits // want package:"limitsPools" package:"noContextWaitsReported\\(12\\)"

import (
	"context"
	"database/sql"
	"net/http"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jmoiron/sqlx"
	"golang.org/x/sync/semaphore"
)

type Service struct {
	db   *sql.DB
	pool *pgxpool.Pool
	sem  *semaphore.Weighted
}

// ---- shape 4: wait with no deadline ----

// A request's path reaches the waits below (api.ServeHTTP, at the end of
// the file): each is reported at its line.

func (s *Service) refreshRates() { // want refreshRates:"waitsOnNetwork" refreshRates:"waitsNoContext"
	conn, err := s.pool.Acquire(context.Background()) // want `ERR_UNBOUNDED_QUEUE_DETECTED: wait with no deadline: \(\*pgxpool.Pool\).Acquire waits for a slot with a context from context.Background\(\) that has no deadline, in \(Service\).refreshRates, and a request reaches it \(\(\*api\).ServeHTTP\): callers queue for as long as every slot stays taken; derive it with context.WithTimeout`
	if err != nil {
		return
	}
	conn.Release()
}

func (s *Service) settle() error { // want settle:"waitsOnNetwork" settle:"waitsNoContext"
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	tx, err := s.db.BeginTx(ctx, nil) // want `wait with no deadline: \(\*sql.DB\).BeginTx .* context.Background\(\)`
	if err != nil {
		return err
	}
	return tx.Commit()
}

func (s *Service) throttle() error { // want throttle:"takesSlot" throttle:"waitsNoContext"
	ctx := context.WithValue(context.TODO(), "k", 1)
	return s.sem.Acquire(ctx, 1) // want `wait with no deadline: \(\*semaphore.Weighted\).Acquire .* context.TODO\(\)`
}

func (s *Service) background() { // want background:"waitsOnNetwork" background:"waitsNoContext"
	var ctx = context.Background()
	s.db.QueryContext(ctx, "select 1") // want `wait with no deadline: \(\*sql.DB\).QueryContext`
}

// Traps.

func (s *Service) underTimeout() error { // want underTimeout:"takesSlot"
	ctx, cancel := context.WithTimeout(context.Background(), 250*time.Millisecond)
	defer cancel()
	return s.sem.Acquire(ctx, 1)
}

func (s *Service) derivedFromTimeout() {
	ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(time.Second))
	defer cancel()
	ctx2 := context.WithValue(ctx, "k", 1)
	s.pool.Exec(ctx2, "select 1")
}

func (s *Service) callerContext(ctx context.Context) { // want callerContext:"waitsOnNetwork" callerContext:"forwardsSlotWait"
	s.pool.Query(ctx, "select 1")
}

func (s *Service) reassignedToTimeout(timeout bool) {
	ctx := context.Background()
	if timeout {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Second)
		defer cancel()
	}
	s.db.Conn(ctx)
}

// Acquire here is a method of something that is neither a pool nor a semaphore.
type ticketDesk struct{}

func (ticketDesk) Acquire(ctx context.Context) string { return "ticket" }

func notAPool(d ticketDesk) string {
	return d.Acquire(context.Background())
}

// A pool type's context-free method forwarding to its own context method,
// as database/sql does: the caller chose not to pass a context.
type wrappedDB struct{ sql.DB }

func (d *wrappedDB) Query(q string) { // want Query:"waitsOnNetwork"
	d.QueryContext(context.Background(), q)
}

// sqlx's pool methods wait for a slot like database/sql's.

type sqlxService struct{ db *sqlx.DB }

func (s *sqlxService) nightlyExport() error { // want nightlyExport:"waitsOnNetwork" nightlyExport:"waitsNoContext"
	tx, err := s.db.BeginTxx(context.Background(), nil) // want `wait with no deadline: \(\*sqlx.DB\).BeginTxx .* context.Background\(\)`
	if err != nil {
		return err
	}
	return tx.Commit()
}

func (s *sqlxService) pinConn() { // want pinConn:"waitsOnNetwork" pinConn:"waitsNoContext"
	conn, err := s.db.Connx(context.Background()) // want `wait with no deadline: .*Connx`
	if err == nil {
		conn.Close()
	}
}

// Trap: under the caller's deadline.
func (s *sqlxService) exportWithin(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	return tx.Commit()
}

// joinByTakingEverySlot: taking the semaphore's whole capacity waits for
// the work already started to finish, a join, not a queue for a slot.
func joinByTakingEverySlot(work []func()) { // want joinByTakingEverySlot:"takesSlot" joinByTakingEverySlot:"waitsNoContext"
	limit := int64(4)
	sem := semaphore.NewWeighted(limit)
	for _, w := range work {
		if err := sem.Acquire(context.Background(), 1); err != nil { // want `wait with no deadline: \(\*semaphore.Weighted\).Acquire`
			return
		}
		go func() {
			defer sem.Release(1)
			w()
		}()
	}
	_ = sem.Acquire(context.Background(), limit)
}

// takingLessThanAll: a weight below the capacity is a slot wait.
func takingLessThanAll() { // want takingLessThanAll:"takesSlot" takingLessThanAll:"waitsNoContext"
	sem := semaphore.NewWeighted(4)
	_ = sem.Acquire(context.Background(), 2) // want `wait with no deadline: \(\*semaphore.Weighted\).Acquire`
}

// ---- a pool this function has just opened and not yet shared ----

// Trap: the pool was opened two lines up and nothing else has it yet, so
// its every slot is free: the wait queues behind nobody (a session
// setting before the pool is handed out).
func openStrict(dsn string) (*sql.DB, error) { // want openStrict:"waitsOnNetwork"
	db, err := sql.Open("mysql", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(10)
	defer db.SetConnMaxIdleTime(time.Minute)
	if _, err := db.ExecContext(context.TODO(), "SET sql_mode = 'STRICT_ALL_TABLES'"); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// Trap: pgxpool.New, then a version check before the pool is returned.
func openChecked(dsn string) (*pgxpool.Pool, error) { // want openChecked:"waitsOnNetwork"
	pool, err := pgxpool.New(context.Background(), dsn)
	if err != nil {
		return nil, err
	}
	if _, err := pool.Exec(context.Background(), "select version()"); err != nil {
		return nil, err
	}
	return pool, nil
}

// openFresh hands back a pool it opened with no maximum: an opener, by a
// fact its callers read, as pgx's stdlib.OpenDB is.
func openFresh(dsn string) *sql.DB { // want openFresh:"opensUnboundedDB\\(0, sql.Open\\)"
	db, _ := sql.Open("pgx", dsn)
	return db
}

// Trap: a pool from an opener known by its fact, queried before it is
// handed to anyone (nakama's migrate step checking that its database
// exists): the wait queues behind nobody.
func createIfMissing(ctx context.Context, dsn string) (*sql.DB, error) { // want createIfMissing:"waitsOnNetwork" createIfMissing:"ignoresContext"
	db := openFresh(dsn)
	db.SetMaxOpenConns(2)
	if _, err := db.Exec("SELECT 1 FROM pg_database WHERE datname = $1", "app"); err != nil {
		return nil, err
	}
	return db, nil
}

type registry struct{ db *sql.DB }

// Shared first, then waited on: the registry's users hold its slots.
func (r *registry) openAndWarm(dsn string) { // want openAndWarm:"waitsOnNetwork" openAndWarm:"waitsNoContext"
	db, _ := sql.Open("pgx", dsn)
	db.SetMaxOpenConns(10)
	r.db = db
	db.ExecContext(context.Background(), "select 1") // want `wait with no deadline: \(\*sql.DB\).ExecContext`
}

// Handed to a cache before the wait: the cache's users hold its slots.
func openForCache(dsn string, cache *registry) *sql.DB { // want openForCache:"waitsOnNetwork" openForCache:"waitsNoContext"
	db, _ := sql.Open("pgx", dsn)
	db.SetMaxOpenConns(10)
	cache.adopt(db)
	db.QueryContext(context.Background(), "select 1") // want `wait with no deadline: \(\*sql.DB\).QueryContext`
	return db
}

func (r *registry) adopt(db *sql.DB) { r.db = db }

// Trap: a pool opened inside the loop is a new one each round; the one
// handed out at the end of a round is not the one the next round waits on.
func (r *registry) openEach(dsns []string, out chan<- *sql.DB) { // want openEach:"waitsOnNetwork"
	for _, dsn := range dsns {
		db, _ := sql.Open("pgx", dsn)
		db.SetMaxOpenConns(10)
		db.ExecContext(context.Background(), "select 1")
		out <- db
	}
}

// One pool across the rounds, handed out at the end of each: the next
// round's wait queues behind those who took it.
func (r *registry) warmEachRound(dsn string, rounds int, out chan<- *sql.DB) { // want warmEachRound:"waitsOnNetwork" warmEachRound:"waitsNoContext"
	db, _ := sql.Open("pgx", dsn)
	db.SetMaxOpenConns(10)
	for range rounds {
		db.ExecContext(context.Background(), "select 1") // want `wait with no deadline: \(\*sql.DB\).ExecContext`
		out <- db
	}
}

// A pool that came from a parameter is someone else's: others may hold it.
func warm(db *sql.DB) { // want warm:"waitsOnNetwork" warm:"waitsNoContext"
	db.ExecContext(context.Background(), "select 1") // want `wait with no deadline: \(\*sql.DB\).ExecContext`
}

// ---- a request's path reaches the waits above ----

type api struct {
	s   *Service
	x   *sqlxService
	reg *registry
	db  *sql.DB
}

func (a *api) ServeHTTP(w http.ResponseWriter, r *http.Request) { // want ServeHTTP:"waitsNoContext" ServeHTTP:"waitsOnNetwork"
	a.s.refreshRates()
	a.s.settle()
	a.s.throttle()
	a.s.background()
	a.x.nightlyExport()
	a.x.pinConn()
	joinByTakingEverySlot(nil)
	takingLessThanAll()
	a.reg.openAndWarm("")
	openForCache("", a.reg)
	a.reg.warmEachRound("", 2, nil)
	warm(a.db)
	a.s.underTimeout()
	a.s.derivedFromTimeout()
	a.s.reassignedToTimeout(true)
	openStrict("")
	openChecked("")
	a.reg.openEach(nil, nil)
}

// A handler written in place waits where it is.
func routes(mux *http.ServeMux, s *Service) { // want routes:"waitsOnNetwork"
	mux.HandleFunc("/rates", func(w http.ResponseWriter, r *http.Request) {
		conn, err := s.pool.Acquire(context.Background()) // want `wait with no deadline: \(\*pgxpool.Pool\).Acquire waits for a slot with a context from context.Background\(\) that has no deadline, so callers queue`
		if err == nil {
			conn.Release()
		}
	})
}

// Trap: a lock taken on every tick of a watcher that no request reaches
// (coroot's watchers): it queues behind no request, and its one loop is
// all that waits on it.
func (s *Service) watchTicks(stop <-chan struct{}) { // want watchTicks:"waitsOnNetwork" watchTicks:"waitsNoContext"
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		if conn, err := s.pool.Acquire(context.Background()); err == nil {
			conn.Release()
		}
	}
}

// Trap: a check started once, at start-up, in the background (hatchet's
// security check): one waiter, no request behind it.
func (s *Service) Start(stop <-chan struct{}) { // want Start:"detachesPerCall" Start:"waitsNoContext"
	go s.watchTicks(stop)
	go func() {
		s.db.ExecContext(context.Background(), "select 1")
	}()
}

// A callback handed to a hook that the analysis does not follow is judged
// where it is (pocketbase's model-delete hook, which every delete request
// runs, waiting for a slot of its file-delete semaphore).
func (s *Service) registerHooks(onDelete func(func() error)) {
	onDelete(func() error {
		return s.sem.Acquire(context.Background(), 1) // want `wait with no deadline: \(\*semaphore.Weighted\).Acquire waits for a slot with a context from context.Background\(\) that has no deadline, so callers queue`
	})
}
