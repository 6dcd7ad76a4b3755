// Package lanedb gives each bulkhead lane its own database/sql pool.
//
//	type Tax struct{} // a bulkhead.Lane
//
//	taxDB, err := lanedb.Open[Tax]("pgx", dsn, lanepool.Config{
//		MaxConns:       5,                      // the lane's budget: required
//		MaxWaiters:     2,                      // at most 2 callers wait...
//		AcquireTimeout: 100 * time.Millisecond, // ...each for at most 100ms
//	})
//
//	conn, err := taxDB.Conn(ctx) // *lanedb.Conn[Tax]; fails after AcquireTimeout
//	if err != nil { ... }        // a *lanepool.AcquireError: shed the request
//	defer conn.Close()           // gives the connection back to the lane
//
// DB[Tax] and DB[CardAuth] are different types, so bhlint's analyzers see
// which lane a pool belongs to. At run time, work admitted by a
// bulkhead.Executor carries its lane in its context, and using a DB of
// another lane fails with a *lanepool.CrossLaneError (see lanepool.GuardMode).
//
// The DB never has more than MaxConns connections open: it sets
// database/sql's MaxOpenConns to the budget and admits callers through its
// own gate first, so database/sql's unbounded wait is never reached. For
// PostgreSQL DSNs (URL or key=value) it sets application_name to the lane's
// name, so pg_stat_activity shows which lane holds which session.
//
// Every method that takes a connection (Conn, ExecContext, QueryContext,
// QueryRowContext, BeginTx, PingContext) gives it back when the work is
// done: Conn.Close, at once for ExecContext and PingContext, Rows.Close or
// the last Rows.Next, Row.Scan, Tx.Commit or Tx.Rollback. A connection held
// longer than the leak threshold (default 2s) is reported with the stack
// that acquired it.
package lanedb

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"io"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bhlint/bhlint/bulkhead"
	"github.com/bhlint/bhlint/bulkhead/internal/gate"
	"github.com/bhlint/bhlint/bulkhead/lanepool"
	"github.com/jackc/pgx/v5"
)

// DB is lane L's database/sql pool.
type DB[L bulkhead.Lane] struct {
	db *sql.DB
	g  *gate.Gate
	// dial opens a session outside the pool, for Reset (reset.go).
	dial driver.Connector
}

// Open opens lane L's pool of driverName connections to dsn. cfg.MaxConns
// and cfg.AcquireTimeout are required. Like sql.Open it does not connect;
// call PingContext to check the DSN.
func Open[L bulkhead.Lane](driverName, dsn string, cfg lanepool.Config) (*DB[L], error) {
	spec, resource, cfg, err := resolve[L](cfg)
	if err != nil {
		return nil, err
	}
	dsn, err = WithApplicationName(driverName, dsn, cfg.ApplicationName)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", resource, err)
	}
	probe, err := sql.Open(driverName, dsn) // looks the driver up; opens nothing
	if err != nil {
		return nil, fmt.Errorf("%s: %w", resource, err)
	}
	drv := probe.Driver()
	probe.Close()
	var c driver.Connector = dsnConnector{drv, dsn}
	if dc, ok := drv.(driver.DriverContext); ok {
		if c, err = dc.OpenConnector(dsn); err != nil {
			return nil, fmt.Errorf("%s: %w", resource, err)
		}
	}
	d := newDB[L](newConnector(c, cfg), spec, resource, cfg)
	d.dial = c
	return d, nil
}

type dsnConnector struct {
	d   driver.Driver
	dsn string
}

func (c dsnConnector) Connect(context.Context) (driver.Conn, error) { return c.d.Open(c.dsn) }
func (c dsnConnector) Driver() driver.Driver                        { return c.d }

// connector opens connections through gate.Dial: a dial whose caller gave
// up (the acquire timeout, or its context) goes on, and its connection is
// parked for the next caller database/sql asks a connection for, instead
// of being thrown away: where connecting takes longer than the acquire
// timeout, a pool that closed late dials would never get a connection. The
// caller's slot stays taken while the dial goes on, so the lane never has
// more sessions than its budget: a parked connection holds no slot, but it
// is taken before any new dial, as an idle one would be.
type connector struct {
	inner  driver.Connector
	parked chan driver.Conn // cap MaxConns

	mu     sync.Mutex
	closed bool
}

