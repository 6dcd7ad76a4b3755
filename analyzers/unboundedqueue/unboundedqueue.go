package unboundedqueue

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/docs"
	"github.com/bhlint/bhlint/internal/guard"
	"github.com/bhlint/bhlint/internal/lazyssa"
	"github.com/bhlint/bhlint/internal/netio"
	"github.com/bhlint/bhlint/internal/pkgscope"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// Code starts every message of this analyzer.
const Code = "ERR_UNBOUNDED_QUEUE_DETECTED"

//go:embed doc.go
var doc string

// Analyzer reports work queued with no bound on its length or its wait.
var Analyzer = guard.Wrap(&analysis.Analyzer{
	Name:      "unboundedqueue",
	Doc:       docs.Extract(doc, "unboundedqueue"),
	URL:       "https://github.com/bhlint/bhlint/tree/main/analyzers/unboundedqueue",
	Requires:  []*analysis.Analyzer{lazyssa.Analyzer, netio.Analyzer},
	FactTypes: []analysis.Fact{new(opensUnboundedDB), new(boundsDBParam), new(takesSlot), new(parksOnSend), new(startsGoroutine), new(waitsOnNetwork), new(returnsNetworkFunc), new(detachesPerCall), new(ignoresContext), new(forwardsSlotWait), new(servesConns), new(claimsUnderLock), new(acquiresSlot), new(waitsNoContext), new(noContextWaitsReported), new(limitsPools), new(pendingWaits), new(servedPerRequest), new(returnsSharedHandle), new(servedElsewhere), new(fansOutOverParam)},
	Run:       run,
}, Code)

// opensUnboundedDB marks a function that opens a *sql.DB with no maximum
// and returns it: the caller that receives it must bound it.
type opensUnboundedDB struct {
	Result int    // index of the *sql.DB result
	Opener string // what opened it, for messages: "sql.Open"
	// Opens are the calls that open the pool at the bottom of the chain
	// (sql.Open, sqlx.Connect), in whichever package: one per branch of an
	// opener that chooses a driver. A finding where the pool escapes points
	// at them, the lines where a maximum is usually set.
	Opens []openAt
	// Generated: the opener is in a generated file (ent's client.Open),
	// which nobody edits: its callers' calls are the lines to change, as
	// for a dependency's opener.
	Generated bool
}

// openAt is a call that opens a pool, recorded for another package.
type openAt struct {
	File string
	Line int
	Name string // "sqlx.Connect"
	// Sealed: the open is the program's call of a generated opener (ent's
	// client Open), whose pool no caller can reach to bound: the fix is
	// to open the pool itself, bound it, and hand it to the client.
	Sealed bool
}

// maxOpens bounds the opens a fact carries.
const maxOpens = 4

func (*opensUnboundedDB) AFact() {}
func (f *opensUnboundedDB) String() string {
	return fmt.Sprintf("opensUnboundedDB(%d, %s)", f.Result, f.Opener)
}

// boundsDBParam marks a function that calls SetMaxOpenConns(n > 0) on the
// *sql.DB passed as one of its parameters.
type boundsDBParam struct{ Params []int }

func (*boundsDBParam) AFact()           {}
func (f *boundsDBParam) String() string { return fmt.Sprintf("boundsDBParam(%v)", f.Params) }

// takesSlot marks a function that takes and gives back a slot of a
// semaphore itself (sem <- struct{}{} … <-sem on the same channel) or calls a
// limiter of the catalogue: a goroutine that calls it is bounded, as
// go/packages' parseFile, which takes an ioLimit token, bounds the goroutine
// per file. Not transitive: a function that merely reaches one (database/sql
// signals its opener that way) does not limit its caller. Tries: every slot
// it takes it only tries for (TryAcquire, Allow, a send in a select with a
// default), so a goroutine that calls it ends at once when none is free.
type takesSlot struct{ Tries bool }

func (*takesSlot) AFact() {}
func (f *takesSlot) String() string {
	if f.Tries {
		return "takesSlot(tries)"
	}
	return "takesSlot"
}

