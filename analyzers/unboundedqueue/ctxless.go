package unboundedqueue

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/guard"
	"github.com/bhlint/bhlint/internal/netio"
	"github.com/bhlint/bhlint/internal/pkgscope"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// waitsNoContext marks a function that waits for a pool slot with no
// context where no context could reach the wait: a database/sql method
// without the Context suffix (s.db.Begin()), or an ORM round trip on a
// handle with none attached, in a function handed no context, itself or
// through the functions it calls (to a fixed point, across packages), and
// an interface method of this package one of whose implementations here
// or in a package it imports does (gatus's store.Store, filled by the SQL
// store). Per-request is whatever an entry point reaches: a request's
// path that calls it waits for as long as the pool stays full, and no
// deadline of the request's can end the wait (shape 4). So does a wait that
// ignores the context its function was handed (Handed): being handed one
// does not make a function part of a request — a worker's loop hands its
// own down too — so it is reported where a request reaches it, as a wait
// in a function handed none; only the request's own function (one that
// takes the request, or a gRPC method) reports it where it is.
type waitsNoContext struct {
	Waits []waitAt
}

// waitAt is one wait: where it is and what it calls.
type waitAt struct {
	File      string
	Line, Col int
	Call, In  string // the wait ((*sql.DB).Begin) and the function it is in
	// InDependency: the wait lies in a dependency's code (go-gorp's
	// DbMap.Begin), which the user cannot change; the program's line is its
	// call into the dependency, where the wait moves when a function of the
	// module calls it (waitsAtCall).
	InDependency bool
	// IntoDependency: the wait is the module's call of a dependency's
	// function that waits inside (waitsAtCall).
	IntoDependency bool
	// Pending: an IntoDependency wait of a request's path in a package that
	// neither gives a pool a maximum nor imports one that does; it is
	// reported by a package of the program that does (pendingWaits).
	Pending bool
	// Handed: the context parameter the function was handed and the wait
	// ignores ("" when it was handed none), and Fix, how to give the wait
	// that context.
	Handed, Fix string
	// Root: the wait is handed a context from this function
	// (context.Background) that has no deadline, in a function that is no
	// request's own; NeedsMax: it is on a database/sql pool or a wrapper,
	// which queues callers only where a maximum is known.
	Root     string
	NeedsMax bool
	// ViaParam: the wait is an ORM round trip on the handle the function's
	// parameter ViaParam-1 brings, none of whose builders attach a context
	// (tekton's getRecord(txn *gorm.DB, …) running txn.Where(…).First(…)):
	// each caller's argument decides it (paramWaitsAtCall).
	ViaParam int
}

// maxNoContextWaits caps the waits a fact carries. A request's path
// reports the waits of the functions it calls as their facts carry them,
// so a wait the cap leaves out is a finding lost: mailpit's storage
// functions reach more than four each (their own waits with a context from
// context.TODO(), then their callees' with none).
const maxNoContextWaits = 16

func (*waitsNoContext) AFact() {}

func (f *waitsNoContext) String() string {
	if len(f.Waits) == 0 {
		return "waitsNoContext()"
	}
	w := f.Waits[0]
	more := ""
	if len(f.Waits) > 1 {
		more = fmt.Sprintf(" +%d", len(f.Waits)-1)
	}
	return "waitsNoContext(" + w.Call + " in " + w.In + more + ")"
}

