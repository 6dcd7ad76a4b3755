package heldconn

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/netio"
	"github.com/bhlint/bhlint/internal/pkgscope"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// What a held connection can wait on besides itself: the network, another
// process, or another connection — of another pool, or a second one of its
// own pool, which deadlocks the pool once every connection is held by a
// caller waiting for a second.

type waitKind int

const (
	network        waitKind = iota
	subprocess              // os/exec: the process runs as long as it likes
	otherPool               // an acquire on a different pool handle
	samePool                // an acquire on the pool the held connection came from
	poolStmt                // a statement prepared on a pool, not on the held transaction
	outsideSession          // a document store's operation handed another context than its transaction's
)

// waitOn is one wait met while holding.
type waitOn struct {
	kind waitKind
	path []string
	// what: for the connection waits, the pool or statement as the user wrote it.
	what string
	// at: for a network wait through a function of the module, the call in
	// it that reaches the network (the line a user moves out of the
	// transaction), or token.NoPos.
	at token.Pos
	// secondAt: the line in the same helper that also takes a second
	// connection (a lookup on s.db where the transaction was handed), shown
	// beside the network wait the finding names: both lines are to change.
	secondAt   token.Pos
	secondWhat string
}

// waitIn classifies a call made while holding acq (nil inside a callback,
// where the held value is not in hand).
func (c *checker) waitIn(common *ssa.CallCommon, acq *acquisition) (waitOn, bool) {
	if w, ok := c.networkOrSubprocess(common); ok {
		if q, ok := c.queryWait(common, acq); ok && q.at.IsValid() && q.at != w.at {
			w.secondAt, w.secondWhat = q.at, q.what
		}
		return w, true
	}
	if common.IsInvoke() {
		return c.interfaceWait(common.Method)
	}
	callee := common.StaticCallee()
	if callee == nil {
		return waitOn{}, false
	}
	obj := calleeObject(callee)
	if obj == nil {
		return waitOn{}, false
	}
	if catalog.PoolAcquires.Has(obj) || c.extraPools.Has(obj) {
		other := poolOf(ssautil.Receiver(common))
		if other.isZero() {
			return waitOn{}, false
		}
		path := []string{callName(common)}
		switch {
		case acq == nil:
			return waitOn{kind: otherPool, path: path, what: other.name()}, true
		case acq.pool.isZero():
			return waitOn{}, false
		case other == acq.pool:
			return waitOn{kind: samePool, path: path, what: other.name()}, true
		default:
			return waitOn{kind: otherPool, path: path, what: other.name()}, true
		}
	}
	if catalog.StmtExecs.Has(obj) {
		if what, _, ok := stmtOnPool(ssautil.Receiver(common)); ok {
			return waitOn{kind: poolStmt, path: []string{callName(common)}, what: what}, true
		}
		return waitOn{}, false
	}
	params, via := c.stmtParamsOf(callee)
	for _, i := range params {
		if i >= len(common.Args) {
			continue
		}
		if what, _, ok := stmtOnPool(common.Args[i]); ok {
			return waitOn{kind: poolStmt, path: prependPath(callName(common), via), what: what}, true
		}
	}
	return c.queryWait(common, acq)
}

// ---- subprocesses ----

func (c *checker) subprocessCall(common *ssa.CallCommon) []string {
	if common.IsInvoke() {
		return nil
	}
	callee := common.StaticCallee()
	if callee == nil {
		return nil
	}
	return c.subprocessFunc(callee)
}

func (c *checker) subprocessFunc(fn *ssa.Function) []string {
	fn = origin(fn)
	obj := calleeObject(fn)
	if obj != nil {
		if catalog.Subprocesses.Has(obj) {
			return []string{netio.Name(obj)}
		}
		if obj.Pkg() != nil && obj.Pkg() != c.pass.Pkg {
			var fact waitsOnSubprocess
			if c.pass.ImportObjectFact(obj, &fact) {
				return prependPath(netio.Name(obj), fact.Path)
			}
			return nil
		}
	}
	if path, ok := c.subproc[fn]; ok {
		name := fn.Name()
		if obj != nil {
			name = netio.Name(obj)
		}
		return prependPath(name, path)
	}
	return nil
}