// acquiresSlot marks a function that takes a slot and keeps it for its
// caller, who releases it later: a semaphore type's Acquire (type
// Semaphore chan struct{}, whose Acquire sends on the receiver and Release
// receives), or a function that calls one and releases nothing. Unlike
// takesSlot it is transitive: a wrapper of an acquire is an acquire. Such
// a function also takes a slot (takesSlot).
type acquiresSlot struct{}

func (*acquiresSlot) AFact()         {}
func (*acquiresSlot) String() string { return "acquiresSlot" }

func run(pass *analysis.Pass) (any, error) {
	c := &checker{pass: pass, reported: map[token.Pos]bool{}, preparedLimited: map[*types.Var]bool{}, ctxRoots: map[varQuestion]*ast.CallExpr{}, handleContexts: map[*types.Var]bool{}, netio: pass.ResultOf[netio.Analyzer].(*netio.Result), peerReads: netio.NewPeerReads(pass.Pkg)}
	c.serving = c.isLongRunning()
	c.dependency = pkgscope.IsDependency(pass)
	c.learnSlotTakers()
	c.learnParkers()
	c.learnStarters()
	c.learnNetworkWaits(false)
	c.learnNetworkFuncReturners()
	c.learnServers()
	c.learnClaimers()
	c.learnSharedHandleGetters()
	guard.At(token.NoPos, func() { c.learnDetachers() })
	if lazyssa.FactsOnly() {
		// A dependency analysed for its facts: what follows only reports,
		// but for the pool openers and bounders checkSQLPools exports.
		if pkgscope.Reaches(pass.Pkg, catalog.QueuePackages) {
			guard.At(token.NoPos, func() { c.checkSQLPools() })
			guard.At(token.NoPos, func() { c.learnWaitForwarders() })
		}
		// Waits with no context travel through packages that import no
		// pool: a handler package calls the store's interface.
		guard.At(token.NoPos, func() { c.learnNoContextWaiters() })
		guard.At(token.NoPos, func() { c.exportNoContextWaitsReported() })
		return nil, nil
	}
	// Goroutines per item and slice queues need no import; the other shapes
	// need a pool, a group, a semaphore or the runtime.
	for _, f := range pass.Files {
		if c.isTest(f) {
			continue
		}
		for _, decl := range f.Decls {
			if fd, ok := decl.(*ast.FuncDecl); ok && fd.Body != nil {
				guard.At(fd.Pos(), func() { c.checkFanOut(fd) })
				guard.At(fd.Pos(), func() { c.checkParkedPerRequest(fd) })
				guard.At(fd.Pos(), func() { c.checkDetachedPerRequest(fd) })
				guard.At(fd.Pos(), func() { c.checkTransportPerRequest(fd) })
				guard.At(fd.Pos(), func() { c.checkAbandonedSends(fd) })
			}
		}
	}
	guard.At(token.NoPos, func() { c.decideParamFanOuts() })
	guard.At(token.NoPos, func() { c.exportServedMethods() })
	guard.At(token.NoPos, func() { c.checkSliceQueues() })
	guard.At(token.NoPos, func() { c.checkMutexesPerRequest() })
	guard.At(token.NoPos, func() { c.checkSendsPerRequest() })
	guard.At(token.NoPos, func() { c.checkTokensPerRequest() })
	// The pools' openers first: a wait on a pool a function has just opened
	// queues behind nobody, in the waits learned next as in checkWaits.
	queues := pkgscope.Reaches(pass.Pkg, catalog.QueuePackages)
	if queues {
		guard.At(token.NoPos, func() { c.checkSQLPools() })
		guard.At(token.NoPos, func() { c.learnWaitForwarders() })
	}
	guard.At(token.NoPos, func() { c.learnNoContextWaiters() })
	if c.serving {
		guard.At(token.NoPos, func() { c.checkRequestNoContextWaits() })
		guard.At(token.NoPos, func() { c.checkRequestCallsParked() })
	}
	guard.At(token.NoPos, func() { c.recordServedElsewhere() })
	guard.At(token.NoPos, func() { c.reportServedElsewhere() })
	guard.At(token.NoPos, func() { c.reportPendingWaits() })
	guard.At(token.NoPos, func() { c.exportNoContextWaitsReported() })
	defer guard.At(token.NoPos, func() { c.exportPending() })
	if !queues {
		return nil, nil
	}
	for _, f := range pass.Files {
		if c.isTest(f) {
			continue
		}
		for _, decl := range f.Decls {
			if fd, ok := decl.(*ast.FuncDecl); ok && fd.Body != nil && c.serving {
				guard.At(fd.Pos(), func() { c.checkWaits(fd) })
			}
		}
		guard.At(f.Pos(), func() { c.checkLaneSpecs(f) })
	}
	return nil, nil
}

