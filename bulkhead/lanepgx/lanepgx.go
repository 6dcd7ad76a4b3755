// Package lanepgx gives each bulkhead lane its own pgx v5 pool.
//
//	taxPool, err := lanepgx.New[Tax](ctx, dsn, lanepool.Config{
//		MaxConns:       5,                      // the lane's budget: required
//		MaxWaiters:     2,                      // at most 2 callers wait...
//		AcquireTimeout: 100 * time.Millisecond, // ...each for at most 100ms
//	})
//
//	conn, err := taxPool.Acquire(ctx) // *lanepgx.Conn[Tax]; fails after AcquireTimeout
//	if err != nil { ... }             // a *lanepool.AcquireError: shed the request
//	defer conn.Release()              // gives the connection back to the lane
//
// pgxpool bounds its connections with MaxConns, but not how many callers
// wait for one nor for how long, beyond the caller's context. Pool[L] sets
// pgxpool's MaxConns to the lane's budget and admits callers through its own
// gate first, so they wait at most AcquireTimeout, at most MaxWaiters of
// them. The sessions' application_name is the lane's name. The cross-lane
// guard, leak detection and statistics are those of package lanepool.
//
// Every method that takes a connection gives it back when the work is done:
// Conn.Release, at once for Exec and Ping, Rows.Close or the last Rows.Next,
// Row.Scan, Tx.Commit or Tx.Rollback.
package lanepgx

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/bhlint/bhlint/bulkhead"
	"github.com/bhlint/bhlint/bulkhead/internal/gate"
	"github.com/bhlint/bhlint/bulkhead/lanepool"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// DefaultConnectTimeout bounds each dial, with its TLS and start-up
// exchange, when the DSN sets no connect_timeout. A dial goes on after the
// caller that asked for it gave up (AcquireTimeout), so its connection can
// serve the next caller; this is how long it may go on.
const DefaultConnectTimeout = 10 * time.Second

// Pool is lane L's pgx pool.
type Pool[L bulkhead.Lane] struct {
	p *pgxpool.Pool
	g *gate.Gate
	// dialLimit bounds an acquire that may dial: the connect timeout, plus
	// a moment for pgxpool's own hooks.
	dialLimit time.Duration
	// open counts the pool's connections (pgxpool's AfterConnect and
	// BeforeClose hooks): with no more than callers hold, an acquire will
	// dial. Cheaper than pgxpool's Stat on every acquire.
	open *atomic.Int64
}

// New opens lane L's pool for the connection string dsn (URL or key=value).
// cfg.MaxConns and cfg.AcquireTimeout are required. Like pgxpool.New it
// connects lazily.
func New[L bulkhead.Lane](ctx context.Context, dsn string, cfg lanepool.Config) (*Pool[L], error) {
	resource := "lanepgx.Pool[" + gate.TypeName[L]() + "]"
	pc, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", resource, err)
	}
	return NewWithConfig[L](ctx, pc, cfg)
}

// NewWithConfig is New for a parsed pgxpool configuration. Its MaxConns,
// MinConns and application_name are replaced by the lane's, and a
// ConnConfig.ConnectTimeout of 0 by DefaultConnectTimeout.
func NewWithConfig[L bulkhead.Lane](ctx context.Context, pc *pgxpool.Config, cfg lanepool.Config) (*Pool[L], error) {
	resource := "lanepgx.Pool[" + gate.TypeName[L]() + "]"
	spec, err := bulkhead.SpecOf[L]()
	if err != nil {
		return nil, err
	}
	if cfg, err = cfg.Resolve(spec, resource); err != nil {
		return nil, err
	}
	pc = pc.Copy()
	pc.MaxConns = int32(cfg.MaxConns)
	pc.MinConns = 0
	pc.MinIdleConns = 0
	if cfg.ConnMaxLifetime > 0 {
		pc.MaxConnLifetime = cfg.ConnMaxLifetime
	}
	if cfg.ConnMaxIdleTime > 0 {
		pc.MaxConnIdleTime = cfg.ConnMaxIdleTime
	}
	if pc.ConnConfig.RuntimeParams == nil {
		pc.ConnConfig.RuntimeParams = map[string]string{}
	}
	pc.ConnConfig.RuntimeParams["application_name"] = cfg.ApplicationName
	if pc.ConnConfig.ConnectTimeout <= 0 {
		// pgxpool goes on dialing after the caller that asked for the
		// connection gave up, with no deadline: a server that accepts and
		// never answers would keep the pool's slots for good.
		pc.ConnConfig.ConnectTimeout = DefaultConnectTimeout
	}
	open := countConns(pc)
	p, err := pgxpool.NewWithConfig(ctx, pc)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", resource, err)
	}
	pool := &Pool[L]{p: p, g: gate.New(spec.Name, resource, cfg), dialLimit: pc.ConnConfig.ConnectTimeout + time.Second, open: open}
	pool.g.Idle = func() int { return int(p.Stat().IdleConns()) }
	pool.g.Attach(pool)
	return pool, nil
}

