package heldconn

import (
	_ "embed"
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/docs"
	"github.com/bhlint/bhlint/internal/guard"
	"github.com/bhlint/bhlint/internal/lazyssa"
	"github.com/bhlint/bhlint/internal/netio"
	"github.com/bhlint/bhlint/internal/pkgscope"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// Code starts every message of this analyzer.
const Code = "ERR_CONN_HELD_ACROSS_NETWORK_CALL"

//go:embed doc.go
var doc string

// Analyzer reports pooled connections held across network calls.
var Analyzer = lazyssa.Budgeted(guard.Wrap(&analysis.Analyzer{
	Name:      "heldconn",
	Doc:       docs.Extract(doc, "heldconn"),
	URL:       "https://github.com/bhlint/bhlint/tree/main/analyzers/heldconn",
	Requires:  []*analysis.Analyzer{lazyssa.Analyzer, netio.Analyzer},
	FactTypes: []analysis.Fact{new(holdsDuringCallback), new(releasesParam), new(waitsOnSubprocess), new(execsStmtParam), new(queriesPool), new(queriesParam), new(endsHanded), new(implements), new(pendingCallbacks), new(callbacksReported)},
	Run:       run,
}, Code))

// holdsDuringCallback marks a function that calls the func passed as one of
// its parameters while it holds a connection, as pgx.BeginFunc does.
type holdsDuringCallback struct {
	Params []int // parameter indexes, the receiver counting as 0
	Noun   string
	// Via is the chain of helpers below this one, down to the function that
	// holds the connection, for messages.
	Via []string
}

func (*holdsDuringCallback) AFact() {}
func (f *holdsDuringCallback) String() string {
	return fmt.Sprintf("holdsDuringCallback(%v)", f.Params)
}

// releasesParam marks a function that releases the connection passed as one
// of its parameters (commits it, closes it…). Invoked names, for a parameter
// of an interface type, the releasing methods it calls on it (Scan on a
// Scannable): it releases what its caller passes when that is a method that
// releases the value's kind (a *sql.Row's Scan, not a *sql.Rows').
type releasesParam struct {
	Params  []int
	Invoked []invokedOn
}

// endsHanded marks a function that ends (commits, rolls back, closes) a
// held value it is handed rather than one it acquires: a parameter of a
// held type, or one read out of a parameter (rCtx.DBTxn.Rollback(), a
// long-poll closing the request's transaction before it waits), itself or
// through a function it calls. A handler that does so decides which of its
// waits the transaction its router holds spans.
// Nouns are the held kinds it ends (a transaction, open rows): a helper that
// scans a row it reads ends no transaction.
type endsHanded struct{ Nouns []string }

func (*endsHanded) AFact()           {}
func (f *endsHanded) String() string { return "endsHanded(" + strings.Join(f.Nouns, ", ") + ")" }

// invokedOn is the releasing methods a function calls on its parameter.
type invokedOn struct {
	Param   int
	Methods []string
}

func (*releasesParam) AFact() {}
func (f *releasesParam) String() string {
	if len(f.Invoked) == 0 {
		return fmt.Sprintf("releasesParam(%v)", f.Params)
	}
	return fmt.Sprintf("releasesParam(%v, invoked %v)", f.Params, f.Invoked)
}

// waitsOnSubprocess marks a function that starts a process and waits for it
// (os/exec), through static calls. Path is the call chain to the wait.
type waitsOnSubprocess struct{ Path []string }

func (*waitsOnSubprocess) AFact() {}
func (f *waitsOnSubprocess) String() string {
	return "waitsOnSubprocess(" + strings.Join(f.Path, " → ") + ")"
}

// execsStmtParam marks a function that executes the prepared statement
// passed as one of its parameters.
type execsStmtParam struct {
	Params []int
	Path   []string // the calls down to the statement's execution, for messages
}

func (*execsStmtParam) AFact()           {}
func (f *execsStmtParam) String() string { return fmt.Sprintf("execsStmtParam(%v)", f.Params) }

func run(pass *analysis.Pass) (any, error) {
	db := pkgscope.Reaches(pass.Pkg, catalog.DBPackages) || pkgscope.Reaches(pass.Pkg, catalog.TxDocumentPackages)
	// A package of the module that reaches the network may hand a
	// callback to a holder elsewhere (pendingCallbacks), and carries on the
	// holders its imports implement (the implements fact).
	implWaits := pkgscope.DeclaredInModule(pass.Module, pass.Pkg) && pkgscope.Reaches(pass.Pkg, catalog.NetworkPackages)
	if !db && !implWaits && !pkgscope.Reaches(pass.Pkg, catalog.SubprocessPackages) {
		return nil, nil
	}
	c := &checker{
		pass:         pass,
		net:          pass.ResultOf[netio.Analyzer].(*netio.Result),
		reported:     map[[2]token.Pos]bool{},
		holders:      map[*ssa.Function]*holdsDuringCallback{},
		holderObjs:   map[*types.Func]*holdsDuringCallback{},
		ifaceHolders: map[*types.Func]*holder{},
		ifaceWaits:   map[*types.Func]waitOn{},
		ifaceKinds:   map[*types.Named]catalog.HeldKind{},
		releasers:    map[*ssa.Function]releasesParam{},
		subproc:      map[*ssa.Function][]string{},
		stmtParams:   map[*ssa.Function][]int{},
		stmtPaths:    map[*ssa.Function][]string{},
	}
	if !db {
		// Only the subprocess facts and the module's implementations that
		// wait matter to importers that hold.
		if c.usesSubprocess() {
			c.learnSubprocesses(pass.ResultOf[lazyssa.Analyzer].(*lazyssa.Builder).SrcFuncs())
		}
		if implWaits {
			funcs := pass.ResultOf[lazyssa.Analyzer].(*lazyssa.Builder).SrcFuncs
			c.exportImplements(funcs)
			guard.At(token.NoPos, func() { c.recordPendingCallbacks(funcs()) })
		}
		return nil, nil
	}
	builder := pass.ResultOf[lazyssa.Analyzer].(*lazyssa.Builder)
	funcs := builder.SrcFuncs()
	c.ssaPkg = builder.Package()
	c.learnSubprocesses(funcs)
	c.learnStmtParams(funcs)
	c.learnPoolQueries(funcs)
	c.learnReleasers(funcs)
	c.fields = ssautil.NewFieldCallees(pass.Pkg, funcs)
	c.learnHandedEnders(funcs)
	var spans []heldSpan
	for _, fn := range funcs {
		guard.At(fn.Pos(), func() { spans = append(spans, c.spansIn(fn)...) })
	}
	c.learnHolders(funcs, spans)
	c.exportImplements(func() []*ssa.Function { return funcs })
	for _, span := range spans {
		c.reportSpan(span)
	}
	for _, fn := range funcs {
		guard.At(fn.Pos(), func() { c.checkCallbacks(fn) })
	}
	guard.At(token.NoPos, func() { c.recordPendingCallbacks(funcs) })
	guard.At(token.NoPos, func() { c.reportPendingCallbacks() })
	return nil, nil
}

type checker struct {
	pass     *analysis.Pass
	net      *netio.Result
	reported map[[2]token.Pos]bool
	holders  map[*ssa.Function]*holdsDuringCallback // this package's, by origin
	// holderObjs are the same facts by object, for interface resolution.
	holderObjs   map[*types.Func]*holdsDuringCallback
	ifaceHolders map[*types.Func]*holder           // interface methods resolved, nil when not followed
	ifaceWaits   map[*types.Func]waitOn            // interface methods resolved to a waiting implementation (path nil: none)
	ifaceKinds   map[*types.Named]catalog.HeldKind // module interfaces a held type implements (Noun "": none)
	ssaPkg       *ssa.Package
	releasers    map[*ssa.Function]releasesParam
	subproc      map[*ssa.Function][]string      // functions that wait on a subprocess, and how
	stmtParams   map[*ssa.Function][]int         // functions that execute a statement parameter
	stmtPaths    map[*ssa.Function][]string      // and the calls down to the execution
	poolQueries  map[*ssa.Function]*queriesPool  // functions that query a pool of their own
	queryAt      map[*ssa.Function]*[2]token.Pos // where each of those, and of paramQueries, starts its round trip (queriedAt)
	paramQueries map[*ssa.Function]*queriesParam // functions that query a handle they are handed
	starts       ssautil.CallStarts              // call Lparen → start of the call expression
	fields       *ssautil.FieldCallees           // what calls through the package's func fields run
	handedEnders map[*ssa.Function][]string      // this package's endsHanded functions, and the kinds they end
	// extraPools are pool acquires the project's .bhlint.yml adds.
	extraPools *catalog.Table
	built      *buildImplements // what the packages of this package's build implement (inBuild)
	exported   *implements      // this package's own implements fact (exportImplements)
}

// acquisition is a call that returns a held connection.
type acquisition struct {
	call    *ssa.Call
	kind    catalog.HeldKind
	held    map[ssa.Value]bool // the value and what aliases it
	errVal  ssa.Value          // the call's error result, if any
	closers map[ssa.Value]bool // funcs the call returns beside the held value (commit, rollback)
	pool    poolID             // the pool it came from, if known
	fn      *ssa.Function
	display string
}

// heldSpan is what one acquisition reaches before it is released.
type heldSpan struct {
	acq          *acquisition
	waits        []heldWait
	callbackArgs []int // func parameters of acq.fn called while held
}

// heldWait is a call met while holding that waits on something else.
type heldWait struct {
	call *ssa.Call
	waitOn
	// dispatch, for a wait in a function the holder runs through one of
	// its package's func fields (a router's r.handler(c, req) between
	// Begin and Commit): that call of the holder's, and the function
	// whose call waits is call.
	dispatch *dispatched
}

type dispatched struct {
	call  *ssa.Call
	field *types.Var
	fn    *ssa.Function
}

// ---- the kinds of held values ----

func heldKindOf(t types.Type) (catalog.HeldKind, bool) { return heldKindWithin(t, maxWrapping) }

// maxWrapping is how many wrappers deep a held value is looked for: a
// logging wrapper embedding sqlx's *sqlx.Tx, which embeds *sql.Tx, is two
// (chirpstack's TxLogger).
const maxWrapping = 3

// heldKindWithin is heldKindOf looking through at most depth wrappers.
func heldKindWithin(t types.Type, depth int) (catalog.HeldKind, bool) {
	if k, ok := catalog.ExactHeldKind(t); ok {
		return k, true
	}
	if depth == 0 {
		return catalog.HeldKind{}, false
	}
	// A wrapper: a (pointer to a) struct with a field of a held type, or
	// embedding another wrapper.
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return catalog.HeldKind{}, false
	}
	handle := holdsPool(st)
	for f := range st.Fields() {
		if handle && !f.Embedded() {
			continue // a pool's handle keeping a connection on the side
		}
		if k, ok := catalog.ExactHeldKind(f.Type()); ok && !handedItsHeld(t) {
			return k, true
		}
		if f.Embedded() {
			if k, ok := heldKindWithin(f.Type(), depth-1); ok && !handedItsHeld(t) {
				return k, true
			}
		}
	}
	return catalog.HeldKind{}, false
}