// learnNoContextWaiters exports waitsNoContext for the package's functions
// and interface methods, and anchors each wait's line: a package whose
// request path reaches it reports the finding there.
func (c *checker) learnNoContextWaiters() {
	if c.poolsLimitedHere() {
		c.pass.ExportPackageFact(&limitsPools{})
	}
	c.noCtxWaits = map[*types.Func][]waitAt{}
	decls := slices.DeleteFunc(c.funcDecls(false), func(d funcDecl) bool { return onHeldConnection(d.obj) })
	own := map[*types.Func][]waitAt{}
	for _, d := range decls {
		guard.At(d.fd.Pos(), func() { own[d.obj] = c.ownNoContextWaits(d.fd) })
	}
	for changed := true; changed; {
		changed = false
		for _, d := range decls {
			// Its own waits first, then its callees': a function that
			// waits itself also reaches what it calls (oneapi's
			// RecordConsumeLog inserts with no context and, before that,
			// looks the user up with none in GetUsernameById).
			if len(c.noCtxWaits[d.obj]) >= maxNoContextWaits {
				continue
			}
			waits := slices.Clone(own[d.obj])
			guard.At(d.fd.Pos(), func() { waits = appendWaits(waits, c.calledNoContextWaits(d.fd)) })
			if len(waits) > len(c.noCtxWaits[d.obj]) {
				c.noCtxWaits[d.obj] = waits
				changed = true
			}
		}
		// A function that calls an interface method waits when an
		// implementation does (zesty's provider calling its DB interface,
		// which go-gorp's DbMap implements): again until nothing changes.
		changed = c.learnInterfaceWaiters() || changed
	}
	for obj, waits := range c.noCtxWaits {
		if obj.Pkg() == c.pass.Pkg { // an embedded interface's methods are its package's
			c.pass.ExportObjectFact(obj, &waitsNoContext{Waits: waits})
		}
	}
	for _, waits := range own {
		for _, w := range waits {
			guard.Anchor(c.pass, c.waitPos(w))
		}
	}
}

// onHeldConnection: fn is a method of a transaction or a connection, or of
// a type that embeds one (sqlx's Tx embeds *sql.Tx). What it runs goes over
// the connection it holds, so it waits for no slot, whatever the functions
// it shares with the pool's methods do: sqlx's Tx.Select calls the
// package's Select, which the pool's Select calls too.
func onHeldConnection(fn *types.Func) bool {
	recv := fn.Signature().Recv()
	if recv == nil {
		return false
	}
	t := recv.Type()
	if _, ok := catalog.ExactHeldKind(t); ok {
		return true
	}
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for f := range st.Fields() {
		if _, held := catalog.ExactHeldKind(f.Type()); held && f.Embedded() {
			return true
		}
	}
	return false
}

// ownNoContextWaits are the waits in fd's own body (not in its function
// literals, which may run later) that no context reaches: fd runs after
// start-up, the pool is shared, and fd is handed no context and this
// package or one it imports gives a pool a maximum (limitsPools), or fd is
// handed one that the wait ignores and fd is not a request's own function
// (checkWaits reports those where they are). The maximum such a wait needs
// is decided where a request reaches it (emitOrPend).
func (c *checker) ownNoContextWaits(fd *ast.FuncDecl) []waitAt {
	if fd.Recv == nil && (fd.Name.Name == "main" || fd.Name.Name == "init") {
		return nil
	}
	handed := c.contextParam(fd)
	// A wait that ignores a handed context is reported where it is in a
	// request's own function (checkWaits). A wait for a slot needs a
	// maximum: a store whose pool has none opens a connection per caller
	// instead of queueing them (what it lacks is its maximum, reported
	// where the pool is opened). A library never sets one: the program that
	// calls it does, and decides at its call (waitsAtCall).
	// A package that opens no pool of its own waits on the pool the program
	// hands it (a store built on main's *sql.DB): its maximum is the
	// program's, and the wait is kept for the first package on the
	// imports' way that knows one (NeedsMax).
	handedPool := handed == nil && !c.poolsLimitedHere() && !c.dependency && c.opensNoPool()
	contextless := !(handed != nil && c.judgedWhereItIs(fd)) &&
		(handed != nil || c.poolsLimitedHere() || c.dependency || handedPool)
	// A wait with a context from Background() is the program's to judge (a
	// dependency's is its own business, as checkWaits never sees it), here
	// when fd is a request's own function (checkWaits), else where a request
	// reaches it; asked of the first such wait only.
	var rootedHere *bool
	var out []waitAt
	ast.PreorderStack(fd.Body, nil, func(n ast.Node, stack []ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok || len(out) == maxNoContextWaits {
			return false
		}
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		fix := ""
		if contextless {
			fix = c.contextlessWait(fd, call)
		}
		if fix == "" && handed == nil && !c.dependency {
			if i := c.paramHandleWait(fd, call); i >= 0 {
				w := c.waitAtCall(fd, call)
				w.ViaParam, w.NeedsMax = i+1, !c.poolsLimitedHere()
				out = append(out, w)
				return true
			}
		}
		if fix != "" {
			if c.onUnsharedPool(fd, call, stack) || c.onUnlimitedEmbeddedPool(call) {
				return true
			}
			w := c.waitAtCall(fd, call)
			if handed != nil {
				w.Handed, w.Fix = handed.Name(), fix
			}
			w.NeedsMax = handedPool
			out = append(out, w)
			return true
		}
		if c.dependency {
			return true
		}
		rw := c.rootedWaitOf(fd, call, stack)
		if rw == nil {
			return true
		}
		if rootedHere == nil {
			here := c.rootedWaitJudgedHere(fd, handed, nil)
			rootedHere = &here
		}
		if !*rootedHere {
			w := c.waitAtCall(fd, call)
			w.Root, w.NeedsMax = c.calleeName(rw.root), rw.needsMax
			if rw.fwd != nil {
				w.Call += " → " + rw.fwd.Via
			}
			out = append(out, w)
		}
		return true
	})
	// Asked last: learning which functions set up the schema reads every
	// expression of the package, and most functions have no wait to judge.
	if len(out) > 0 && c.setsUpSchema(fd) {
		return nil
	}
	return out
}