// usesSubprocess reports whether the package names a subprocess wait or a
// function another package found to wait on one, so that a package that
// names none needs no SSA for them.
func (c *checker) usesSubprocess() bool {
	return pkgscope.UsesFunc(c.pass.TypesInfo, func(fn *types.Func) bool {
		o := fn.Origin()
		return catalog.Subprocesses.Has(fn) ||
			o.Pkg() != nil && o.Pkg() != c.pass.Pkg && c.pass.ImportObjectFact(o, new(waitsOnSubprocess))
	})
}

// learnSubprocesses finds the functions that wait on a subprocess through
// static calls (not in a goroutine), to a fixed point, and exports them.
func (c *checker) learnSubprocesses(funcs []*ssa.Function) {
	if !c.usesSubprocess() {
		return
	}
	for changed := true; changed; {
		changed = false
		for _, fn := range funcs {
			if _, done := c.subproc[fn]; done {
				continue
			}
			if path := c.directSubprocess(fn); path != nil {
				c.subproc[fn] = path
				changed = true
			}
		}
	}
	for fn, path := range c.subproc {
		if obj := calleeObject(fn); obj != nil && fn.Parent() == nil {
			c.pass.ExportObjectFact(obj, &waitsOnSubprocess{Path: path})
		}
	}
}

func (c *checker) directSubprocess(fn *ssa.Function) []string {
	for common := range ssautil.WaitedCalls(fn) {
		if path := c.subprocessCall(common); path != nil {
			return path
		}
	}
	return nil
}

func prependPath(name string, path []string) []string {
	out := append([]string{name}, path...)
	if len(out) > maxVia {
		out = append(out[:1], out[len(out)-maxVia+1:]...)
	}
	return out
}

// ---- statements prepared on a pool ----

func isStmtType(t types.Type) bool {
	return slices.Contains(catalog.StmtTypes, catalog.TypeKey(t))
}

// stmtOnPool says whether v is a statement prepared on a pool: the result of
// a pool's Prepare, or one kept in a package variable or in a field of a
// struct that holds no connection (a statement prepared on a transaction
// is closed with it, so one kept beyond a function lives on a pool). A
// statement from tx.Stmt or tx.Prepare, or passed in as a parameter, is not.
func stmtOnPool(v ssa.Value) (what string, pool poolID, ok bool) {
	v = stmtBase(v)
	switch v := v.(type) {
	case *ssa.Extract:
		call, isCall := v.Tuple.(*ssa.Call)
		if !isCall || v.Index != 0 {
			return "", poolID{}, false
		}
		callee := call.Common().StaticCallee()
		if callee == nil || !catalog.PoolPrepares.Has(calleeObject(callee)) {
			return "", poolID{}, false
		}
		pool := poolOf(ssautil.Receiver(call.Common()))
		what := "a statement from " + callName(call.Common())
		if !pool.isZero() {
			what += " on " + pool.name()
		}
		return what, pool, true
	case *ssa.UnOp:
		if v.Op != token.MUL || !isStmtType(v.Type()) {
			return "", poolID{}, false
		}
		switch addr := v.X.(type) {
		case *ssa.Global:
			return "the statement " + addr.Name(), poolID{}, true
		case *ssa.FieldAddr:
			st := addr.X.Type().Underlying().(*types.Pointer).Elem()
			if holdsConnection(st) {
				return "", poolID{}, false
			}
			return "the statement in " + fieldName(st, addr.Field), poolID{}, true
		}
	}
	return "", poolID{}, false
}

// stmtBase strips the embedded *sql.Stmt of a *sqlx.Stmt (its promoted
// methods are called on the field) and conversions.
func stmtBase(v ssa.Value) ssa.Value {
	for {
		switch x := v.(type) {
		case *ssa.ChangeType:
			v = x.X
			continue
		case *ssa.UnOp:
			if addr, ok := x.X.(*ssa.FieldAddr); ok && x.Op == token.MUL && isStmtType(addr.X.Type()) {
				v = addr.X
				continue
			}
		case *ssa.Field:
			if isStmtType(x.X.Type()) {
				v = x.X
				continue
			}
		}
		return v
	}
}

// holdsConnection reports whether a struct keeps a held connection in a
// field, as a store bound to a transaction does.
func holdsConnection(t types.Type) bool {
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for f := range st.Fields() {
		if _, ok := catalog.ExactHeldKind(f.Type()); ok {
			return true
		}
	}
	return false
}