// learnSlotTakers exports takesSlot for the package's functions whose body
// takes a slot of a semaphore or a limiter: a send and a receive of one
// shared channel, a catalogue limiter, or an acquire that keeps its slot
// for the caller (acquiresSlot).
func (c *checker) learnSlotTakers() {
	c.slotTakers, c.slotTriers, c.acquirers = map[*types.Func]bool{}, map[*types.Func]bool{}, map[*types.Func]bool{}
	decls := c.funcDecls(true)
	for _, d := range decls {
		if uses, waits := c.usesSemaphore(d.fd.Body); uses {
			c.slotTakers[d.obj] = true
			c.slotTriers[d.obj] = !waits
			c.pass.ExportObjectFact(d.obj, &takesSlot{Tries: !waits})
		}
	}
	c.learnAcquirers(decls)
}

// funcDecl is a function declaration of the package, with a body, and the
// function it declares.
type funcDecl struct {
	fd  *ast.FuncDecl
	obj *types.Func
}

// funcDecls are the package's function declarations with a body, those of
// _test.go files only withTests.
func (c *checker) funcDecls(withTests bool) []funcDecl {
	var out []funcDecl
	for _, f := range c.pass.Files {
		if !withTests && c.isTest(f) {
			continue
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if obj, _ := c.pass.TypesInfo.Defs[fd.Name].(*types.Func); obj != nil {
					out = append(out, funcDecl{fd, obj})
				}
			}
		}
	}
	return out
}

// learnAcquirers exports acquiresSlot (and takesSlot) for the package's
// functions that take a slot and keep it for their caller: the acquire of
// a semaphore type (acquiresOwnChannel), and a function that calls an
// acquire and releases nothing itself (tusd's acquireUploadSemaphore
// wrapping store.uploadSemaphore.Acquire()), to a fixed point.
func (c *checker) learnAcquirers(decls []funcDecl) {
	mark := func(obj *types.Func) bool {
		if c.acquirers[obj] {
			return false
		}
		c.acquirers[obj] = true
		c.pass.ExportObjectFact(obj, &acquiresSlot{})
		if !c.slotTakers[obj] {
			c.slotTakers[obj] = true
			c.pass.ExportObjectFact(obj, &takesSlot{})
		}
		return true
	}
	for _, d := range decls {
		if c.acquiresOwnChannel(d.fd, decls) {
			mark(d.obj)
		}
	}
	for changed := true; changed; {
		changed = false
		for _, d := range decls {
			if c.acquiresThroughCall(d.fd.Body) && mark(d.obj) {
				changed = true
			}
		}
	}
}