// opensNoPool reports whether no function of the package opens a pool
// (sql.Open, gorm.Open, a pool wrapper's opener): whatever pool it waits on,
// the program handed it.
func (c *checker) opensNoPool() bool {
	if c.noPoolOpened == nil {
		none := !pkgscope.UsesFunc(c.pass.TypesInfo, opensPool)
		c.noPoolOpened = &none
	}
	return *c.noPoolOpened
}

// waitAtCall is the wait call makes in fd, as a fact carries it.
func (c *checker) waitAtCall(fd *ast.FuncDecl, call *ast.CallExpr) waitAt {
	p := c.pass.Fset.Position(call.Pos())
	return waitAt{File: p.Filename, Line: p.Line, Col: p.Column, Call: c.calleeName(call), In: funcName(fd), InDependency: c.dependency}
}

// calledNoContextWaits are the waits of the functions fd's own body calls,
// and of those the goroutines it starts there call (go func() { … }()):
// such a goroutine runs on every call, on the caller's behalf, and a
// request that reaches fd starts one more that waits (indigo's
// subscribeRepos, whose EventManager.Subscribe plays the history back in
// a goroutine, on the metadata pool). Not the waits of its other function
// literals, which may run later or never.
func (c *checker) calledNoContextWaits(fd *ast.FuncDecl) []waitAt {
	var out []waitAt
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		if len(out) >= maxNoContextWaits {
			return false
		}
		switch n := n.(type) {
		case *ast.GoStmt:
			if lit, ok := ast.Unparen(n.Call.Fun).(*ast.FuncLit); ok {
				for _, arg := range n.Call.Args {
					ast.Inspect(arg, visit)
				}
				ast.Inspect(lit.Body, visit)
				return false
			}
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if fn := c.callee(n); fn != nil {
				out = appendWaits(out, c.waitsAtCall(fd, n, c.paramWaitsAtCall(fd, n, c.noContextWaitsOf(fn))))
			}
		}
		return true
	}
	ast.Inspect(fd.Body, visit)
	return out
}

// waitsAtCall is the waits of call's callee as the program sees them from
// fd (intoDependency).
func (c *checker) waitsAtCall(fd *ast.FuncDecl, call *ast.CallExpr, waits []waitAt) []waitAt {
	return c.intoDependency(waits, call.Pos(), c.calleeName(call), funcName(fd), false)
}

// intoDependency is waits as the module's code sees them at a call (at pos,
// of name, in the function in): a dependency's waits, called from the
// module, are one wait at the call, the line the program can change
// (utask's handlers calling zesty's Tx, which reaches go-gorp's contextless
// Begin), if this package or one it imports gives a pool a maximum;
// without one nothing queues for a slot. From a dependency's code they
// stay where they are.
func (c *checker) intoDependency(waits []waitAt, pos token.Pos, name, in string, keepPending bool) []waitAt {
	inner := slices.IndexFunc(waits, func(w waitAt) bool { return w.InDependency })
	if c.dependency || inner < 0 {
		return waits
	}
	out := slices.DeleteFunc(slices.Clone(waits), func(w waitAt) bool { return w.InDependency })
	if !c.poolsLimitedHere() && !keepPending {
		return out
	}
	p := c.pass.Fset.Position(pos)
	at := waitAt{File: p.Filename, Line: p.Line, Col: p.Column, Call: name + " (" + waits[inner].Call + " inside it)", In: in,
		IntoDependency: true, Pending: !c.poolsLimitedHere()}
	return appendWaits([]waitAt{at}, out)
}

