package unboundedqueue

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/bhlint/bhlint/internal/catalog"
)

// unlimitedQueue is the MaxQueued from which a lane's queue is unlimited in
// all but name (math.MaxInt32 and above).
const unlimitedQueue = 1<<31 - 1

// checkLaneSpecs finds bulkhead lanes declared with an unlimited queue or a
// queue with no wait timeout (shape 6): a bulkhead.LaneSpec literal, which
// is how a lane type's Spec method declares its share.
func (c *checker) checkLaneSpecs(f *ast.File) {
	ast.Inspect(f, func(n ast.Node) bool {
		lit, ok := n.(*ast.CompositeLit)
		if !ok || !isNamed(c.pass.TypesInfo.TypeOf(lit), catalog.RuntimePath, "LaneSpec") {
			return true
		}
		fields := map[string]ast.Expr{}
		for _, elt := range lit.Elts {
			if kv, ok := elt.(*ast.KeyValueExpr); ok {
				if id, ok := kv.Key.(*ast.Ident); ok {
					fields[id.Name] = kv.Value
				}
			}
		}
		queued, ok := c.constInt(fields["MaxQueued"])
		if !ok {
			return true // no queue (fail fast), or a length this code cannot see
		}
		at := fields["MaxQueued"].Pos()
		if queued < 0 || queued >= unlimitedQueue {
			c.report(at, token.NoPos, "",
				"bulkhead lane with an unlimited queue: MaxQueued %s lets callers pile up in memory while the lane is "+
					"full, which only moves the overload into latency; set MaxQueued to a small bound (or 0 to fail fast) "+
					"with a QueueTimeout", types.ExprString(fields["MaxQueued"]))
			return true
		}
		if queued == 0 {
			return true
		}
		timeout, hasTimeout := fields["QueueTimeout"]
		if k, isConst := c.constInt(timeout); hasTimeout && (!isConst || k > 0) {
			return true
		}
		c.report(at, token.NoPos, "",
			"bulkhead lane queue with no wait timeout: MaxQueued is %d but QueueTimeout is not set, so a queued caller "+
				"waits until a slot frees, however long that takes; set QueueTimeout (for example 250*time.Millisecond) "+
				"or MaxQueued to 0 to fail fast", queued)
		return true
	})
}