func fieldName(st types.Type, i int) string {
	name := types.TypeString(st, func(p *types.Package) string { return p.Name() })
	return name + "." + st.Underlying().(*types.Struct).Field(i).Name()
}

func (c *checker) stmtParamsOf(callee *ssa.Function) ([]int, []string) {
	callee = origin(callee)
	if params, ok := c.stmtParams[callee]; ok {
		return params, c.stmtPaths[callee]
	}
	obj := calleeObject(callee)
	if obj == nil || obj.Pkg() == nil || obj.Pkg() == c.pass.Pkg {
		return nil, nil
	}
	var fact execsStmtParam
	if c.pass.ImportObjectFact(obj, &fact) {
		return fact.Params, fact.Path
	}
	return nil, nil
}

// learnStmtParams finds the functions that execute a statement passed to
// them (models.Subscribers.LoadLists(stmt)), to a fixed point.
func (c *checker) learnStmtParams(funcs []*ssa.Function) {
	for changed := true; changed; {
		changed = false
		for _, fn := range funcs {
			if _, done := c.stmtParams[fn]; done {
				continue
			}
			var params []int
			var path []string
			for i, p := range fn.Params {
				if !isStmtType(p.Type()) {
					continue
				}
				if via := c.executesStmt(fn, p); via != nil {
					params = append(params, i)
					if path == nil {
						path = via
					}
				}
			}
			if params != nil {
				c.stmtParams[fn] = params
				c.stmtPaths[fn] = path
				changed = true
			}
		}
	}
	for fn, params := range c.stmtParams {
		if obj := calleeObject(fn); obj != nil && fn.Parent() == nil {
			c.pass.ExportObjectFact(obj, &execsStmtParam{Params: params, Path: c.stmtPaths[fn]})
		}
	}
}

// executesStmt returns the calls by which fn executes its statement
// parameter p, or nil.
func (c *checker) executesStmt(fn *ssa.Function, p *ssa.Parameter) []string {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			common := call.Common()
			callee := common.StaticCallee()
			if callee == nil {
				continue
			}
			if catalog.StmtExecs.Has(calleeObject(callee)) && stmtBase(ssautil.Receiver(common)) == p {
				return []string{callName(common)}
			}
			params, via := c.stmtParamsOf(callee)
			for _, i := range params {
				if i < len(common.Args) && stmtBase(common.Args[i]) == p {
					return prependPath(callName(common), via)
				}
			}
		}
	}
	return nil
}

// ---- messages ----

func (w waitOn) describe() string {
	switch w.kind {
	case subprocess:
		return describe(w.path) + ", which waits for a subprocess to finish"
	case samePool:
		return fmt.Sprintf("%s on %s, the pool it came from: a second connection from the same pool; "+
			"at saturation every holder waits for a second one and the pool deadlocks", describe(w.path), w.what)
	case otherPool:
		return fmt.Sprintf("%s on the pool handle %s, which waits for a connection of its own "+
			"(a second one from the same pool if %s is where this one came from)", describe(w.path), w.what, w.what)
	case outsideSession:
		return fmt.Sprintf("%s with %s, not the callback's context that carries the session: "+
			"it runs outside the transaction, on a connection of its own,", describe(w.path), w.what)
	case poolStmt:
		return fmt.Sprintf("%s on %s, prepared on the pool and not on the transaction: "+
			"it takes a second connection from the pool; at saturation every holder waits for a second one and the pool deadlocks",
			describe(w.path), w.what)
	}
	return describe(w.path) + ", which waits on the network"
}

// inCallback is describe without the network's "which waits on the
// network", which the callback message says in its own words.
func (w waitOn) inCallback() string {
	if w.kind == network {
		return describe(w.path)
	}
	return w.describe()
}

func (w waitOn) fix(acq *acquisition) string {
	if w.kind == poolStmt {
		return "run it on the transaction (tx.Stmt(stmt)), or after the transaction ends"
	}
	if w.kind == samePool {
		return "run it on the held transaction or connection, or after releasing it"
	}
	if w.kind == outsideSession {
		return "hand it the callback's context, or run it after the transaction ends"
	}
	if acq == nil {
		return "make the call before the transaction starts or after it ends, and pass the result in"
	}
	return fixFor(acq)
}

