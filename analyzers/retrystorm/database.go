package retrystorm

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/netio"
	"github.com/bhlint/bhlint/internal/pkgscope"
)

// A call that reaches a database waits on a remote server as a network call
// does, but the drivers reach the network through interfaces (database/sql's
// driver.Conn, an ORM's dialect) that netio cannot follow. A bounded loop
// that waits a constant time between attempts of one — "waiting for the
// database to be up" — is judged like one of a network call: every
// instance retries in step when the database comes back. A bounded loop
// that retries one at once is left alone: that is a conflict retry (a
// serialization failure, a bad pooled connection), not a wait for a server.

// databasePath returns the path by which the call reaches a database — a
// connection taken from a pool (catalog.PoolAcquires), a pool opened by a
// wrapper that connects (catalog.PoolWrapperOpeners: gorm.Open, sqlx.Connect),
// a method of a database pool type (catalog.ResourceTypes: *gorm.DB,
// *xorm.Engine, *bun.DB), directly or through functions of this package —
// or nil.
func (c *checker) databasePath(call *ssa.Call) []string {
	common := call.Common()
	if fn := calleeFunc(common); fn != nil && isDatabaseCall(fn) {
		return []string{netio.Name(fn)}
	}
	callee := common.StaticCallee()
	if callee == nil || common.IsInvoke() {
		return nil
	}
	callee = origin(callee)
	if callee.Pkg == nil || callee.Pkg.Pkg != c.pass.Pkg {
		return nil
	}
	if path := c.dbReach(callee); path != nil {
		return append([]string{callee.Name()}, path...)
	}
	return nil
}

// dbReach is databasePath for a function of this package: the first call in
// it (or in a function it calls statically, here) that reaches a database.
func (c *checker) dbReach(fn *ssa.Function) []string {
	if c.dbReaches == nil {
		c.dbReaches = map[*ssa.Function][]string{}
	}
	if path, ok := c.dbReaches[fn]; ok {
		return path
	}
	c.dbReaches[fn] = nil // a cycle reaches nothing new
	for _, anon := range append([]*ssa.Function{fn}, fn.AnonFuncs...) {
		for _, b := range anon.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(*ssa.Call)
				if !ok {
					continue
				}
				if path := c.databasePath(call); path != nil {
					c.dbReaches[fn] = path
					return path
				}
			}
		}
	}
	return nil
}

func isDatabaseCall(fn *types.Func) bool {
	if catalog.PoolAcquires.Has(fn) || catalog.PoolWrapperOpeners.Has(fn) {
		return true
	}
	recv := fn.Signature().Recv()
	return recv != nil && catalog.ResourceNoun(recv.Type()) == "database pool"
}

// staysLocal reports whether the call cannot reach a dependency at all: a
// static call into another package that imports no network or database
// package, directly or transitively (os.Stat, an fsnotify watch, a file
// lock), with no function or interface among its arguments that could
// call back into one. Retrying it for ever loads nothing remote: the
// loop waits for a local condition (a file to come back), it is no storm.
func (c *checker) staysLocal(call *ssa.Call) bool {
	common := call.Common()
	callee := common.StaticCallee()
	if common.IsInvoke() || callee == nil {
		return false
	}
	callee = origin(callee)
	if callee.Pkg == nil || callee.Pkg.Pkg == c.pass.Pkg || callee.Signature.Variadic() {
		return false
	}
	for _, arg := range common.Args {
		if _, isFunc := arg.Type().Underlying().(*types.Signature); isFunc || types.IsInterface(arg.Type()) {
			return false
		}
	}
	return !pkgscope.Reaches(callee.Pkg.Pkg, catalog.NetworkPackages) && !pkgscope.Reaches(callee.Pkg.Pkg, catalog.DBPackages)
}