// holdsPool reports whether a struct has a database pool among its fields:
// it is the program's handle on that pool, and a connection it keeps in a
// named field (coroot's DB.primaryLockConn, pinned by the method that takes
// the leader's lock) is taken where its methods take it, not where the
// handle is made. A wrapper that embeds the connection (type Tx struct {
// *sql.Tx; db *sql.DB }) is the connection still.
func holdsPool(st *types.Struct) bool {
	for f := range st.Fields() {
		if catalog.ResourceNoun(f.Type()) == "database pool" {
			if _, held := catalog.ExactHeldKind(f.Type()); !held {
				return true
			}
		}
	}
	return false
}

// handedItsHeld reports whether a wrapper type has a method that takes a
// held value (backlite's TaskAddOp.Tx(tx *sql.Tx)): its caller hands it a
// transaction it already holds, to run in, so making one (client.Add(task))
// begins none.
func handedItsHeld(t types.Type) bool {
	mset := types.NewMethodSet(types.NewPointer(t))
	for i := range mset.Len() {
		params := mset.At(i).Obj().(*types.Func).Signature().Params()
		for j := range params.Len() {
			if _, ok := catalog.ExactHeldKind(params.At(j).Type()); ok {
				return true
			}
		}
	}
	return false
}

// heldInterfaceKind is the kind of a module's interface whose visible
// implementations include a held type or a wrapper of one, and which has a
// method that releases it (type Tx interface { Commit() error; … }
// implemented by a struct embedding *sql.Tx): a store's Begin that returns
// it acquires a transaction although no held type is in sight. An interface
// of one method (a closer) says too little to count.
func (c *checker) heldInterfaceKind(t types.Type) (catalog.HeldKind, bool) {
	named, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return catalog.HeldKind{}, false
	}
	iface, ok := named.Underlying().(*types.Interface)
	if !ok || iface.NumMethods() < 2 || !pkgscope.DeclaredInModule(c.pass.Module, named.Obj().Pkg()) {
		return catalog.HeldKind{}, false
	}
	if k, ok := c.ifaceKinds[named]; ok {
		return k, k.Noun != ""
	}
	var kind catalog.HeldKind
	for m := range iface.Methods() {
		if m.Name() != "Commit" && m.Name() != "Rollback" && m.Name() != "Close" && m.Name() != "Release" {
			continue
		}
		for _, impl := range c.implementationsOf(m) {
			recv := impl.Signature().Recv().Type()
			if !types.Implements(recv, iface) {
				// m may be declared by an embedded interface of one method
				// (Closer), which every closer in sight implements
				// (*sql.Conn among them): only an implementation of the
				// whole interface says what it holds.
				continue
			}
			k, ok := heldKindOf(recv)
			if !ok || !slices.Contains(k.Release, m.Name()) {
				continue
			}
			// Released by the interface's own methods of that kind.
			kind = catalog.HeldKind{Type: k.Type, Noun: k.Noun, NextReleases: k.NextReleases}
			for _, r := range k.Release {
				if obj, _, _ := types.LookupFieldOrMethod(named, false, named.Obj().Pkg(), r); obj != nil {
					kind.Release = append(kind.Release, r)
				}
			}
			break
		}
		if kind.Noun != "" {
			break
		}
	}
	c.ifaceKinds[named] = kind
	return kind, kind.Noun != ""
}