// interfaceWait resolves a call through an interface method declared in the
// analysed module (not the standard library's io.Writer and the like) to its
// visible implementations (implementationsOf). If one of them waits on the
// network or on a subprocess, through static calls here or by a fact from
// its package, the call may wait: it is reported naming that
// implementation, as a transaction helper behind an interface is followed
// to the implementation that holds. Implementations that wait on nothing (a
// fake, an in-memory store) do not make the call silent.
func (c *checker) interfaceWait(m *types.Func) (waitOn, bool) {
	if w, ok := c.ifaceWaits[m]; ok {
		return w, w.path != nil
	}
	var w waitOn
	if pkgscope.DeclaredInModule(c.pass.Module, m.Pkg()) {
		for _, impl := range c.implementationsOf(m) {
			if path := c.funcNetwork(impl); path != nil {
				w = waitOn{kind: network, path: path, at: c.moduleReachedAt(c.ssaFunc(impl))}
				break
			}
			if path := c.funcSubprocess(impl); path != nil {
				w = waitOn{kind: subprocess, path: path}
				break
			}
		}
	}
	if w.path == nil && pkgscope.DeclaredInModule(c.pass.Module, m.Pkg()) {
		// None in sight waits: one in the build may (a cache interface
		// implemented over Redis in a package the caller does not import).
		w, _ = c.waitInBuild(m)
	}
	if w.path != nil {
		w.path = append([]string{netio.Name(m) + " [implemented by " + w.path[0] + "]"}, w.path[1:]...)
	}
	c.ifaceWaits[m] = w
	return w, w.path != nil
}

// reachedAt is where the function a call reaches the network through makes
// the call that does, when that function is the module's: the callee of a
// static call, or the first visible implementation of an interface method
// that reaches it.
func (c *checker) reachedAt(common *ssa.CallCommon) token.Pos {
	if !common.IsInvoke() {
		if callee := common.StaticCallee(); callee != nil {
			return c.moduleReachedAt(callee)
		}
		// A step drawn from a list of functions: the first step's line
		// that reaches the network, the one the message names.
		for _, step := range ssautil.ListedFuncs(common.Value) {
			if at := c.moduleReachedAt(step); at.IsValid() {
				return at
			}
		}
		return token.NoPos
	}
	for _, impl := range c.implementationsOf(common.Method) {
		if at := c.moduleReachedAt(c.ssaFunc(impl)); at.IsValid() {
			return at
		}
	}
	return token.NoPos
}

func (c *checker) moduleReachedAt(fn *ssa.Function) token.Pos {
	if fn == nil || fn.Pkg == nil || !pkgscope.DeclaredInModule(c.pass.Module, fn.Pkg.Pkg) {
		return token.NoPos
	}
	return c.net.FuncReachesAt(fn)
}

// funcNetwork is the path by which the method reaches the network, as
// netio knows it (the catalogue, a fact of the method's package, or this
// package's SSA).
func (c *checker) funcNetwork(obj *types.Func) []string {
	if fn := c.ssaFunc(obj); fn != nil {
		return c.net.FuncReaches(fn) // the catalogue, netio's fact, or this package's
	}
	return nil
}

// funcSubprocess is the path by which the method waits on a subprocess.
func (c *checker) funcSubprocess(obj *types.Func) []string {
	if catalog.Subprocesses.Has(obj) {
		return []string{netio.Name(obj)}
	}
	if obj.Pkg() != c.pass.Pkg {
		var fact waitsOnSubprocess
		if obj.Pkg() != nil && c.pass.ImportObjectFact(obj, &fact) {
			return prependPath(netio.Name(obj), fact.Path)
		}
		return nil
	}
	if fn := c.ssaFunc(obj); fn != nil {
		return c.subprocessFunc(fn)
	}
	return nil
}

// ssaFunc is the SSA function of a function or method of this package or
// of a package it imports (created without bodies), or nil.
func (c *checker) ssaFunc(obj *types.Func) *ssa.Function {
	if c.ssaPkg == nil || obj.Pkg() == nil || c.ssaPkg.Prog.Package(obj.Pkg()) == nil {
		return nil
	}
	return c.ssaPkg.Prog.FuncValue(obj)
}

