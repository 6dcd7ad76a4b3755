package heldconn

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// queriesPool marks a function that makes a database round trip on a pool
// its caller does not hand it: a field's or a package variable's
// (s.db.NewSelect()…Scan(ctx), dao.GetByName(ctx, s.db, …)), itself or
// through the functions it calls. A caller holding a transaction of that
// pool, handing the helper the transaction for its other statements, waits
// for a second connection from the pool while holding the first (paralus'
// createGroupAccountRelations(ctx, tx, …) looking groups up on s.db).
type queriesPool struct {
	Pool string   // the pool, as poolKey names it
	Name string   // its short name, for messages
	Path []string // the calls down to the round trip
}

func (*queriesPool) AFact()           {}
func (f *queriesPool) String() string { return "queriesPool(" + f.Name + ")" }

// queriesParam marks a function that makes a database round trip through a
// handle its caller hands it (dao.GetByName(ctx, db bun.IDB, …)): the
// parameters, and the calls down to the round trip.
type queriesParam struct {
	Params []int
	Path   []string
}

func (*queriesParam) AFact()           {}
func (f *queriesParam) String() string { return fmt.Sprintf("queriesParam(%v)", f.Params) }

// learnPoolQueries computes both for this package's functions, to a fixed
// point, and exports them for the package-level ones.
func (c *checker) learnPoolQueries(funcs []*ssa.Function) {
	c.poolQueries = map[*ssa.Function]*queriesPool{}
	c.paramQueries = map[*ssa.Function]*queriesParam{}
	c.queryAt = map[*ssa.Function]*[2]token.Pos{}
	for changed := true; changed; {
		changed = false
		for _, fn := range funcs {
			if c.learnQueriesOf(fn) {
				changed = true
			}
		}
	}
	for _, fn := range funcs {
		obj := calleeObject(fn)
		if obj == nil || fn.Parent() != nil {
			continue
		}
		if q := c.poolQueries[fn]; q != nil {
			c.pass.ExportObjectFact(obj, q)
		}
		if q := c.paramQueries[fn]; q != nil {
			c.pass.ExportObjectFact(obj, q)
		}
	}
}

// learnQueriesOf updates fn's entries; it reports whether one changed.
func (c *checker) learnQueriesOf(fn *ssa.Function) bool {
	changed := false
	for _, b := range fn.Blocks {
		if onlyWhenHandedNil(fn, b) {
			continue // the pool stands in for a handle the caller did not give
		}
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if _, async := instr.(*ssa.Go); !ok || async {
				continue // a goroutine's query does not make the caller wait
			}
			for _, h := range c.queriedHandles(call.Common()) {
				if c.recordQuery(fn, h, call.Pos()) {
					changed = true
				}
			}
		}
	}
	return changed
}

// onlyWhenHandedNil reports whether b runs only when a parameter of fn is
// nil: if tx == nil { tx, commit, … = PrepareTx(ctx, r.pool) } uses the
// pool only for a caller that hands no transaction of its own (hatchet's
// PutPayloads), so a caller that hands one takes no second connection.
func onlyWhenHandedNil(fn *ssa.Function, b *ssa.BasicBlock) bool {
	for _, cb := range fn.Blocks {
		cond, ok := lastIf(cb)
		if !ok {
			continue
		}
		bin, ok := cond.(*ssa.BinOp)
		if !ok || bin.Op != token.EQL && bin.Op != token.NEQ {
			continue
		}
		if _, isParam := bin.X.(*ssa.Parameter); !isParam || !ssautil.IsNil(bin.Y) {
			continue
		}
		whenNil := cb.Succs[0]
		if bin.Op == token.NEQ {
			whenNil = cb.Succs[1]
		}
		if len(whenNil.Preds) == 1 && whenNil.Dominates(b) {
			return true
		}
	}
	return false
}

// queriedHandle is a handle a call makes a round trip through, and how.
type queriedHandle struct {
	handle ssa.Value
	path   []string
	inner  *queriesPool // a callee's own pool, when the handle is not an argument
}