func isHeldType(t types.Type) bool {
	_, ok := heldKindOf(t)
	return ok
}

// ---- aliases ----

// aliasesOf returns v and the values that carry the same connection: phis,
// conversions, interface boxing, and loads of the fields of a wrapper.
func aliasesOf(v ssa.Value, cells bool) map[ssa.Value]bool {
	set := map[ssa.Value]bool{}
	var add func(v ssa.Value)
	add = func(v ssa.Value) {
		if set[v] {
			return
		}
		set[v] = true
		refs := v.Referrers()
		if refs == nil {
			return
		}
		for _, r := range *refs {
			switch r := r.(type) {
			case *ssa.Phi, *ssa.ChangeType, *ssa.MakeInterface, *ssa.ChangeInterface:
				add(r.(ssa.Value))
			case *ssa.TypeAssert:
				if !r.CommaOk {
					add(r)
				}
			case *ssa.Field:
				if isHeldType(r.Type()) {
					add(r)
				}
			case *ssa.FieldAddr:
				if isHeldType(r.Type().(*types.Pointer).Elem()) {
					addLoads(r, add)
				}
			case *ssa.Store:
				// A local a closure captures lives in a heap cell: rows
				// closed by defer func() { rows.Close() }() is read back
				// from it, in the function and in the closure. Only for
				// what an acquisition holds: a releaser's parameter kept
				// in a cell ((*sql.Rows).Next's, closed by a closure on
				// the last row) does not make every caller a release.
				if cell, ok := r.Addr.(*ssa.Alloc); ok && cells && cell.Heap && r.Val == v {
					addLoads(cell, add)
				}
			}
		}
	}
	add(v)
	return set
}