// acquiresOwnChannel reports whether fd is the acquire of a semaphore type:
// a method that sends on its receiver's channel when another method of the
// type receives from it — the receiver itself, of a named channel type
// (type Semaphore chan struct{}; Acquire sends, Release receives), or a
// channel field of it into which a token is sent and out of which it is
// dropped (remeh/sizedwaitgroup's Add and Done on current, toolkits'
// Semaphore.Acquire and Release): a slot. A field that carries values (a
// job sent in, received and used) is a queue, not a semaphore.
func (c *checker) acquiresOwnChannel(fd *ast.FuncDecl, decls []funcDecl) bool {
	recv := receiverVar(c.pass.TypesInfo, fd)
	if recv == nil {
		return false
	}
	sent := c.ownChannels(fd.Body, recv, true)
	if len(sent) == 0 {
		return false
	}
	for _, other := range decls {
		r := receiverVar(c.pass.TypesInfo, other.fd)
		if other.fd == fd || r == nil || !types.Identical(deref(r.Type()), deref(recv.Type())) {
			continue
		}
		for _, ch := range c.ownChannels(other.fd.Body, r, false) {
			if slices.Contains(sent, ch) {
				return true
			}
		}
	}
	return false
}

// receiverVar is fd's named receiver, or nil.
func receiverVar(info *types.Info, fd *ast.FuncDecl) *types.Var {
	if fd.Recv == nil || len(fd.Recv.List) != 1 || len(fd.Recv.List[0].Names) != 1 {
		return nil
	}
	v, _ := info.Defs[fd.Recv.List[0].Names[0]].(*types.Var)
	return v
}

func deref(t types.Type) types.Type {
	if p, ok := t.(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// ownChannels are the channels of recv that body sends on (send) or
// receives from: "" for the receiver itself, when its type is a channel
// type, anywhere in body; a field's name for a channel field, when the
// value sent is a token (isToken) and the value received is dropped, in one
// of body's own statements or a case of its own select (a semaphore takes
// or gives back one token and returns; database/sql's opener, which signals
// in a loop and receives in a loop, is a worker's queue).
func (c *checker) ownChannels(body *ast.BlockStmt, recv *types.Var, send bool) []string {
	var out []string
	add := func(ch string, ok bool) {
		if ok && !slices.Contains(out, ch) {
			out = append(out, ch)
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SendStmt:
			ch, ok := c.receiverChannel(n.Chan, recv)
			add(ch, send && ok && ch == "")
		case *ast.UnaryExpr:
			ch, ok := c.receiverChannel(n.X, recv)
			add(ch, !send && n.Op == token.ARROW && ok && ch == "")
		}
		return true
	})
	for _, st := range ownStatements(body) {
		switch st := st.(type) {
		case *ast.SendStmt:
			ch, ok := c.receiverChannel(st.Chan, recv)
			add(ch, send && ok && ch != "" && c.isToken(st.Value))
		case *ast.ExprStmt:
			if u, isRecv := ast.Unparen(st.X).(*ast.UnaryExpr); isRecv && u.Op == token.ARROW {
				ch, ok := c.receiverChannel(u.X, recv)
				add(ch, !send && ok && ch != "")
			}
		}
	}
	return out
}

// ownStatements are body's top-level statements and the communications of
// its top-level selects.
func ownStatements(body *ast.BlockStmt) []ast.Stmt {
	var out []ast.Stmt
	for _, st := range body.List {
		sel, ok := st.(*ast.SelectStmt)
		if !ok {
			out = append(out, st)
			continue
		}
		for _, cc := range sel.Body.List {
			if comm := cc.(*ast.CommClause).Comm; comm != nil {
				out = append(out, comm)
			}
		}
	}
	return out
}

// receiverChannel is which channel of recv e is: "" for recv itself, of a
// channel type, or the name of a channel field of recv.
func (c *checker) receiverChannel(e ast.Expr, recv *types.Var) (string, bool) {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		_, isChan := recv.Type().Underlying().(*types.Chan)
		return "", isChan && c.pass.TypesInfo.Uses[x] == recv
	case *ast.SelectorExpr:
		id, ok := ast.Unparen(x.X).(*ast.Ident)
		field, isVar := c.pass.TypesInfo.ObjectOf(x.Sel).(*types.Var)
		if !ok || !isVar || !field.IsField() || c.pass.TypesInfo.Uses[id] != recv {
			return "", false
		}
		_, isChan := field.Type().Underlying().(*types.Chan)
		return field.Name(), isChan
	}
	return "", false
}