// queriedHandles are the handles common makes a database round trip
// through: the root of a finisher's chain (s.db.NewSelect().Where(…).Scan),
// the arguments a callee queries (queriesParam), and a callee's own pool.
func (c *checker) queriedHandles(common *ssa.CallCommon) []queriedHandle {
	var out []queriedHandle
	if fn := calleeFunc(common); fn != nil && catalog.IsDatabaseWait(fn) {
		out = append(out, queriedHandle{handle: chainRoot(common, fn.Pkg()), path: []string{callName(common)}})
	}
	callee := common.StaticCallee()
	if callee == nil {
		return out
	}
	if q := c.paramQueriesOf(callee); q != nil {
		for _, i := range q.Params {
			if i < len(common.Args) {
				out = append(out, queriedHandle{handle: common.Args[i], path: prependPath(callName(common), q.Path)})
			}
		}
	}
	if q := c.poolQueriesOf(callee); q != nil {
		if p := handedHandle(common); p != nil {
			out = append(out, queriedHandle{handle: p, path: prependPath(callName(common), q.Path)})
		} else {
			out = append(out, queriedHandle{inner: q, path: prependPath(callName(common), q.Path)})
		}
	}
	return out
}

// handedHandle is the database handle its caller was handed that common,
// a method call, is called on a value made from by calls
// (tx.Model(v).Association("Tags"), in a helper handed tx *gorm.DB), or
// nil: the method's own pool field is that handle, the caller's
// parameter, not a pool of the caller's own. A service handed in
// (store.InTx(…), whose field is its pool) is not a database handle.
func handedHandle(common *ssa.CallCommon) *ssa.Parameter {
	callee := common.StaticCallee()
	if callee == nil || callee.Signature.Recv() == nil || len(common.Args) == 0 {
		return nil
	}
	made, ok := common.Args[0].(*ssa.Call)
	if !ok {
		return nil
	}
	if p := handleParam(made, 8); p != nil && catalog.ResourceTypes[catalog.TypeKey(p.Type())] == "database pool" {
		return p
	}
	return nil
}

// handleParam is the parameter v is made from through calls on it or with
// it (db.Model(v).Association(c): db), within depth steps, or nil.
func handleParam(v ssa.Value, depth int) *ssa.Parameter {
	if depth == 0 {
		return nil
	}
	switch v := v.(type) {
	case *ssa.Parameter:
		return v
	case *ssa.Extract:
		return handleParam(v.Tuple, depth-1)
	case *ssa.Call:
		for _, a := range v.Call.Args {
			if p := handleParam(a, depth-1); p != nil {
				return p
			}
		}
	}
	return nil
}

// recordQuery adds h, queried by the call at pos, to fn's entries; it
// reports whether it was new.
func (c *checker) recordQuery(fn *ssa.Function, h queriedHandle, pos token.Pos) bool {
	if h.inner != nil {
		if c.poolQueries[fn] != nil {
			return false
		}
		c.poolQueries[fn] = &queriesPool{Pool: h.inner.Pool, Name: h.inner.Name, Path: h.path}
		c.queriedAt(fn)[0] = pos
		return true
	}
	v := ssautil.SameValue(h.handle)
	if p, ok := v.(*ssa.Parameter); ok {
		i := slices.Index(fn.Params, p)
		q := c.paramQueries[fn]
		if i < 0 || q != nil && slices.Contains(q.Params, i) {
			return false
		}
		if q == nil {
			q = &queriesParam{Path: h.path}
			c.paramQueries[fn] = q
			c.queriedAt(fn)[1] = pos
		}
		q.Params = append(q.Params, i)
		return true
	}
	key, name := poolKey(v)
	if key == "" || c.poolQueries[fn] != nil {
		return false
	}
	c.poolQueries[fn] = &queriesPool{Pool: key, Name: name, Path: h.path}
	c.queriedAt(fn)[0] = pos
	return true
}

// queriedAt is where fn's round trips start: through a pool of its own
// (0), through a handle it is handed (1).
func (c *checker) queriedAt(fn *ssa.Function) *[2]token.Pos {
	if c.queryAt[fn] == nil {
		c.queryAt[fn] = new([2]token.Pos)
	}
	return c.queryAt[fn]
}