func addLoads(addr ssa.Value, add func(ssa.Value)) {
	refs := addr.Referrers()
	if refs == nil {
		return
	}
	for _, r := range *refs {
		if load, ok := r.(*ssa.UnOp); ok && load.Op == token.MUL {
			add(load)
		}
	}
}

// ---- releases ----

// releases reports whether instr releases a value of the set.
func (c *checker) releases(instr ssa.Instruction, held map[ssa.Value]bool, kind catalog.HeldKind) bool {
	call, ok := instr.(*ssa.Call)
	return ok && c.releasesCall(call.Common(), held, kind)
}

// releasesCall reports whether a call releases held: a release method on
// it, a catalogue function, or a function that releases its parameter.
func (c *checker) releasesCall(common *ssa.CallCommon, held map[ssa.Value]bool, kind catalog.HeldKind) bool {
	if common.IsInvoke() {
		return held[common.Value] && slices.Contains(kind.Release, common.Method.Name())
	}
	callee := common.StaticCallee()
	if callee == nil {
		return false
	}
	if obj := calleeObject(callee); obj != nil {
		if obj.Signature().Recv() != nil && len(common.Args) > 0 && held[common.Args[0]] && slices.Contains(kind.Release, obj.Name()) {
			return true
		}
		if i, ok := catalog.ReleasingFuncs[catalog.Key(obj)]; ok && i < len(common.Args) && held[common.Args[i]] {
			return true
		}
	}
	rel := c.releasedParams(callee)
	for _, i := range rel.Params {
		if i < len(common.Args) && held[common.Args[i]] {
			return true
		}
	}
	for _, inv := range rel.Invoked {
		if inv.Param < len(common.Args) && held[common.Args[inv.Param]] && slices.ContainsFunc(inv.Methods, func(m string) bool { return slices.Contains(kind.Release, m) }) {
			return true
		}
	}
	return false
}

func (c *checker) releasedParams(callee *ssa.Function) releasesParam {
	callee = origin(callee)
	if rel, ok := c.releasers[callee]; ok {
		return rel
	}
	obj := calleeObject(callee)
	if obj == nil || obj.Pkg() == c.pass.Pkg {
		return releasesParam{}
	}
	var fact releasesParam
	if c.pass.ImportObjectFact(obj, &fact) {
		return fact
	}
	return releasesParam{}
}

// learnReleasers finds the functions that release a connection passed to
// them, to a fixed point (a helper that calls a helper that commits).
func (c *checker) learnReleasers(funcs []*ssa.Function) {
	for changed := true; changed; {
		changed = false
		for _, fn := range funcs {
			if _, done := c.releasers[fn]; done {
				continue
			}
			var rel releasesParam
			for i, p := range fn.Params {
				kind, ok := heldKindOf(p.Type())
				if ok && (c.releasedSomewhere(fn, aliasesOf(p, false), kind) || drains(fn, aliasesOf(p, false), kind)) {
					rel.Params = append(rel.Params, i)
				}
				if methods := releasingInvokes(fn, p); len(methods) > 0 {
					rel.Invoked = append(rel.Invoked, invokedOn{Param: i, Methods: methods})
				}
			}
			if rel.Params != nil || rel.Invoked != nil {
				c.releasers[fn] = rel
				changed = true
				if obj := calleeObject(fn); obj != nil && fn.Parent() == nil {
					c.pass.ExportObjectFact(obj, &rel)
				}
			}
		}
	}
}

// releasingInvokes are the methods fn calls through p, a parameter of an
// interface type, whose name releases some held kind (nakama's
// parseTournament(scannable Scannable) calling Scan): which kind its caller
// passes decides whether the call releases it.
func releasingInvokes(fn *ssa.Function, p *ssa.Parameter) []string {
	if !types.IsInterface(p.Type()) {
		return nil
	}
	var out []string
	held := aliasesOf(p, false)
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok || !call.Common().IsInvoke() || !held[call.Common().Value] {
				continue
			}
			name := call.Common().Method.Name()
			if releasingName(name) && !slices.Contains(out, name) {
				out = append(out, name)
			}
		}
	}
	return out
}

// releasingName reports whether some held kind is released by a method of
// this name.
func releasingName(name string) bool {
	return slices.ContainsFunc(catalog.HeldKinds, func(k catalog.HeldKind) bool { return slices.Contains(k.Release, name) })
}

// releasedSomewhere reports whether fn releases held, by a call or by a
// deferred one: a deferred release runs before fn returns to its caller
// (nakama's parseLeaderboardRecords(rows) with its defer rows.Close()), so
// for the caller the connection is released by the call.
func (c *checker) releasedSomewhere(fn *ssa.Function, held map[ssa.Value]bool, kind catalog.HeldKind) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if d, ok := instr.(*ssa.Defer); ok && c.releasesCall(d.Common(), held, kind) || c.releases(instr, held, kind) {
				return true
			}
		}
	}
	return false
}