// acquiresThroughCall reports whether body, outside function literals and
// go statements, calls an acquire (acquiresSlot) and releases nothing
// anywhere in it, its literals included (no receive, no call named
// Release): it takes the slot for its caller.
func (c *checker) acquiresThroughCall(body *ast.BlockStmt) bool {
	takes := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit, *ast.GoStmt:
			return false
		case *ast.CallExpr:
			takes = takes || c.marked(c.callee(n), c.acquirers, new(acquiresSlot))
		}
		return !takes
	})
	if !takes {
		return false
	}
	releases := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.UnaryExpr:
			releases = releases || n.Op == token.ARROW
		case *ast.CallExpr:
			fn := c.callee(n)
			releases = releases || fn != nil && fn.Name() == "Release"
		}
		return !releases
	})
	return !releases
}

// usesSemaphore reports whether body sends an empty struct on a channel
// and receives from the same channel (acquire, and release — often in a
// deferred function literal), or calls a limiter of the catalogue; and
// whether it waits for the slot (a send outside a select with a default, a
// limiter other than a try).
func (c *checker) usesSemaphore(body *ast.BlockStmt) (uses, waits bool) {
	// The channels received from are named only when a send may match
	// one: most bodies have receives and no semaphore.
	sends, limiter := map[string]bool{}, false
	var received []ast.Expr
	tried := map[*ast.SendStmt]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			// Only a release counts inside a literal (defer func() { <-sem }()):
			// a send there is a goroutine's own acquire, not this function's.
			ast.Inspect(n.Body, func(n ast.Node) bool {
				if u, ok := n.(*ast.UnaryExpr); ok && u.Op == token.ARROW {
					received = append(received, u.X)
				}
				return true
			})
			return false
		case *ast.SelectStmt:
			for _, send := range sendsWithDefault(n) {
				tried[send] = true
			}
		case *ast.SendStmt:
			if c.isEmptyStruct(n.Value) && c.sharedAcrossCalls(n.Chan) {
				sends[types.ExprString(n.Chan)] = true
				waits = waits || !tried[n]
			}
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				received = append(received, n.X)
			}
		case *ast.CallExpr:
			if fn := c.callee(n); catalog.Limiters.Has(fn) {
				limiter = true
				waits = waits || !catalog.SlotTries.Has(fn)
			}
		}
		return true
	})
	if len(sends) > 0 && slices.ContainsFunc(received, func(ch ast.Expr) bool { return sends[types.ExprString(ch)] }) {
		return true, waits
	}
	return limiter, waits
}

// sendsWithDefault are the sends a select with a default clause tries:
// none of them waits.
func sendsWithDefault(sel *ast.SelectStmt) []*ast.SendStmt {
	var sends []*ast.SendStmt
	hasDefault := false
	for _, cl := range sel.Body.List {
		cc := cl.(*ast.CommClause)
		switch comm := cc.Comm.(type) {
		case nil:
			hasDefault = true
		case *ast.SendStmt:
			sends = append(sends, comm)
		}
	}
	if !hasDefault {
		return nil
	}
	return sends
}

// sharedAcrossCalls: a package-level channel or a field bounds every call;
// one made inside the function bounds only that call's own goroutines.
func (c *checker) sharedAcrossCalls(ch ast.Expr) bool {
	switch ch := ast.Unparen(ch).(type) {
	case *ast.Ident:
		obj := c.pass.TypesInfo.ObjectOf(ch)
		return obj != nil && obj.Parent() == c.pass.Pkg.Scope()
	case *ast.SelectorExpr:
		return true
	}
	return false
}

// takesSlotByCall reports whether fn takes a slot itself (a fact).
func (c *checker) takesSlotByCall(fn *types.Func) bool {
	return c.marked(fn, c.slotTakers, new(takesSlot))
}

