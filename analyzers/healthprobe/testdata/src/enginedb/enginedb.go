// Package enginedb keeps the one pool of the service behind its own
// interface, as gitea's models/db does: GetEngine is a pool accessor.
package enginedb

import (
	"context"
	"database/sql"

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