func newConnector(inner driver.Connector, cfg lanepool.Config) *connector {
	return &connector{inner: inner, parked: make(chan driver.Conn, cfg.MaxConns)}
}

func (c *connector) Driver() driver.Driver { return c.inner.Driver() }

// acquireCtx is the context of one acquire: the caller's, plus its ticket,
// the acquire deadline and whether the caller gave up on a dial.
type acquireCtx struct {
	context.Context
	t        *gate.Ticket
	deadline time.Time
	// gaveUp is the acquire's error once the caller gave up on a dial,
	// which now owns the ticket. Set by Connect, read after db.Conn.
	gaveUp error
}

type acquireKey struct{}

func (c *acquireCtx) Value(key any) any {
	if key == (acquireKey{}) {
		return c
	}
	return c.Context.Value(key)
}

func (c *connector) Connect(ctx context.Context) (driver.Conn, error) {
	select {
	case conn := <-c.parked:
		return conn, nil
	default:
	}
	a, _ := ctx.Value(acquireKey{}).(*acquireCtx)
	if a == nil {
		return c.inner.Connect(ctx)
	}
	conn, gaveUp, err := gate.Dial(ctx, a.t, a.deadline, c.dial, c.park)
	if gaveUp {
		a.gaveUp = err
	}
	return conn, err
}

// dial opens a connection, for at most dialLimit.
func (c *connector) dial(ctx context.Context) (driver.Conn, error) {
	ctx, cancel := context.WithTimeout(ctx, dialLimit)
	defer cancel()
	return c.inner.Connect(ctx)
}

// park keeps the connection of a dial whose caller gave up for the next
// caller, or ends it if the pool is closed.
func (c *connector) park(conn driver.Conn, err error) {
	if err != nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.closed {
		select {
		case c.parked <- conn:
			return
		default: // cannot happen: each parked connection had a slot of the budget
		}
	}
	closeAndWait(conn)
}

// Close is called by sql.DB.Close: it ends the parked connections.
func (c *connector) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	for {
		select {
		case conn := <-c.parked:
			closeAndWait(conn)
		default:
			return nil
		}
	}
}

// closeAndWait ends a connection's session and, for pgx's driver, waits
// until the server has closed it: PostgreSQL closes a session's socket only
// after the backend has left pg_stat_activity, so the lane's slot is not
// given to a new session while the old one is still listed.
func closeAndWait(c driver.Conn) {
	if p, ok := c.(pgxConn); ok {
		if hc, err := p.Conn().PgConn().Hijack(); err == nil {
			nc := hc.Conn
			_ = nc.SetDeadline(time.Now().Add(dialLimit))
			_, _ = nc.Write([]byte{'X', 0, 0, 0, 4}) // Terminate
			_, _ = io.Copy(io.Discard, nc)           // until the server closes
			_ = nc.Close()
			return
		}
	}
	_ = c.Close()
}

// dialLimit bounds a dial, which goes on after its caller gave up.
const dialLimit = 10 * time.Second

// OpenDB is Open for a driver.Connector. The connector's sessions get no
// application_name from here: set it in the connector's configuration.
func OpenDB[L bulkhead.Lane](c driver.Connector, cfg lanepool.Config) (*DB[L], error) {
	spec, resource, cfg, err := resolve[L](cfg)
	if err != nil {
		return nil, err
	}
	d := newDB[L](newConnector(c, cfg), spec, resource, cfg)
	d.dial = c
	return d, nil
}

func resolve[L bulkhead.Lane](cfg lanepool.Config) (bulkhead.LaneSpec, string, lanepool.Config, error) {
	resource := "lanedb.DB[" + gate.TypeName[L]() + "]"
	spec, err := bulkhead.SpecOf[L]()
	if err != nil {
		return spec, resource, cfg, err
	}
	cfg, err = cfg.Resolve(spec, resource)
	return spec, resource, cfg, err
}

func newDB[L bulkhead.Lane](c *connector, spec bulkhead.LaneSpec, resource string, cfg lanepool.Config) *DB[L] {
	db := sql.OpenDB(c)
	db.SetMaxOpenConns(cfg.MaxConns)
	db.SetMaxIdleConns(cfg.MaxIdleConns)
	db.SetConnMaxLifetime(cfg.ConnMaxLifetime)
	db.SetConnMaxIdleTime(cfg.ConnMaxIdleTime)
	d := &DB[L]{db: db, g: gate.New(spec.Name, resource, cfg)}
	d.g.Idle = func() int { return db.Stats().Idle + len(c.parked) }
	d.g.Attach(d)
	return d
}