// drains reports whether fn reads held, rows, to their end on every path
// that returns no error: each return is reached only through the exit of a
// for held.Next() loop (the last Next, returning false, closed the rows),
// or returns a non-nil error (a failed Scan), on which its caller returns
// too (convoy's scanSubscriptions(rows), called before the count query).
func drains(fn *ssa.Function, held map[ssa.Value]bool, kind catalog.HeldKind) bool {
	if !kind.NextReleases || fn.Blocks == nil {
		return false
	}
	var exits []*ssa.BasicBlock // the blocks a false Next leads to
	for _, b := range fn.Blocks {
		if cond, ok := lastIf(b); ok {
			if call, ok := cond.(*ssa.Call); ok && isNextOn(call.Common(), held) {
				exits = append(exits, b.Succs[1])
			}
		}
	}
	if len(exits) == 0 {
		return false
	}
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		afterEnd := slices.ContainsFunc(exits, func(e *ssa.BasicBlock) bool { return e.Dominates(b) })
		if !afterEnd && !returnsFailure(fn, ret) {
			return false
		}
	}
	return true
}

// returnsFailure reports whether ret returns, as its last result, an error
// a test above it found non-nil (if err != nil { return nil, err }).
func returnsFailure(fn *ssa.Function, ret *ssa.Return) bool {
	if len(ret.Results) == 0 {
		return false
	}
	v := ret.Results[len(ret.Results)-1]
	if !ssautil.IsError(v.Type()) {
		return false
	}
	for _, b := range fn.Blocks {
		cond, ok := lastIf(b)
		if !ok {
			continue
		}
		bin, ok := cond.(*ssa.BinOp)
		if !ok || !comparesWithNil(bin, v) {
			continue
		}
		failed := b.Succs[0] // err != nil
		if bin.Op == token.EQL {
			failed = b.Succs[1]
		}
		if len(failed.Preds) == 1 && failed.Dominates(ret.Block()) {
			return true
		}
	}
	return false
}

// lastIf is the condition of the If that ends b, if one does.
func lastIf(b *ssa.BasicBlock) (ssa.Value, bool) {
	if len(b.Instrs) == 0 {
		return nil, false
	}
	i, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		return nil, false
	}
	return i.Cond, true
}

// ---- acquisitions and their spans ----

func (c *checker) acquisitionOf(fn *ssa.Function, call *ssa.Call) *acquisition {
	if acq := c.ormAcquisition(fn, call); acq != nil {
		return acq
	}
	results := call.Common().Signature().Results()
	if results.Len() == 0 {
		return nil
	}
	kind, ok := heldKindOf(results.At(0).Type())
	if !ok {
		kind, ok = c.heldInterfaceKind(results.At(0).Type())
	}
	if !ok {
		return nil
	}
	// A value derived from one already held (tx.Query, tx.Begin for a
	// savepoint) is covered by the span of the one it came from.
	for _, arg := range callArgs(call.Common()) {
		if isHeldType(arg.Type()) {
			return nil
		}
	}
	acq := &acquisition{call: call, kind: kind, fn: fn, display: callName(call.Common())}
	if results.Len() == 1 {
		acq.held = aliasesOf(call, true)
	} else {
		for _, r := range ssautil.Referrers(call) {
			if ex, ok := r.(*ssa.Extract); ok {
				switch {
				case ex.Index == 0:
					acq.held = aliasesOf(ex, true)
				case ex.Index == results.Len()-1 && ssautil.IsError(ex.Type()):
					acq.errVal = ex
				case isFunc(ex.Type()):
					if acq.closers == nil {
						acq.closers = map[ssa.Value]bool{}
					}
					acq.closers[ex] = true
				}
			}
		}
	}
	if acq.held == nil {
		return nil // result discarded
	}
	if recv := ssautil.Receiver(call.Common()); recv != nil {
		acq.pool = poolOf(recv)
	}
	return acq
}

// closedBy reports whether instr calls one of the funcs the acquiring call
// returned beside the held value: a helper that begins a transaction and
// hands back its commit and rollback (hatchet's sqlchelpers.PrepareTx:
// tx, commit, rollback, err) is released by calling them.
func (acq *acquisition) closedBy(instr ssa.Instruction) bool {
	call, ok := instr.(*ssa.Call)
	return ok && !call.Common().IsInvoke() && acq.closers[call.Common().Value]
}

func isFunc(t types.Type) bool {
	_, ok := t.Underlying().(*types.Signature)
	return ok
}

// ormAcquisition is a call of the catalogue's HeldCalls: an ORM's Begin,
// whose handle is not a held type by itself. gorm's db.Begin() holds its
// result; xorm's sess.Begin() returns only an error and holds the session it
// is called on, from the call on.
func (c *checker) ormAcquisition(fn *ssa.Function, call *ssa.Call) *acquisition {
	callee := call.Common().StaticCallee()
	if callee == nil {
		return nil
	}
	obj := calleeObject(callee)
	if obj == nil || obj.Signature().Recv() == nil {
		return nil
	}
	hc, ok := catalog.HeldCalls[catalog.Key(obj)]
	if !ok {
		return nil
	}
	recv := ssautil.Receiver(call.Common())
	if recv == nil {
		return nil
	}
	acq := &acquisition{call: call, kind: hc.HeldKind, fn: fn, display: callName(call.Common())}
	results := call.Common().Signature().Results()
	if hc.OnReceiver {
		acq.held = aliasesOf(recv, true)
		if results.Len() == 1 && ssautil.IsError(results.At(0).Type()) {
			acq.errVal = call
		}
		return acq
	}
	if results.Len() != 1 {
		return nil
	}
	acq.held = aliasesOf(call, true)
	acq.pool = poolOf(recv)
	return acq
}