// learnInterfaceWaiters gives each method this package's interfaces declare
// (not those they embed: another package's objects) the
// waits of its implementations among the named types of this package and
// of those it imports: where a call through the interface is made, the
// implementing package may not be visible. It reports whether a method
// gained a wait.
func (c *checker) learnInterfaceWaiters() (changed bool) {
	if c.ifaceImpls == nil {
		c.ifaceImpls = c.localInterfaceImpls()
	}
	for _, mi := range c.ifaceImpls {
		if waits := c.noContextWaitsOf(mi.Impl); len(waits) > 0 {
			before := len(c.noCtxWaits[mi.Method])
			c.noCtxWaits[mi.Method] = appendWaits(c.noCtxWaits[mi.Method], waits)
			changed = changed || len(c.noCtxWaits[mi.Method]) > before
		}
	}
	return changed
}

// localInterfaceImpls pairs the explicit methods of this package's
// interfaces with their implementations among the named types of this
// package and of those it imports (ssautil.LocalImplementations looks at this
// package's only).
func (c *checker) localInterfaceImpls() []ssautil.MethodImplementation {
	var impls []types.Type
	for _, pkg := range append([]*types.Package{c.pass.Pkg}, c.pass.Pkg.Imports()...) {
		for _, name := range pkg.Scope().Names() {
			if tn, ok := pkg.Scope().Lookup(name).(*types.TypeName); ok && !tn.IsAlias() && !types.IsInterface(tn.Type()) {
				impls = append(impls, tn.Type())
			}
		}
	}
	out := []ssautil.MethodImplementation{}
	scope := c.pass.Pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok {
			continue
		}
		iface, ok := tn.Type().Underlying().(*types.Interface)
		if !ok || iface.NumMethods() == 0 {
			continue
		}
		for _, t := range impls {
			ptr := types.NewPointer(t)
			if !types.Implements(ptr, iface) {
				continue
			}
			for m := range iface.ExplicitMethods() {
				obj, _, _ := types.LookupFieldOrMethod(ptr, true, m.Pkg(), m.Name())
				if impl, ok := obj.(*types.Func); ok {
					out = append(out, ssautil.MethodImplementation{Method: m, Impl: impl})
				}
			}
		}
	}
	return out
}

// noContextWaitsOf is fn's waits, this package's or its fact's.
func (c *checker) noContextWaitsOf(fn *types.Func) []waitAt {
	fn = fn.Origin()
	if waits, ok := c.noCtxWaits[fn]; ok || fn.Pkg() == c.pass.Pkg {
		return waits
	}
	var f waitsNoContext
	if fn.Pkg() != nil && c.pass.ImportObjectFact(fn, &f) {
		return f.Waits
	}
	return nil
}

func appendWaits(to, more []waitAt) []waitAt {
	for _, w := range more {
		if len(to) == maxNoContextWaits {
			break
		}
		if !slices.Contains(to, w) {
			to = append(to, w)
		}
	}
	return to
}

// waitPos is where a wait is in this pass's file set: exact in this
// package's files, the start of its line in another package's.
func (c *checker) waitPos(w waitAt) token.Pos {
	pos := ssautil.LinePos(c.pass.Fset, w.File, w.Line)
	if ssautil.FileAt(c.pass.Files, pos) != nil {
		return pos + token.Pos(max(w.Col-1, 0))
	}
	return pos
}

// judgedWhereItIs reports whether a wait that ignores the context fd was
// handed is reported in fd, where it is, rather than where a request
// reaches it: fd is the request's own function (it takes the request, or
// has a gRPC method's shape), or a request's path cannot be followed to it
// — fd is a method of an interface declared in a package this one imports,
// which callers reach through that interface without seeing this
// implementation (apache/answer's repositories, implementing the service
// layer's interfaces, wired together in main). There the handed context is
// the evidence of a request there is.
func (c *checker) judgedWhereItIs(fd *ast.FuncDecl) bool {
	return c.runsPerRequest(fd) || c.implementsImportedInterface(fd)
}