// WithApplicationName returns a PostgreSQL DSN with application_name set to
// name: a postgres:// or postgresql:// URL gets the query parameter, a
// key=value DSN for a PostgreSQL driver (pgx, postgres) gets the key. Other
// DSNs are returned as they are.
func WithApplicationName(driverName, dsn, name string) (string, error) {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		u, err := url.Parse(dsn)
		if err != nil {
			return "", fmt.Errorf("parsing the DSN: %w", err)
		}
		q := u.Query()
		q.Set("application_name", name)
		u.RawQuery = q.Encode()
		return u.String(), nil
	}
	switch driverName {
	case "pgx", "pgx/v5", "postgres", "postgresql":
		if strings.Contains(dsn, "=") || strings.TrimSpace(dsn) == "" {
			return strings.TrimSpace(dsn+" application_name='"+strings.ReplaceAll(name, "'", `\'`)) + "'", nil
		}
	}
	return dsn, nil
}

// Lane is the name of the lane the DB belongs to.
func (d *DB[L]) Lane() string { return d.g.Lane }

// PoolStats implements lanepool.Source.
func (d *DB[L]) PoolStats() lanepool.Stats { return d.g.Stats() }

// SQL is the underlying *sql.DB, for what this package does not wrap (such
// as migrations at start-up). Work done through it bypasses the lane's gate,
// its acquire timeout and its leak detection.
func (d *DB[L]) SQL() *sql.DB { return d.db }

// Close closes the pool. Connections still held are closed when they are
// given back.
func (d *DB[L]) Close() error {
	d.g.Close()
	return d.db.Close()
}

// Conn is a connection held by lane L's work. Give it back with Close.
type Conn[L bulkhead.Lane] struct {
	*sql.Conn
	t      *gate.Ticket
	closed atomic.Bool
}

// Conn takes a connection from the lane's pool, waiting at most the
// acquire timeout (and never past ctx's deadline). The caller must Close it.
// A failure is a *lanepool.AcquireError or a *lanepool.CrossLaneError.
func (d *DB[L]) Conn(ctx context.Context) (*Conn[L], error) {
	return d.conn(ctx, 1)
}

func (d *DB[L]) conn(ctx context.Context, skip int) (*Conn[L], error) {
	t, deadline, err := d.g.Admit(ctx, skip+1)
	if err != nil {
		return nil, err
	}
	// With the gate in front, database/sql never waits for a connection: it
	// hands out an idle one or dials. The acquire deadline is enforced by the
	// dial (see connector.Connect), which saves a timer per acquire that
	// finds an idle connection.
	actx := &acquireCtx{Context: ctx, t: t, deadline: deadline}
	c, err := d.db.Conn(actx)
	if err != nil {
		if actx.gaveUp != nil {
			return nil, actx.gaveUp // the dial goes on with the ticket
		}
		t.Release()
		return nil, d.g.Fail(reasonFor(ctx, err), time.Since(t.Start()), err)
	}
	t.Grant()
	return &Conn[L]{Conn: c, t: t}, nil
}

// reasonFor classifies a failure to get a connection from database/sql
// after admission, other than a dial the caller gave up on.
func reasonFor(ctx context.Context, err error) lanepool.Reason {
	switch {
	case ctx.Err() != nil:
		if ctx.Err() == context.Canceled {
			return lanepool.ReasonCanceled
		}
		return lanepool.ReasonDeadline
	case err == sql.ErrConnDone || strings.Contains(err.Error(), "database is closed"):
		return lanepool.ReasonClosed
	}
	return lanepool.ReasonConnect
}

// Close gives the connection back to the lane's pool. Later calls do nothing.
func (c *Conn[L]) Close() error {
	if !c.closed.CompareAndSwap(false, true) {
		return sql.ErrConnDone
	}
	gone := brokenSession(c.Conn)
	err := c.Conn.Close()
	c.t.ReleaseWhenGone(gone)
	return err
}

// pgxConn is what pgx's database/sql driver (github.com/jackc/pgx/v5/stdlib)
// exposes of its connections.
type pgxConn interface{ Conn() *pgx.Conn }