func (c *checker) spansIn(fn *ssa.Function) []heldSpan {
	var spans []heldSpan
	for _, b := range fn.Blocks {
		for i, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			if acq := c.acquisitionOf(fn, call); acq != nil {
				if !lazyssa.Fits(c.pass, Code, fn) {
					return nil // reported as skipped: too large to follow every path
				}
				spans = append(spans, c.follow(acq, b, i+1))
			}
		}
	}
	return spans
}

// follow walks every control-flow path from the acquisition until a release
// and collects the network calls and callback calls met on the way.
func (c *checker) follow(acq *acquisition, start *ssa.BasicBlock, index int) heldSpan {
	span := heldSpan{acq: acq}
	type point struct {
		b     *ssa.BasicBlock
		i     int
		signs signs
	}
	visited := map[*ssa.BasicBlock]map[string]bool{}
	// visit reports whether (b, s) is new; past maxStates sign sets for b,
	// it visits b once knowing nothing, which covers every path through it.
	visit := func(b *ssa.BasicBlock, s signs) (signs, bool) {
		states := visited[b]
		if states == nil {
			states = map[string]bool{}
			visited[b] = states
		}
		if states[""] {
			return nil, false
		}
		if len(states) >= maxStates {
			s = nil
		}
		k := s.key()
		if states[k] {
			return nil, false
		}
		states[k] = true
		return s, true
	}
	work := []point{{start, index, guardSigns(start)}}
	for len(work) > 0 {
		p := work[len(work)-1]
		work = work[:len(work)-1]
		released := false
		for _, instr := range p.b.Instrs[p.i:] {
			if instr == acq.call || c.releases(instr, acq.held, acq.kind) || acq.closedBy(instr) {
				released = true
				break
			}
			if call, ok := instr.(*ssa.Call); ok {
				c.classify(acq, call, &span)
			}
		}
		if released {
			continue
		}
		for _, succ := range c.successors(acq, p.b, p.signs) {
			if s, ok := visit(succ, p.signs.enter(p.b, succ)); ok {
				work = append(work, point{succ, 0, s})
			}
		}
	}
	return span
}

// calledParam is the parameter a dynamic call runs: the parameter itself,
// or one a closure captures, which lives in a cell its function fills from
// the parameter once (dex's ExecTx(fn) calling fn on one path and capturing
// it for a closure on the other).
func calledParam(common *ssa.CallCommon) *ssa.Parameter {
	if common.IsInvoke() {
		return nil
	}
	if param, ok := common.Value.(*ssa.Parameter); ok {
		return param
	}
	load, ok := common.Value.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil
	}
	cell, ok := load.X.(*ssa.Alloc)
	if !ok {
		return nil
	}
	var param *ssa.Parameter
	for _, r := range ssautil.Referrers(cell) {
		if st, ok := r.(*ssa.Store); ok && st.Addr == cell {
			p, isParam := st.Val.(*ssa.Parameter)
			if !isParam || param != nil {
				return nil // stored twice, or something else
			}
			param = p
		}
	}
	return param
}

func (c *checker) classify(acq *acquisition, call *ssa.Call, span *heldSpan) {
	common := call.Common()
	if param := calledParam(common); param != nil {
		if i := slices.Index(acq.fn.Params, param); i >= 0 {
			span.callbackArgs = append(span.callbackArgs, i)
		}
		return
	}
	if recv := ssautil.Receiver(common); recv != nil && acq.held[recv] {
		return // tx.Exec, rows.Scan: work on the held connection itself
	}
	if fns, field := c.fields.Of(common); field != nil {
		for _, fn := range fns {
			span.waits = append(span.waits, c.dispatchedWaits(acq, call, field, fn, fns)...)
		}
		return
	}
	if w, ok := c.waitIn(common, acq); ok {
		span.waits = append(span.waits, heldWait{call: call, waitOn: w})
	}
}

// dispatchedWaits are the waits of fn, which the holder runs through its
// package's func field (a request transaction's router calling each
// route's handler): each call of fn's own that waits, reported in fn, the
// line to move out of the transaction. A function that ends a value of
// the held kind itself (a long-poll handler that rolls the request's
// transaction back before it waits) decides which of its waits the
// transaction spans, which is not known here: it is left alone.
func (c *checker) dispatchedWaits(acq *acquisition, call *ssa.Call, field *types.Var, fn *ssa.Function, siblings []*ssa.Function) []heldWait {
	if fn.Pkg != c.ssaPkg || slices.Contains(c.handedEnders[fn], acq.kind.Noun) {
		return nil
	}
	var out []heldWait
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			inner, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			if callee := inner.Common().StaticCallee(); callee != nil && slices.Contains(siblings, origin(callee)) {
				continue // another function run through the field: reported where it waits
			}
			if w, ok := c.waitIn(inner.Common(), acq); ok {
				out = append(out, heldWait{call: inner, waitOn: w, dispatch: &dispatched{call: call, field: field, fn: fn}})
			}
		}
	}
	return out
}

// acquires reports whether a call returns a held value (among its results).
func acquires(call *ssa.Call) bool {
	results := call.Call.Signature().Results()
	for i := range results.Len() {
		if _, ok := heldKindOf(results.At(i).Type()); ok {
			return true
		}
	}
	return false
}