// implementsImportedInterface reports whether fd is a method that
// implements a method of an interface declared in a package of the program
// that this package imports.
func (c *checker) implementsImportedInterface(fd *ast.FuncDecl) bool {
	fn, _ := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
	if fn == nil || fn.Signature().Recv() == nil {
		return false
	}
	recv := fn.Signature().Recv().Type()
	if p, ok := recv.(*types.Pointer); ok {
		recv = p.Elem()
	}
	ptr := types.NewPointer(recv)
	for _, pkg := range c.pass.Pkg.Imports() {
		if !pkgscope.DeclaredInModule(c.pass.Module, pkg) {
			continue
		}
		for iface := range ssautil.Interfaces(pkg) {
			if declaresMethod(iface, fn.Name()) && types.Implements(ptr, iface) {
				return true
			}
		}
	}
	return false
}

func declaresMethod(iface *types.Interface, name string) bool {
	for m := range iface.Methods() {
		if m.Name() == name {
			return true
		}
	}
	return false
}

// checkRequestNoContextWaits reports each wait that no context reaches and
// that a request's path of this package calls, at the wait: a line of
// another package when the call crosses into it (the store behind an
// interface), with the call and the entry point as related information.
func (c *checker) checkRequestNoContextWaits() {
	if !c.callsNoContextWaiter() {
		return // most packages call none: no SSA for this shape
	}
	calls, frames := onRequestPath(c, func(call *ssa.Call, _ *requestFrame) bool {
		return len(c.ssaNoContextWaits(call.Common())) > 0
	})
	var starts ssautil.CallStarts
	reported := c.noContextWaitsReportedBefore()
	for _, call := range calls {
		fr := frames[call]
		for _, w := range c.requestCallWaits(call, &starts) {
			key := fmt.Sprintf("%s:%d", w.File, w.Line)
			if reported[key] || slices.Contains(c.reportedWaits, key) {
				continue // a package before this one reported it
			}
			d := c.diagnostic(c.waitPos(w), starts.Start(c.pass.Files, call.Pos()), "a request's path calls it here",
				"%s", noContextWaitMessage(w, fr.entry.RelString(c.pass.Pkg)))
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: fr.entry.Pos(), Message: "the request's entry point"})
			if w.Pending || (w.Handed != "" || w.NeedsMax) && !c.poolsLimitedHere() {
				c.pend(d)
				continue
			}
			c.reportedWaits = append(c.reportedWaits, key)
			c.emit(d)
		}
	}
}

// noContextWaitMessage says what a wait with no deadline that a request
// reaches (entry) makes the request do, and how to bound it.
func noContextWaitMessage(w waitAt, entry string) string {
	switch {
	case w.Root != "":
		return fmt.Sprintf("wait with no deadline: %s waits for a slot with a context from %s() that has no deadline, in %s, and a request reaches it (%s): "+
			"callers queue for as long as every slot stays taken; derive it with context.WithTimeout "+
			"(the lane's queue timeout) or hand the request's context down to %s",
			w.Call, w.Root, w.In, entry, w.In)
	case w.Handed != "":
		return fmt.Sprintf("wait with no deadline: %s waits for a pool slot with no context, though %s was handed one (%s), and a request reaches it (%s): "+
			"when every connection is taken, the request waits for as long as the pool stays full and cannot be cancelled; %s",
			w.Call, w.In, w.Handed, entry, w.Fix)
	case w.IntoDependency:
		return fmt.Sprintf("wait with no deadline: %s waits for a pool slot with no context, in a dependency that takes none, and a request reaches it (%s): "+
			"when every connection is taken, the request waits for as long as the pool stays full, and no deadline of the request's can end the wait; "+
			"call a variant that takes the request's context, or give the library's handle one",
			w.Call, entry)
	default:
		return fmt.Sprintf("wait with no deadline: %s waits for a pool slot with no context in %s, which is handed none, and a request reaches it (%s): "+
			"when every connection is taken, the request waits for as long as the pool stays full, and no deadline of the request's can end the wait; "+
			"hand the request's context down to %s and use the Context variant",
			w.Call, w.In, entry, w.In)
	}
}