// ---- document stores' sessions ----

// outsideSession is the wait of a call in cb, a callback run inside a
// document store's transaction (MongoDB's WithTransaction), that makes a
// round trip to the store (a method of the driver's package handed a
// context first: a collection's Find, UpdateMany) with a context that does
// not come from cb's own parameters. The session rides in the context the
// callback is handed: an operation handed the request's context instead
// takes a connection of its own, outside the transaction, while the
// transaction stays open.
func (c *checker) outsideSession(cb *ssa.Function, common *ssa.CallCommon) (waitOn, bool) {
	ctx := driverOpContext(common)
	if ctx == nil || fromParams(cb, ctx, 8, true) {
		return waitOn{}, false
	}
	return waitOn{kind: outsideSession, path: []string{callName(common)}, what: sourceName(ctx)}, true
}

// driverOpContext is the context a document store's operation is handed
// (a method of the driver's package whose first parameter is a context:
// a collection's Find, UpdateMany), or nil for any other call.
func driverOpContext(common *ssa.CallCommon) ssa.Value {
	callee := common.StaticCallee()
	if callee == nil || len(common.Args) < 2 {
		return nil
	}
	obj := calleeObject(callee)
	if obj == nil || obj.Pkg() == nil || !slices.Contains(catalog.TxDocumentPackages, obj.Pkg().Path()) {
		return nil
	}
	if ctx := common.Args[1]; ssautil.IsContext(ctx.Type()) { // after the receiver
		return ctx
	}
	return nil
}

// documentTx reports whether a holder call is a document store's
// transaction (MongoDB's WithTransaction).
func documentTx(common *ssa.CallCommon) bool {
	fn := calleeFunc(common)
	return fn != nil && fn.Pkg() != nil && slices.Contains(catalog.TxDocumentPackages, fn.Pkg().Path())
}

// firstSessionOp is the position of the first operation of cb handed
// cb's own context, or token.NoPos. A MongoDB transaction starts on the
// server with its first operation in the session: before it, and in a
// callback that hands its context to none (every write handed the
// request's ctx: a transaction in name only), nothing is held.
func firstSessionOp(cb *ssa.Function) token.Pos {
	first := token.NoPos
	for _, b := range cb.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			if ctx := driverOpContext(call.Common()); ctx != nil && fromParams(cb, ctx, 8, false) {
				if !first.IsValid() || call.Pos() < first {
					first = call.Pos()
				}
			}
		}
	}
	return first
}

// sourceName names v as the source does: the variable a load or a
// conversion reads, a call's callee (context.Background()).
func sourceName(v ssa.Value) string {
	v = ssautil.SameValue(v)
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		v = ssautil.SameValue(load.X) // a captured variable's cell
	}
	if call, ok := v.(*ssa.Call); ok {
		return callName(&call.Call) + "()"
	}
	return v.Name()
}

// fromParams reports whether v is one of fn's parameters, or computed from
// one (context.WithTimeout(sessCtx, d), tx.Model(v), an interface
// conversion), within depth steps; a value of unknown origin (a phi, a
// field's load) counts as unknown. A captured variable, a global or a
// constant is not from the parameters.
func fromParams(fn *ssa.Function, v ssa.Value, depth int, unknown bool) bool {
	if depth == 0 {
		return unknown
	}
	switch v := v.(type) {
	case *ssa.Parameter:
		return v.Parent() == fn
	case *ssa.FreeVar, *ssa.Global, *ssa.Const:
		return false
	case *ssa.MakeInterface:
		return fromParams(fn, v.X, depth-1, unknown)
	case *ssa.ChangeInterface:
		return fromParams(fn, v.X, depth-1, unknown)
	case *ssa.TypeAssert:
		return fromParams(fn, v.X, depth-1, unknown)
	case *ssa.Extract:
		return fromParams(fn, v.Tuple, depth-1, unknown)
	case *ssa.UnOp:
		return fromParams(fn, v.X, depth-1, unknown)
	case *ssa.Call:
		for _, a := range v.Call.Args {
			if fromParams(fn, a, depth-1, unknown) {
				return true
			}
		}
		return v.Call.IsInvoke() && fromParams(fn, v.Call.Value, depth-1, unknown)
	}
	return unknown
}
