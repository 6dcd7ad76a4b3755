package sqlpool

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"net/http"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
)

type Store struct{ db *sql.DB }

var global *sql.DB

// ---- shape 3: pool without a maximum, in one function ----

func storedInStruct(dsn string) (*Store, error) {
	db, err := sql.Open("pgx", dsn) // want `ERR_UNBOUNDED_QUEUE_DETECTED: pool without a maximum: the \*sql.DB from sql.Open is stored in a struct without SetMaxOpenConns, .*; call SetMaxOpenConns\(n\) with n > 0`
	if err != nil {
		return nil, err
	}
	return &Store{db: db}, nil
}

func storedInGlobal(c driver.Connector) {
	global = sql.OpenDB(c) // want `pool without a maximum: the \*sql.DB from sql.OpenDB is stored in global without SetMaxOpenConns`
}

func usedToServe(dsn string) { // want usedToServe:"waitsOnNetwork"
	db, _ := sql.Open("pgx", dsn) // want `pool without a maximum: .* used by a function literal`
	http.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		db.PingContext(r.Context())
	})
}

func zeroMaximum(dsn string) *Store {
	db, _ := sql.Open("pgx", dsn) // want `pool without a maximum: .* given SetMaxOpenConns\(0\), which means no maximum`
	db.SetMaxOpenConns(0)
	return &Store{db: db}
}

// Traps.

func boundedHere(dsn string) (*Store, error) {
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(40)
	return &Store{db: db}, nil
}

func boundedThroughField(dsn string) *Store {
	s := &Store{}
	s.db, _ = sql.Open("pgx", dsn)
	s.db.SetMaxOpenConns(15)
	return s
}

func configure(db *sql.DB, max int) { // want configure:"boundsDBParam\\(\\[0\\]\\)"
	db.SetMaxOpenConns(max)
}

func boundedByHelper(dsn string) *Store {
	db, _ := sql.Open("pgx", dsn)
	configure(db, 10)
	return &Store{db: db}
}

func onlyUsedLocally(dsn string) error { // want onlyUsedLocally:"waitsOnNetwork"
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	return db.Ping()
}

// returnedToCaller is the caller's to bound: it exports a fact instead.
func returnedToCaller(dsn string) (*sql.DB, error) { // want returnedToCaller:"opensUnboundedDB\\(0, sql.Open\\)"
	return sql.Open("pgx", dsn)
}

func callerBounds(dsn string) *Store {
	db, _ := returnedToCaller(dsn)
	db.SetMaxOpenConns(5)
	return &Store{db: db}
}

func callerStores(dsn string) *Store {
	db, _ := returnedToCaller(dsn) // want `pool without a maximum: the \*sql.DB that sqlpool.returnedToCaller returns is stored in a struct`
	return &Store{db: db}
}

// ---- pools no concurrent request waits on (issue 18) ----

func migrateUp(db *sql.DB) error { return db.Ping() } // want migrateUp:"waitsOnNetwork" migrateUp:"waitsNoContext"

// Trap, after openfga's migrate command in a library package: the pool is
// opened, used by this call only (a closure retries the ping, a function
// runs the migrations) and closed when it returns; nothing runs beside it.
func RunMigrations(dsn string) error { // want RunMigrations:"waitsOnNetwork" RunMigrations:"waitsNoContext"
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	retry := func() error { return db.Ping() }
	if err := retry(); err != nil {
		return err
	}
	return migrateUp(db)
}

// Trap, after logchef's and sliding-sync's migration commands: the same,
// with the Close in a deferred literal that reports its error.
func RunMigrationsLogged(dsn string) error { // want RunMigrationsLogged:"waitsOnNetwork" RunMigrationsLogged:"waitsNoContext"
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return err
	}
	defer func() {
		if err := db.Close(); err != nil {
			println("closing the migration pool:", err.Error())
		}
	}()
	return migrateUp(db)
}

// A deferred literal that closes something else closes nothing of the pool's.
func runMigrationsLeaky(dsn string, other *sql.DB) error { // want runMigrationsLeaky:"waitsOnNetwork" runMigrationsLeaky:"waitsNoContext"
	db, err := sql.Open("pgx", dsn) // want `pool without a maximum`
	if err != nil {
		return err
	}
	defer func() { _ = other.Close() }()
	return migrateUp(db)
}

// Deferring Close is not enough when the function serves with the pool.
func serveUntilDone(dsn string) error { // want serveUntilDone:"servesConns"
	db, err := sql.Open("pgx", dsn) // want `pool without a maximum: the \*sql.DB from sql.Open is used by a function literal`
	if err != nil {
		return err
	}
	defer func() { _ = db.Close() }()
	return http.ListenAndServe(":8080", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = db.PingContext(r.Context())
	}))
}

// Nor when it starts goroutines that share it.
func pingInParallel(dsn string, n int) { // want pingInParallel:"waitsNoContext"
	db, _ := sql.Open("pgx", dsn) // want `pool without a maximum`
	defer db.Close()
	for range n {
		go migrateUp(db)
	}
}

type server struct{ store *Store }

func (s *server) Run() error { return nil }

// Nor when it builds a server around the pool, which may serve elsewhere.
func runServer(dsn string) error {
	db, err := sql.Open("pgx", dsn) // want `pool without a maximum: the \*sql.DB from sql.Open is stored in a struct`
	if err != nil {
		return err
	}
	defer db.Close()
	s := &server{store: &Store{db: db}}
	return s.Run()
}

// ---- a database/sql face over a pool with its own maximum ----

// overPgxPool: every connection of this *sql.DB comes from pool, whose
// MaxConns bounds it; SetMaxOpenConns would add nothing.
func overPgxPool(pool *pgxpool.Pool) *Store {
	return &Store{db: stdlib.OpenDBFromPool(pool)}
}

// overConnectorOfOwn: sql.OpenDB over a connector of the program's own has
// no maximum until SetMaxOpenConns.
func overConnectorOfOwn(c driver.Connector) *Store {
	return &Store{db: sql.OpenDB(c)} // want `pool without a maximum`
}

// ---- a fake database in process (exposure-notifications' envstest) ----

// failingDriver answers every call with an error, in the process: it
// holds no address and no client.
type failingDriver struct{}

func (failingDriver) Connect(context.Context) (driver.Conn, error) { return nil, errNope }
func (failingDriver) Driver() driver.Driver                        { return nil }

var errNope = errors.New("test database says no")

// newFailingDatabase: its pool waits on nothing. Silent.
func newFailingDatabase() *Store {
	return &Store{db: sql.OpenDB(&failingDriver{})}
}

// remoteConnector holds where to connect: a real connector of the
// program's own, with no maximum.
type remoteConnector struct{ addr string }

func (remoteConnector) Connect(context.Context) (driver.Conn, error) { return nil, errNope }
func (remoteConnector) Driver() driver.Driver                        { return nil }

func newRemote(addr string) *Store {
	return &Store{db: sql.OpenDB(remoteConnector{addr: addr})} // want `pool without a maximum`
}