// emitOrPend reports a wait for a pool slot where this package gives a
// pool a maximum or imports one that does, and keeps it pending for a
// package that does otherwise (a store handed its *gorm.DB by main, which
// bounds it): a wait for a slot needs a maximum, and a pool with none opens
// a connection per caller instead of queueing them.
func (c *checker) emitOrPend(d analysis.Diagnostic) {
	if c.poolsLimitedHere() {
		c.emit(d)
		return
	}
	c.pend(d)
}

// pend keeps d for a package that knows a maximum, unless it sits in test
// support code, which only this package can tell (openfga's test fixtures,
// whose functions take a *testing.T), and anchors its line for the ignores
// written there.
func (c *checker) pend(d analysis.Diagnostic) {
	if r, ok := c.keep(d); ok {
		c.pending = append(c.pending, r)
	}
}

// keep is d as a report another package can make, unless it sits in test
// support code; it anchors d's line for the ignores written there.
func (c *checker) keep(d analysis.Diagnostic) (pendingReport, bool) {
	if guard.InTestSupport(c.pass, d.Pos) {
		return pendingReport{}, false
	}
	guard.Anchor(c.pass, d.Pos)
	r := pendingReport{At: c.placeOf(d.Pos, d.Message)}
	r.Key = fmt.Sprintf("%s:%d", r.At.File, r.At.Line)
	for _, rel := range d.Related {
		r.Related = append(r.Related, c.placeOf(rel.Pos, rel.Message))
	}
	return r, true
}

// exportPending exports the findings this package keeps pending.
func (c *checker) exportPending() {
	if len(c.pending) > 0 {
		c.pass.ExportPackageFact(&pendingWaits{Reports: c.pending})
	}
}

// pendingWaits carries a package's findings of waits for a pool slot (a
// request's wait inside a dependency, a wait that ignores the context its
// function was handed) found where no maximum is known: the package
// neither gives a pool a maximum nor imports one that does (utask's
// api/handler calls zesty's Tx(), whose pool utask/db bounds; only api and
// main import utask/db). A wait for a slot needs a maximum, and the
// maximum is the program's: a package that knows one and imports this one,
// directly or not (the api, the main package), reports them, once
// (reportPendingWaits).
type pendingWaits struct{ Reports []pendingReport }

// pendingReport is a finding kept for later: its key (file:line, as
// noContextWaitsReported keeps them), its position and message, and its
// related positions.
type pendingReport struct {
	Key     string
	At      pendingPlace
	Related []pendingPlace
}

// pendingPlace is a position, kept as text for another package's file
// set, and what is said there.
type pendingPlace struct {
	File      string
	Line, Col int
	Message   string
}

func (*pendingWaits) AFact() {}

func (f *pendingWaits) String() string { return fmt.Sprintf("pendingWaits(%d)", len(f.Reports)) }

func (c *checker) placeOf(pos token.Pos, msg string) pendingPlace {
	p := c.pass.Fset.Position(pos)
	return pendingPlace{p.Filename, p.Line, p.Column, msg}
}

// placePos is a kept place's position in this pass's file set (waitPos).
func (c *checker) placePos(pl pendingPlace) token.Pos {
	return c.waitPos(waitAt{File: pl.File, Line: pl.Line, Col: pl.Col})
}

// reportPendingWaits reports, in a package that gives a pool a maximum or
// imports one that does, the pending findings of the packages it imports,
// directly or not, that no package before it reported (a dependency keeps
// none: intoDependency leaves its waits where they are).
func (c *checker) reportPendingWaits() {
	if !c.poolsLimitedHere() {
		return
	}
	reported := c.noContextWaitsReportedBefore()
	for _, pf := range c.pass.AllPackageFacts() {
		f, ok := pf.Fact.(*pendingWaits)
		if !ok || pf.Package == c.pass.Pkg {
			continue
		}
		for _, r := range f.Reports {
			if reported[r.Key] || slices.Contains(c.reportedWaits, r.Key) {
				continue
			}
			c.reportedWaits = append(c.reportedWaits, r.Key)
			d := analysis.Diagnostic{Pos: c.placePos(r.At), Message: r.At.Message}
			for _, rel := range r.Related {
				d.Related = append(d.Related, analysis.RelatedInformation{Pos: c.placePos(rel), Message: rel.Message})
			}
			c.emit(d)
		}
	}
}