// chainRoot is the handle a finisher's chain starts from: through the
// calls of the finisher's own package on the value before it
// (db.NewSelect().Model(e).Where(…).Scan(ctx): db).
func chainRoot(common *ssa.CallCommon, lib *types.Package) ssa.Value {
	v := ssautil.Receiver(common)
	if common.IsInvoke() {
		v = common.Value
	}
	for range 32 {
		call, ok := ssautil.SameValue(v).(*ssa.Call)
		if !ok {
			break
		}
		fn := calleeFunc(call.Common())
		if fn == nil || fn.Pkg() != lib || fn.Signature().Recv() == nil {
			break
		}
		v = ssautil.Receiver(call.Common())
		if call.Common().IsInvoke() {
			v = call.Common().Value
		}
	}
	return v
}

// poolKey names the pool v loads from a field or a package variable of a
// database pool type (catalog.ResourceTypes), as poolOf's field and global
// do; "" for anything else (a transaction kept in a struct is no pool).
func poolKey(v ssa.Value) (key, name string) {
	if v == nil || catalog.ResourceTypes[catalog.TypeKey(v.Type())] != "database pool" {
		return "", ""
	}
	id := poolOf(v)
	if key = keyOf(id); key == "" {
		return "", ""
	}
	return key, id.short
}

// keyOf names a field's or a package variable's pool; "" for another
// handle (a parameter).
func keyOf(id poolID) string {
	switch {
	case id.field != "":
		return id.field
	case id.global != nil:
		return id.global.Pkg.Pkg.Path() + "." + id.global.Name()
	}
	return ""
}

func (c *checker) poolQueriesOf(callee *ssa.Function) *queriesPool {
	callee = origin(callee)
	if q, ok := c.poolQueries[callee]; ok {
		return q
	}
	obj := calleeObject(callee)
	if obj == nil || obj.Pkg() == nil || obj.Pkg() == c.pass.Pkg {
		return nil
	}
	var fact queriesPool
	if c.pass.ImportObjectFact(obj, &fact) {
		return &fact
	}
	return nil
}

func (c *checker) paramQueriesOf(callee *ssa.Function) *queriesParam {
	callee = origin(callee)
	if q, ok := c.paramQueries[callee]; ok {
		return q
	}
	obj := calleeObject(callee)
	if obj == nil || obj.Pkg() == nil || obj.Pkg() == c.pass.Pkg {
		return nil
	}
	var fact queriesParam
	if c.pass.ImportObjectFact(obj, &fact) {
		return &fact
	}
	return nil
}

// queryWait is the wait a call makes while acq is held (nil in a
// callback) by querying a pool through a helper: one it queries itself
// (queriesPool), or one handed to it (queriesParam) that is not the held
// value.
func (c *checker) queryWait(common *ssa.CallCommon, acq *acquisition) (waitOn, bool) {
	callee := common.StaticCallee()
	if callee == nil {
		return waitOn{}, false
	}
	// In a helper of this package, the call that starts the round trip is
	// the line a user changes (dao.GetByName(ctx, s.db, …) where the
	// transaction was handed): related information.
	var at [2]token.Pos
	if local := c.queryAt[origin(callee)]; local != nil {
		at = *local
	}
	if q := c.poolQueriesOf(callee); q != nil {
		w := c.poolWait(acq, q.Pool, q.Name, prependPath(callName(common), q.Path))
		w.at = at[0]
		return w, true
	}
	q := c.paramQueriesOf(callee)
	if q == nil {
		return waitOn{}, false
	}
	for _, i := range q.Params {
		if i >= len(common.Args) {
			continue
		}
		arg := ssautil.SameValue(common.Args[i])
		if acq != nil && acq.held[arg] {
			continue // the held transaction itself
		}
		if key, name := poolKey(arg); key != "" {
			w := c.poolWait(acq, key, name, prependPath(callName(common), q.Path))
			w.at = at[1]
			return w, true
		}
	}
	return waitOn{}, false
}

// poolWait is a wait for a connection of the pool named key: the held
// value's own pool, or another.
func (c *checker) poolWait(acq *acquisition, key, name string, path []string) waitOn {
	if acq != nil && keyOf(acq.pool) == key {
		return waitOn{kind: samePool, path: path, what: name}
	}
	return waitOn{kind: otherPool, path: path, what: name}
}

// calleeFunc is the function or method common calls, static or through an
// interface.
func calleeFunc(common *ssa.CallCommon) *types.Func {
	if common.IsInvoke() {
		return common.Method
	}
	if callee := common.StaticCallee(); callee != nil {
		return calleeObject(callee)
	}
	return nil
}