// learnHandedEnders finds the package's endsHanded functions, to a fixed
// point (a function handing what it is handed to one is one), and exports
// their facts.
func (c *checker) learnHandedEnders(funcs []*ssa.Function) {
	c.handedEnders = map[*ssa.Function][]string{}
	for changed := true; changed; {
		changed = false
		for _, fn := range funcs {
			if fn.Pkg != c.ssaPkg {
				continue
			}
			for _, noun := range c.endedHanded(fn) {
				if !slices.Contains(c.handedEnders[fn], noun) {
					c.handedEnders[fn] = append(c.handedEnders[fn], noun)
					changed = true
				}
			}
		}
	}
	for fn, nouns := range c.handedEnders {
		if obj := calleeObject(fn); obj != nil && obj.Pkg() == c.pass.Pkg && fn.Parent() == nil {
			slices.Sort(nouns)
			c.pass.ExportObjectFact(obj, &endsHanded{Nouns: nouns})
		}
	}
}

// endedHanded is the held kinds fn ends of what it is handed: by a release
// method on a value read out of a parameter, or by handing such a value to
// a function that ends what it is handed.
func (c *checker) endedHanded(fn *ssa.Function) []string {
	var nouns []string
	for common := range ssautil.WaitedCalls(fn) {
		if !slices.ContainsFunc(callArgs(common), handedIn) {
			continue
		}
		if callee := common.StaticCallee(); callee != nil {
			callee = origin(callee)
			nouns = append(nouns, c.handedEnders[callee]...)
			var fact endsHanded
			if obj := calleeObject(callee); obj != nil && obj.Pkg() != c.pass.Pkg && c.pass.ImportObjectFact(obj, &fact) {
				nouns = append(nouns, fact.Nouns...)
			}
		}
		recv := ssautil.Receiver(common)
		if recv == nil || !handedIn(recv) {
			continue
		}
		m := calleeFunc(common)
		if k, ok := heldKindOf(recv.Type()); ok && m != nil && slices.Contains(k.Release, m.Name()) {
			nouns = append(nouns, k.Noun)
		}
	}
	return nouns
}

// handedIn reports whether v is a parameter, or read out of one through
// fields and pointers (a struct parameter whose field is read is spilled to
// a local the parameter is stored in), or what a call that acquires nothing
// returns (getRequestContext(c), the request's context with its
// transaction): something the function did not acquire itself.
func handedIn(v ssa.Value) bool {
	for range 8 {
		switch x := v.(type) {
		case *ssa.Parameter:
			return true
		case *ssa.Call:
			return !acquires(x)
		case *ssa.Extract:
			v = x.Tuple
		case *ssa.Alloc:
			return slices.ContainsFunc(ssautil.Referrers(x), func(in ssa.Instruction) bool {
				st, ok := in.(*ssa.Store)
				if !ok || st.Addr != x {
					return false
				}
				_, param := st.Val.(*ssa.Parameter)
				return param
			})
		case *ssa.UnOp:
			v = x.X
		case *ssa.FieldAddr:
			v = x.X
		case *ssa.Field:
			v = x.X
		default:
			return false
		}
	}
	return false
}

// successors are the blocks the held value reaches after b. On the branch
// where the acquiring call failed nothing is held, and after the last
// rows.Next() the rows are closed.
func (c *checker) successors(acq *acquisition, b *ssa.BasicBlock, s signs) []*ssa.BasicBlock {
	ifInstr, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		return b.Succs
	}
	switch s.decide(ifInstr.Cond) {
	case 0:
		return b.Succs[:1]
	case 1:
		return b.Succs[1:]
	}
	switch cond := ifInstr.Cond.(type) {
	case *ssa.BinOp:
		if acq.errVal != nil && comparesWithNil(cond, acq.errVal) {
			if cond.Op == token.NEQ {
				return b.Succs[1:] // err != nil: the failure branch holds nothing
			}
			return b.Succs[:1]
		}
	case *ssa.Call:
		if acq.kind.NextReleases && isNextOn(cond.Common(), acq.held) {
			return b.Succs[:1]
		}
	}
	return b.Succs
}

func comparesWithNil(cond *ssa.BinOp, v ssa.Value) bool {
	if cond.Op != token.NEQ && cond.Op != token.EQL {
		return false
	}
	return (cond.X == v && ssautil.IsNil(cond.Y)) || (cond.Y == v && ssautil.IsNil(cond.X))
}

func isNextOn(common *ssa.CallCommon, held map[ssa.Value]bool) bool {
	if common.IsInvoke() {
		return common.Method.Name() == "Next" && held[common.Value]
	}
	callee := common.StaticCallee()
	return callee != nil && callee.Name() == "Next" && len(common.Args) == 1 && held[common.Args[0]]
}

// ---- reporting ----

func (c *checker) reportSpan(span heldSpan) {
	acq := span.acq
	for _, w := range span.waits {
		if w.dispatch != nil {
			c.reportDispatched(acq, w)
			continue
		}
		c.report(w.call, acq.call.Pos(), fmt.Sprintf(
			"%s: %s from %s is still held during %s; %s",
			Code, acq.kind.Noun, acq.display, w.describe(), w.fix(acq)),
			acq.kind.Noun+" acquired here", w.waitOn)
	}
}

// reportDispatched reports a wait in a function the holder runs through a
// func field, at the function's call that waits, pointing at the
// acquisition and at the holder's call through the field.
func (c *checker) reportDispatched(acq *acquisition, w heldWait) {
	d := w.dispatch
	fn, holder := netio.DisplayName(d.fn), netio.DisplayName(acq.fn)
	c.report(w.call, acq.call.Pos(), fmt.Sprintf(
		"%s: %s from %s is still held during %s: %s runs through the func field %s, which %s calls while it holds the %s; %s",
		Code, acq.kind.Noun, acq.display, w.describe(), fn, d.field.Name(), holder, acq.kind.Noun, w.fix(acq)),
		acq.kind.Noun+" acquired here", w.waitOn,
		analysis.RelatedInformation{Pos: c.callStart(d.call.Pos()), Message: fn + " runs here, through " + d.field.Name()})
}

