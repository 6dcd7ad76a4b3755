// Package enginedb keeps the one pool of the service behind its own
// interface, as gitea's models/db does: GetEngine is a pool accessor.
package enginedb

import (
	"context"
	"database/sql"

	"github.com/redis/go-redis/v9"
	"xorm.io/xorm"
)

// Engine is the module's interface the accessor returns.
type Engine interface {
	PingContext(ctx context.Context) error
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	Stats() sql.DBStats
}

var x *sql.DB

type ctxKey struct{}

// GetEngine returns the transaction the context carries, or the package's
// pool: a pool accessor (a pool boxed in the interface on one path).
func GetEngine(ctx context.Context) Engine { // want GetEngine:`returnsPool\(database pool enginedb.x\)`
	if e, ok := ctx.Value(ctxKey{}).(Engine); ok {
		return e
	}
	return x
}

// Current forwards another accessor's result: an accessor too.
func Current() Engine { // want Current:`returnsPool\(database pool enginedb.x\)`
	return GetEngine(context.Background())
}

// Wrap boxes the pool its caller passes: the caller knows which pool that
// is, Wrap is no accessor of a pool of its own.
func Wrap(db *sql.DB) Engine { return db }

// Status is an interface a memory-backed type implements.
type Status interface{ Healthy() bool }

type memStatus struct{ ok bool }

func (m *memStatus) Healthy() bool { return m.ok }

var status = &memStatus{ok: true}

// GetStatus returns no pool: no accessor.
func GetStatus() Status { return status }

// Pinger is gitea's db.Engine, cut to one method.
type Pinger interface{ Ping() error }

var xormEngine *xorm.Engine

type holder struct{ engine Pinger }

// XormEngine returns the engine a context carries, or a session of the
// package's engine: a view of the pool is the pool.
func XormEngine(ctx context.Context) Pinger { // want XormEngine:`returnsPool\(database pool enginedb.xormEngine\)`
	if h, ok := ctx.Value(ctxKey{}).(*holder); ok {
		return h.engine
	}
	return xormEngine.Context(ctx)
}

// DBLogger wraps the pool, as chirpstack's storage does: it is the pool.
type DBLogger struct{ *sql.DB }

var db *DBLogger

var rdb = redis.NewClient()

// DB hands out the pool the package keeps: a call of it opens nothing.
func DB() *DBLogger { return db } // want DB:`returnsPool\(database pool enginedb.db\)`

// Redis hands out the package's client.
func Redis() *redis.Client { return rdb } // want Redis:`returnsPool\(Redis client enginedb.rdb\)`

// Open opens a pool for whoever calls it: no accessor.
func Open(dsn string) *sql.DB {
	p, _ := sql.Open("postgres", dsn)
	return p
}

// Handle returns the pool its caller passes: the caller names that pool.
func Handle(p *sql.DB) *sql.DB { return p }