// brokenSession returns, for a connection the driver has given up on (a
// query interrupted by its context, a network error), a channel closed once
// the server's session is gone, or nil. database/sql forgets a broken
// connection at once, but the server's backend lives on until it notices:
// a backend in pg_sleep, or in any long query, runs on after its client
// left. Until then the session still counts against the lane's budget in
// pg_stat_activity, so the lane's slot is kept until then. Only pgx's
// driver says when that is; with other drivers the slot goes back at once.
func brokenSession(c *sql.Conn) <-chan struct{} {
	var gone <-chan struct{}
	_ = c.Raw(func(dc any) error {
		if p, ok := dc.(pgxConn); ok {
			if pc := p.Conn().PgConn(); pc.IsClosed() {
				gone = pc.CleanupDone()
			}
		}
		return nil
	})
	return gone
}

// ExecContext runs query on a connection of the lane and gives it back.
func (d *DB[L]) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	c, err := d.conn(ctx, 1)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	return c.Conn.ExecContext(ctx, query, args...)
}

// PingContext checks that the database answers, on a connection of the lane.
func (d *DB[L]) PingContext(ctx context.Context) error {
	c, err := d.conn(ctx, 1)
	if err != nil {
		return err
	}
	defer c.Close()
	return c.Conn.PingContext(ctx)
}

// Rows are the results of QueryContext. They hold their connection until
// Close, or until Next returns false.
type Rows[L bulkhead.Lane] struct {
	*sql.Rows
	c *Conn[L]
}

// QueryContext runs query on a connection of the lane, which the rows hold
// until they are closed.
func (d *DB[L]) QueryContext(ctx context.Context, query string, args ...any) (*Rows[L], error) {
	c, err := d.conn(ctx, 1)
	if err != nil {
		return nil, err
	}
	rows, err := c.Conn.QueryContext(ctx, query, args...)
	if err != nil {
		c.Close()
		return nil, err
	}
	return &Rows[L]{Rows: rows, c: c}, nil
}

// Next is sql.Rows.Next; when it returns false the connection goes back.
func (r *Rows[L]) Next() bool {
	if r.Rows.Next() {
		return true
	}
	r.release()
	return false
}

// Close closes the rows and gives the connection back.
func (r *Rows[L]) Close() error {
	err := r.Rows.Close()
	r.release()
	return err
}

func (r *Rows[L]) release() {
	_ = r.Rows.Close() // the connection cannot go back with a result open on it
	_ = r.c.Close()
}

// Row is the result of QueryRowContext. It holds its connection until Scan.
type Row[L bulkhead.Lane] struct {
	row *sql.Row
	c   *Conn[L]
	err error
}

// QueryRowContext runs a query that returns at most one row. Call Scan on
// the result: the connection is held until then.
func (d *DB[L]) QueryRowContext(ctx context.Context, query string, args ...any) *Row[L] {
	c, err := d.conn(ctx, 1)
	if err != nil {
		return &Row[L]{err: err}
	}
	return &Row[L]{row: c.Conn.QueryRowContext(ctx, query, args...), c: c}
}

// Scan is sql.Row.Scan, and gives the connection back.
func (r *Row[L]) Scan(dest ...any) error {
	if r.err != nil {
		return r.err
	}
	defer r.c.Close()
	return r.row.Scan(dest...)
}

// Err is sql.Row.Err.
func (r *Row[L]) Err() error {
	if r.err != nil {
		return r.err
	}
	return r.row.Err()
}

// Tx is a transaction on a connection of the lane, held until Commit or Rollback.
type Tx[L bulkhead.Lane] struct {
	*sql.Tx
	c *Conn[L]
}

// BeginTx starts a transaction on a connection of the lane.
func (d *DB[L]) BeginTx(ctx context.Context, opts *sql.TxOptions) (*Tx[L], error) {
	c, err := d.conn(ctx, 1)
	if err != nil {
		return nil, err
	}
	tx, err := c.Conn.BeginTx(ctx, opts)
	if err != nil {
		c.Close()
		return nil, err
	}
	return &Tx[L]{Tx: tx, c: c}, nil
}

// Commit commits and gives the connection back.
func (tx *Tx[L]) Commit() error {
	defer tx.c.Close()
	return tx.Tx.Commit()
}

// Rollback rolls back and gives the connection back.
func (tx *Tx[L]) Rollback() error {
	defer tx.c.Close()
	return tx.Tx.Rollback()
}