func (c *checker) reportCallback(site callbackSite, call *ssa.Call, w waitOn) {
	through := ""
	if chain := site.chain(); chain != "" {
		through = " (held through " + chain + ")"
	}
	c.report(call, site.call.Pos(), fmt.Sprintf(
		"%s: %s calls %s while the %s it runs in is held%s; %s",
		Code, callbackName(site), w.inCallback(), site.noun, through, w.fix(nil)),
		site.noun+" held by "+site.followed()+" here", w)
}

func callbackName(site callbackSite) string {
	if cb := ssautil.FuncOf(site.arg); cb != nil && cb.Parent() != nil {
		return "the function passed to " + site.holder
	}
	return "the callback of " + site.holder
}

// report reports the call, with the acquisition (or the callback's holder),
// then any more related information the caller adds, and, for a wait inside
// one of the module's functions, the line in it that reaches the network,
// as related information.
func (c *checker) report(call *ssa.Call, relatedPos token.Pos, msg, relatedMsg string, w waitOn, more ...analysis.RelatedInformation) {
	pos := c.callStart(call.Pos())
	key := [2]token.Pos{relatedPos, pos}
	if !pos.IsValid() || c.reported[key] {
		return
	}
	c.reported[key] = true
	d := analysis.Diagnostic{Pos: pos, Message: msg}
	if relatedPos.IsValid() {
		d.Related = []analysis.RelatedInformation{{Pos: c.callStart(relatedPos), Message: relatedMsg}}
	}
	d.Related = append(d.Related, more...)
	if w.at.IsValid() && !ssautil.SameLine(c.pass.Fset, w.at, call.Pos()) {
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: c.callStart(w.at), Message: "the call that reaches " + w.path[len(w.path)-1]})
	}
	if w.secondAt.IsValid() && !ssautil.SameLine(c.pass.Fset, w.secondAt, call.Pos()) {
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: c.callStart(w.secondAt), Message: "the call that takes a second connection from " + w.secondWhat})
	}
	c.pass.Report(d)
}

// callStart maps the Lparen position SSA records for a call to the start of
// the call expression, where a user expects the finding.
func (c *checker) callStart(lparen token.Pos) token.Pos {
	return c.starts.Start(c.pass.Files, lparen)
}

func describe(path []string) string {
	if len(path) == 1 {
		return path[0]
	}
	return path[0] + " (→ " + strings.Join(path[1:], " → ") + ")"
}

func fixFor(acq *acquisition) string {
	switch acq.kind.Noun {
	case "open rows":
		return "read the rows and close them (or pgx.CollectRows) before the call"
	case "connection":
		return "release the connection before the call, or make the call before acquiring it"
	}
	return "commit or roll back before the call, or move the call before " + acq.display
}

// ---- small SSA helpers ----

func origin(fn *ssa.Function) *ssa.Function { return ssautil.Origin(fn) }

func calleeObject(fn *ssa.Function) *types.Func {
	obj, _ := origin(fn).Object().(*types.Func)
	return obj
}

func callName(common *ssa.CallCommon) string {
	if common.IsInvoke() {
		return netio.Name(common.Method)
	}
	if callee := common.StaticCallee(); callee != nil {
		if obj := calleeObject(callee); obj != nil {
			return netio.Name(obj)
		}
		return callee.Name()
	}
	return "a call"
}

func callArgs(common *ssa.CallCommon) []ssa.Value {
	if common.IsInvoke() {
		return append([]ssa.Value{common.Value}, common.Args...)
	}
	return common.Args
}

// poolID names a pool by where it lives: a package-level variable, a struct
// field, or a parameter of the function. The zero value means unknown.
type poolID struct {
	global *ssa.Global
	field  string
	param  *ssa.Parameter
	short  string // the name a message uses
}

func (p poolID) isZero() bool { return p == poolID{} }

func (p poolID) name() string { return p.short }

// poolOf names the pool v is a handle on. The embedded *sql.DB of a *sqlx.DB
// and a handle from sqlx's Unsafe are the pool of the value they come from.
func poolOf(v ssa.Value) poolID {
	switch v := v.(type) {
	case *ssa.Parameter:
		return poolID{param: v, short: v.Name()}
	case *ssa.Call:
		callee := v.Common().StaticCallee()
		if callee != nil && catalog.SamePoolHandles.Has(calleeObject(callee)) {
			return poolOf(ssautil.Receiver(v.Common()))
		}
		return poolID{}
	case *ssa.UnOp:
		if v.Op != token.MUL {
			return poolID{}
		}
		switch addr := v.X.(type) {
		case *ssa.Global:
			return poolID{global: addr, short: addr.Name()}
		case *ssa.FieldAddr:
			st := addr.X.Type().Underlying().(*types.Pointer).Elem()
			field := st.Underlying().(*types.Struct).Field(addr.Field)
			if field.Embedded() {
				if base := poolOf(addr.X); !base.isZero() {
					return base
				}
			}
			return poolID{field: types.TypeString(st, nil) + "." + field.Name(), short: fieldName(st, addr.Field)}
		}
	}
	return poolID{}
}