// countConns chains hooks to pc that count its pool's open connections.
func countConns(pc *pgxpool.Config) *atomic.Int64 {
	open := new(atomic.Int64)
	after, before := pc.AfterConnect, pc.BeforeClose
	pc.AfterConnect = func(ctx context.Context, c *pgx.Conn) error {
		if after != nil {
			if err := after(ctx, c); err != nil {
				return err // pgxpool closes it without BeforeClose
			}
		}
		open.Add(1)
		return nil
	}
	pc.BeforeClose = func(c *pgx.Conn) {
		open.Add(-1)
		if before != nil {
			before(c)
		}
	}
	return open
}

// Lane is the name of the lane the pool belongs to.
func (p *Pool[L]) Lane() string { return p.g.Lane }

// PoolStats implements lanepool.Source.
func (p *Pool[L]) PoolStats() lanepool.Stats { return p.g.Stats() }

// Pgx is the underlying pool, for what this package does not wrap. Work done
// through it bypasses the lane's gate, its acquire timeout and its leak
// detection.
func (p *Pool[L]) Pgx() *pgxpool.Pool { return p.p }

// Close closes the pool. Like pgxpool.Pool.Close it waits until every
// acquired connection has been released.
func (p *Pool[L]) Close() {
	p.g.Close()
	p.p.Close()
}

// Conn is a connection held by lane L's work. Give it back with Release.
type Conn[L bulkhead.Lane] struct {
	c        *pgxpool.Conn
	t        *gate.Ticket
	released atomic.Bool
}

// Acquire takes a connection from the lane's pool, waiting at most the
// acquire timeout (and never past ctx's deadline). The caller must Release
// it. A failure is a *lanepool.AcquireError or a *lanepool.CrossLaneError.
func (p *Pool[L]) Acquire(ctx context.Context) (*Conn[L], error) {
	return p.acquire(ctx, 1)
}

func (p *Pool[L]) acquire(ctx context.Context, skip int) (*Conn[L], error) {
	t, deadline, err := p.g.Admit(ctx, skip+1)
	if err != nil {
		return nil, err
	}
	if p.open.Load() <= p.g.Holding() {
		return p.dial(ctx, t, deadline)
	}
	actx, cancel := context.WithDeadline(ctx, deadline)
	c, err := p.p.Acquire(actx)
	if err != nil {
		// The reason is read before cancel: after it, actx.Err() is set
		// whatever happened, and a refused dial would read as a timeout.
		reason := reasonFor(ctx, actx, err)
		cancel()
		t.Release()
		return nil, p.g.Fail(reason, time.Since(t.Start()), err)
	}
	cancel()
	t.Grant()
	return &Conn[L]{c: c, t: t}, nil
}

// dial is acquire when no connection is idle, so pgxpool will open one:
// through gate.Dial, as lanedb does, so that a dial whose caller gave up
// keeps its slot (Stats.Pending) until it ends, and its connection is then
// idle in the pool for the next caller.
func (p *Pool[L]) dial(ctx context.Context, t *gate.Ticket, deadline time.Time) (*Conn[L], error) {
	c, gaveUp, err := gate.Dial(ctx, t, deadline, p.acquireDialing, p.keepIdle)
	if gaveUp {
		return nil, err // the dial goes on with the ticket
	}
	if err != nil {
		reason := lanepool.ReasonConnect
		if err.Error() == "closed pool" { // puddle.ErrClosedPool, unwrapped
			reason = lanepool.ReasonClosed
		}
		t.Release()
		return nil, p.g.Fail(reason, time.Since(t.Start()), err)
	}
	t.Grant()
	return &Conn[L]{c: c, t: t}, nil
}

func (p *Pool[L]) acquireDialing(ctx context.Context) (*pgxpool.Conn, error) {
	ctx, cancel := context.WithTimeout(ctx, p.dialLimit)
	defer cancel()
	return p.p.Acquire(ctx)
}

// keepIdle puts the connection of a dial whose caller gave up into the pool.
func (p *Pool[L]) keepIdle(c *pgxpool.Conn, err error) {
	if err == nil {
		c.Release()
	}
}

func reasonFor(ctx, actx context.Context, err error) lanepool.Reason {
	switch {
	case ctx.Err() != nil:
		if errors.Is(ctx.Err(), context.Canceled) {
			return lanepool.ReasonCanceled
		}
		return lanepool.ReasonDeadline
	case errors.Is(actx.Err(), context.DeadlineExceeded):
		return lanepool.ReasonTimeout
	case err.Error() == "closed pool": // puddle.ErrClosedPool, unwrapped
		return lanepool.ReasonClosed
	}
	return lanepool.ReasonConnect
}

// Release gives the connection back to the lane's pool. Later calls do nothing.
func (c *Conn[L]) Release() {
	if !c.released.CompareAndSwap(false, true) {
		return
	}
	// A connection pgx gave up on (a query interrupted by its context, a
	// network error) keeps its server session until the server notices;
	// pgxpool keeps its slot until then, and so does the lane.
	var gone <-chan struct{}
	if pc := c.c.Conn().PgConn(); pc.IsClosed() {
		gone = pc.CleanupDone()
	}
	c.c.Release()
	c.t.ReleaseWhenGone(gone)
}