// requestCallWaits is the waits of a call on a request's path, a call into
// a dependency that waits inside being one at the call (intoDependency).
func (c *checker) requestCallWaits(call *ssa.Call, starts *ssautil.CallStarts) []waitAt {
	common := call.Common()
	return c.intoDependency(c.ssaParamWaitsAtCall(call, c.ssaNoContextWaits(common)), starts.Start(c.pass.Files, call.Pos()), ssaCalleeName(common), call.Parent().Name(), true)
}

// ssaCalleeName names what a call with waits calls (it has a static callee
// or is an interface call: ssaNoContextWaits finds none otherwise).
func ssaCalleeName(common *ssa.CallCommon) string {
	if common.IsInvoke() {
		return netio.Name(common.Method)
	}
	if fn, ok := common.StaticCallee().Object().(*types.Func); ok {
		return netio.Name(fn)
	}
	return common.Description()
}

// ssaNoContextWaits is the waits of a call's callee: a function, or an
// interface method.
func (c *checker) ssaNoContextWaits(common *ssa.CallCommon) []waitAt {
	if common.IsInvoke() {
		return c.noContextWaitsOf(common.Method)
	}
	if callee := common.StaticCallee(); callee != nil {
		if obj, ok := callee.Object().(*types.Func); ok {
			return c.noContextWaitsOf(obj)
		}
	}
	return nil
}

// callsNoContextWaiter reports whether the package uses a function or
// interface method that waits with no context.
func (c *checker) callsNoContextWaiter() bool {
	return pkgscope.UsesFunc(c.pass.TypesInfo, func(fn *types.Func) bool { return len(c.noContextWaitsOf(fn)) > 0 })
}

// noContextWaitsReported carries the waits a package and those before it
// reported (checkRequestNoContextWaits): a handler package and a gRPC
// package that both reach a store's wait report it once, the first.
type noContextWaitsReported struct{ Waits []string }

func (*noContextWaitsReported) AFact() {}

func (f *noContextWaitsReported) String() string {
	return fmt.Sprintf("noContextWaitsReported(%d)", len(f.Waits))
}

// noContextWaitsReportedBefore is the waits the packages this one imports
// and those before them reported.
func (c *checker) noContextWaitsReportedBefore() map[string]bool {
	out := map[string]bool{}
	for _, imp := range c.pass.Pkg.Imports() {
		var f noContextWaitsReported
		if c.pass.ImportPackageFact(imp, &f) {
			for _, k := range f.Waits {
				out[k] = true
			}
		}
	}
	return out
}

// exportNoContextWaitsReported carries the reported waits on: this
// package's (none when it is analysed for its facts only, as its findings
// are not shown) and those before it.
func (c *checker) exportNoContextWaitsReported() {
	before := c.noContextWaitsReportedBefore()
	for _, k := range c.reportedWaits {
		before[k] = true
	}
	if len(before) == 0 {
		return
	}
	keys := make([]string, 0, len(before))
	for k := range before {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	c.pass.ExportPackageFact(&noContextWaitsReported{Waits: keys})
}

// limitsPools marks a package that gives a database pool a maximum
// (SetMaxOpenConns with a value that may be positive), or imports one that
// does: the store package whose handle another package opened and bounded
// (headscale's hscontrol/db) queues its callers.
type limitsPools struct{}

func (*limitsPools) AFact() {}

func (*limitsPools) String() string { return "limitsPools" }

// poolsLimitedHere reports whether this package or one it imports gives a
// pool a maximum.
func (c *checker) poolsLimitedHere() bool {
	if c.limitedHere == nil {
		limits := c.packageLimitsAPool()
		for _, imp := range c.pass.Pkg.Imports() {
			if limits {
				break
			}
			limits = c.pass.ImportPackageFact(imp, new(limitsPools))
		}
		c.limitedHere = &limits
	}
	return *c.limitedHere
}