// triesSlotByCall reports whether fn takes a slot itself and only tries
// for it, never waiting (a fact).
func (c *checker) triesSlotByCall(fn *types.Func) bool {
	if fn == nil {
		return false
	}
	fn = fn.Origin()
	if fn.Pkg() == c.pass.Pkg {
		return c.slotTriers[fn]
	}
	f := new(takesSlot)
	return fn.Pkg() != nil && c.pass.ImportObjectFact(fn, f) && f.Tries
}

// marked reports whether fn (its generic origin) is in this package's set
// local, or is another package's function carrying fact.
func (c *checker) marked(fn *types.Func, local map[*types.Func]bool, fact analysis.Fact) bool {
	if fn == nil {
		return false
	}
	fn = fn.Origin()
	if local[fn] {
		return true
	}
	return fn.Pkg() != nil && fn.Pkg() != c.pass.Pkg && c.pass.ImportObjectFact(fn, fact)
}

type checker struct {
	askingHelper    bool                             // makesDeadline is reading a helper's body
	served          map[string][]*types.Func         // other packages' interface methods called per request, by name (servedMethods)
	ctxRoots        map[varQuestion]*ast.CallExpr    // rootContext's answers by local variable
	handleContexts  map[*types.Var]bool              // handleHasContext's answers by local variable
	preparedLimited map[*types.Var]bool              // preparedWithLimit's answers by field; true while one is being decided
	servedCalls     []servedCall                     // request paths' calls through other packages' interfaces, this package's and its imports' (servedElsewhere)
	dependency      bool                             // the package is a dependency's (pkgscope.IsDependency)
	slotTakers      map[*types.Func]bool             // this package's functions that take a slot
	slotTriers      map[*types.Func]bool             // those of them that only try for it (takesSlot.Tries)
	parkers         map[*types.Func]*parksOnSend     // this package's functions and interface methods parked on a send
	starters        map[*types.Func]*startsGoroutine // this package's functions that start a goroutine per call (startsGoroutine)
	detachers       map[*types.Func][]detached       // this package's functions that start an unbounded one at some depth (detachesPerCall)
	handlers        map[*types.Func]bool             // the request handlers this package registers (registeredHandler), once asked
	subscribed      map[*types.Func]bool             // the message handlers this package subscribes (detachesPerMessage), with handlers
	subscribedLits  map[*ast.FuncLit]bool            // and those it subscribes as function literals
	ignorers        map[*types.Func]bool             // this package's functions whose waits ignore the context they are handed (ignoresContext)
	noCtxWaits      map[*types.Func][]waitAt         // this package's functions and interface methods that wait with no context (waitsNoContext)
	ifaceImpls      []ssautil.MethodImplementation   // this package's interface methods and their implementations (localInterfaceImpls)
	reportedWaits   []string                         // the waits with no context, and the go statements reached at depth, this package reported (noContextWaitsReported)
	deferredFans    []deferredFanOut                 // this package's goroutines per item of a parameter, which its callers decide (paramfanout.go)
	pending         []pendingReport                  // this package's request waits inside a dependency, where no maximum is known (pendingWaits)
	reportedBefore  map[string]bool                  // those the packages before it reported
	limitedHere     *bool                            // this package or one it imports gives a pool a maximum (limitsPools), once learned
	noPoolOpened    *bool                            // no function of the package opens a pool (opensNoPool), once learned
	net             *netWaits                        // this package's network waits (waitsOnNetwork), once learned
	funcReturners   map[*types.Func]string           // this package's returnsNetworkFunc
	netio           *netio.Result
	pass            *analysis.Pass
	reported        map[token.Pos]bool
	mailboxes       map[types.Object]bool             // shared channels known to be an actor's mailbox (isMailbox)
	methodImpls     map[*types.Func][]*ssa.Function   // this package's interface methods and their implementations here (implementationsNeverWait)
	deletedFrom     []types.Type                      // the map types the package deletes from (unsubscribed), once learned
	serving         bool                              // the package serves requests or runs long
	openers         map[*types.Func]*opensUnboundedDB // this package's, learned
	bounders        map[*types.Func][]int             // this package's boundsDBParam
	startup         map[*types.Func]bool              // this package's functions that run only at start-up, once learned
	limitsAPool     *bool                             // some function here gives a pool a maximum, once learned (embedded.go)
	frames          map[*ssa.Function]*requestFrame   // the functions on a request's path, once learned (requestPathFrames)
	configHeld      map[*types.TypeName]bool          // this package's struct types a configuration type holds, once learned (heldByConfig)
	perRequestTypes map[*types.TypeName]bool          // this package's types a function handed a request builds, once learned (requestBuilt)
	forwarders      map[*types.Func]*forwardsSlotWait // this package's functions that hand their context to a slot wait
	handleGetters   map[*types.Func]bool              // this package's functions that return a stored ORM handle (handles.go)
	waitMethods     map[string]bool                   // the names of the pools' slot waits, once learned (poolWaitMethods)
	schemaSetters   map[*types.Func]bool              // this package's functions that set up the schema, once learned (schema.go)
	servers         map[*types.Func]bool              // this package's functions that serve connections (servesConns)
	claimers        map[*types.Func]bool              // this package's functions that make a claim under a lock (claimsUnderLock)
	acquirers       map[*types.Func]bool              // this package's functions that take a slot for their caller (acquiresSlot)
	peerReads       *netio.PeerReads                  // the calls that read a peer's next message
}