// Conn is the underlying *pgx.Conn, valid until Release.
func (c *Conn[L]) Conn() *pgx.Conn { return c.c.Conn() }

// Exec runs sql on the held connection.
func (c *Conn[L]) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	return c.c.Exec(ctx, sql, args...)
}

// Query runs sql on the held connection.
func (c *Conn[L]) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	return c.c.Query(ctx, sql, args...)
}

// QueryRow runs sql, which returns at most one row, on the held connection.
func (c *Conn[L]) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	return c.c.QueryRow(ctx, sql, args...)
}

// Begin starts a transaction on the held connection; the connection stays
// held after it ends, until Release.
func (c *Conn[L]) Begin(ctx context.Context) (pgx.Tx, error) { return c.c.Begin(ctx) }

// Ping checks the held connection.
func (c *Conn[L]) Ping(ctx context.Context) error { return c.c.Ping(ctx) }

// Exec runs sql on a connection of the lane and gives it back.
func (p *Pool[L]) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	c, err := p.acquire(ctx, 1)
	if err != nil {
		return pgconn.CommandTag{}, err
	}
	defer c.Release()
	return c.c.Exec(ctx, sql, args...)
}

// Ping checks that the database answers, on a connection of the lane.
func (p *Pool[L]) Ping(ctx context.Context) error {
	c, err := p.acquire(ctx, 1)
	if err != nil {
		return err
	}
	defer c.Release()
	return c.c.Ping(ctx)
}

// Rows are the results of Pool.Query. They hold their connection until
// Close, or until Next returns false.
type Rows[L bulkhead.Lane] struct {
	pgx.Rows
	c *Conn[L]
}

// Query runs sql on a connection of the lane, which the rows hold until
// they are closed or read to the end.
func (p *Pool[L]) Query(ctx context.Context, sql string, args ...any) (*Rows[L], error) {
	return p.query(ctx, 1, sql, args)
}

func (p *Pool[L]) query(ctx context.Context, skip int, sql string, args []any) (*Rows[L], error) {
	c, err := p.acquire(ctx, skip+1)
	if err != nil {
		return nil, err
	}
	rows, err := c.c.Query(ctx, sql, args...)
	if err != nil {
		c.Release()
		return nil, err
	}
	return &Rows[L]{Rows: rows, c: c}, nil
}

// Next is pgx.Rows.Next; when it returns false the connection goes back.
func (r *Rows[L]) Next() bool {
	if r.Rows.Next() {
		return true
	}
	r.Close()
	return false
}

// Close closes the rows and gives the connection back.
func (r *Rows[L]) Close() {
	r.Rows.Close()
	r.c.Release()
}

// Row is the result of Pool.QueryRow; it holds its connection until Scan.
type Row[L bulkhead.Lane] struct {
	rows *Rows[L]
	err  error
}

// QueryRow runs sql, which returns at most one row, on a connection of the
// lane. Call Scan on the result: the connection is held until then.
func (p *Pool[L]) QueryRow(ctx context.Context, sql string, args ...any) *Row[L] {
	rows, err := p.query(ctx, 1, sql, args)
	return &Row[L]{rows: rows, err: err}
}

// Scan reads the row into dest (pgx.ErrNoRows if there is none) and gives
// the connection back.
func (r *Row[L]) Scan(dest ...any) error {
	if r.err != nil {
		return r.err
	}
	defer r.rows.Close()
	if !r.rows.Next() {
		if err := r.rows.Err(); err != nil {
			return err
		}
		return pgx.ErrNoRows
	}
	if err := r.rows.Scan(dest...); err != nil {
		return err
	}
	r.rows.Close()
	return r.rows.Err()
}

// Tx is a transaction on a connection of the lane, held until Commit or Rollback.
type Tx[L bulkhead.Lane] struct {
	pgx.Tx
	c *Conn[L]
}

// Begin starts a transaction on a connection of the lane.
func (p *Pool[L]) Begin(ctx context.Context) (*Tx[L], error) {
	c, err := p.acquire(ctx, 1)
	if err != nil {
		return nil, err
	}
	tx, err := c.c.Begin(ctx)
	if err != nil {
		c.Release()
		return nil, err
	}
	return &Tx[L]{Tx: tx, c: c}, nil
}

// Commit commits and gives the connection back.
func (tx *Tx[L]) Commit(ctx context.Context) error {
	defer tx.c.Release()
	return tx.Tx.Commit(ctx)
}

// Rollback rolls back and gives the connection back. Like pgx, it is safe
// to call after Commit (deferred), and then does nothing.
func (tx *Tx[L]) Rollback(ctx context.Context) error {
	defer tx.c.Release()
	return tx.Tx.Rollback(ctx)
}

var _ pgx.Row = (*Row[bulkhead.Lane])(nil)
