package unboundedqueue

import (
	"go/ast"
	"go/types"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/pkgscope"
)

// onUnlimitedEmbeddedPool reports whether call waits on a database pool of
// a package that is an embedded database's backend (its name is one of
// catalog.EmbeddedDrivers: dendrite's roomserver/storage/sqlite3) and that
// gives no pool a maximum. A wait for a slot needs a maximum: a pool
// without one opens another connection instead of queueing the caller, and
// an embedded database's connections are a file in the process, not a
// server's. What such a pool lacks is its maximum, reported where it is
// opened; its calls without a deadline queue nothing. A backend that sets
// one (SetMaxOpenConns(1), the usual way to serialise SQLite's writers)
// does queue its callers, and its waits are reported.
func (c *checker) onUnlimitedEmbeddedPool(call *ast.CallExpr) bool {
	if !catalog.EmbeddedDrivers[c.pass.Pkg.Name()] {
		return false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	if t := c.pass.TypesInfo.TypeOf(sel.X); t == nil || !holdsSQLPool(t) {
		return false // a transaction's, a semaphore's: not a wait for a pool slot
	}
	if c.limitsAPool == nil {
		limits := c.packageLimitsAPool()
		c.limitsAPool = &limits
	}
	return !*c.limitsAPool
}

// packageLimitsAPool reports whether some function of the package gives a
// database pool a maximum: SetMaxOpenConns (database/sql's or a wrapper's)
// with an argument that is not a constant zero or less, or opens its
// *sql.DB over a pool that has one (catalog.PoolBackedOpeners: pgx's
// stdlib.OpenDBFromPool).
func (c *checker) packageLimitsAPool() bool {
	if !pkgscope.UsesFunc(c.pass.TypesInfo, limitsPool) {
		return false // most packages: nothing to walk the syntax for
	}
	limits := false
	for _, f := range c.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if ok && !limits && catalog.PoolBackedOpeners.Has(c.callee(call)) {
				limits = true
			}
			if !ok || limits || len(call.Args) != 1 {
				return !limits
			}
			if fn := c.callee(call); fn == nil || !setsMaximum(fn) {
				return true
			}
			if k, isConst := c.constInt(call.Args[0]); !isConst || k > 0 {
				limits = true
			}
			return !limits
		})
	}
	return limits
}

// setsMaximum reports whether fn sets a database pool's maximum:
// database/sql's SetMaxOpenConns or a wrapper's (catalog.PoolWrapperBounds).
func setsMaximum(fn *types.Func) bool {
	return fn.FullName() == catalog.SQLBound || catalog.PoolWrapperBounds.Has(fn)
}

// limitsPool reports whether a call of fn can give a pool a maximum:
// setsMaximum, or an opener over a pool that has one.
func limitsPool(fn *types.Func) bool {
	return setsMaximum(fn) || catalog.PoolBackedOpeners.Has(fn)
}