// isLongRunning says whether the package is code that serves or runs long:
// every library package, and a main package that listens: it calls a
// server of the catalogue, or a function that serves connections
// (servesConns, across packages: a graceful-restart wrapper such as
// endless.ListenAndServe). A main package that never listens is a
// one-shot command, whose waits end when it does.
func (c *checker) isLongRunning() bool {
	if c.pass.Pkg.Name() != "main" {
		return true
	}
	serves := false
	for _, f := range c.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok && (catalog.Servers.Has(c.callee(call)) || c.servesByCall(c.callee(call))) {
				serves = true
			}
			return !serves
		})
	}
	return serves
}

func (c *checker) isTest(f *ast.File) bool {
	return strings.HasSuffix(c.pass.Fset.File(f.Pos()).Name(), "_test.go")
}

func (c *checker) report(pos token.Pos, related token.Pos, relatedMsg, format string, args ...any) {
	c.emit(c.diagnostic(pos, related, relatedMsg, format, args...))
}

// diagnostic is the finding report makes, for a caller that adds related
// information first.
func (c *checker) diagnostic(pos token.Pos, related token.Pos, relatedMsg, format string, args ...any) analysis.Diagnostic {
	d := analysis.Diagnostic{Pos: pos, Message: Code + ": " + fmt.Sprintf(format, args...)}
	if related.IsValid() && related != pos {
		d.Related = []analysis.RelatedInformation{{Pos: related, Message: relatedMsg}}
	}
	return d
}

// emit reports d once per position.
func (c *checker) emit(d analysis.Diagnostic) {
	if !d.Pos.IsValid() || c.reported[d.Pos] {
		return
	}
	c.reported[d.Pos] = true
	c.pass.Report(d)
}

// ---- small helpers ----

func (c *checker) callee(call *ast.CallExpr) *types.Func {
	fn, _ := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	return fn
}

func (c *checker) calleeName(call *ast.CallExpr) string {
	if fn := c.callee(call); fn != nil {
		return netio.Name(fn)
	}
	return types.ExprString(call.Fun)
}

// constInt returns the constant integer value of e, if it has one.
func (c *checker) constInt(e ast.Expr) (int64, bool) {
	tv, ok := c.pass.TypesInfo.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(tv.Value)
}

// localVar is the local variable e names, or nil.
func (c *checker) localVar(e ast.Expr) *types.Var {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := c.pass.TypesInfo.ObjectOf(id).(*types.Var)
	if !ok || v.IsField() || v.Parent() == nil || v.Parent() == c.pass.Pkg.Scope() {
		return nil
	}
	return v
}

// isNamed reports whether t, or what it points to, is the named type
// path.name.
func isNamed(t types.Type, path, name string) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == path && n.Obj().Name() == name
}
