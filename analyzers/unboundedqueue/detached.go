package unboundedqueue

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/entrypoints"
	"github.com/bhlint/bhlint/internal/guard"
	"github.com/bhlint/bhlint/internal/lazyssa"
	"github.com/bhlint/bhlint/internal/netio"
	"github.com/bhlint/bhlint/internal/pkgscope"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// onceOnly are the calls that run their function argument at most once at
// a time per key or once ever: a goroutine started in it is not one per
// request.
var onceOnly = catalog.NewTable("(*sync.Once).Do", "sync.OnceFunc", "sync.OnceValue", "sync.OnceValues",
	"(*golang.org/x/sync/singleflight.Group).Do", "(*golang.org/x/sync/singleflight.Group).DoChan")

// detachesPerCall marks a function that does not itself run per request
// but, on every call, starts a goroutine checkDetached would report in one
// that does, or calls such a function (outside loops): per-request is
// whatever a request reaches, at any depth, so a handler that calls it
// starts the goroutine on every request (one-api's ReturnPreConsumedQuota,
// a service's SendAndSaveCode). Where is the go statement, file:line.
type detachesPerCall struct {
	Where string
	Via   string
	File  string // the go statement's file and line, for related information
	Line  int
	// Sites are all the goroutines it starts per call, the first above
	// among them.
	Sites []detachedSite
}

// detachedSite is one go statement a detacher reaches, as in detached.
type detachedSite struct {
	Where, Via, File string
	Line             int
	Start            string // as in detached
	InDependency     bool   // the go statement is a dependency's code
	Owner            int    // as in detached
}

func (*detachesPerCall) AFact()           {}
func (f *detachesPerCall) String() string { return "detachesPerCall(" + f.Where + ")" }

// detached is what a function starts per call: the go statement, by
// file:line, and the call by which its work waits. start names what is
// there when it is not a go statement: the call of a function that starts
// the goroutine it is handed ("be.Go call").
type detached struct {
	where, via   string
	file         string
	line         int
	start        string
	inDependency bool // the go statement is a dependency's code (atModuleCall)
	// owner, when positive, says the queue the goroutine parks on hangs
	// off the function's parameter owner-1 (the receiver counting first),
	// as parksOnSend's Owner: a caller that hands a value it made itself
	// (a connection Dial makes and Starts) starts that value's own
	// machinery, not a goroutine waiting on a queue every request shares.
	owner int
}

// startName is what starts the goroutine at d's line, as a finding names it.
func (d detached) startName() string {
	if d.start == "" {
		return "go statement"
	}
	return d.start
}

// learnDetachers exports detachesPerCall for this package's functions that
// do not run per request, to a fixed point: a function that calls one
// outside a loop is one too. Each keeps every goroutine it starts per call
// (a stats update after a claim and another after its failure are two go
// statements to change), so its lists are completed to a fixed point too:
// a detacher found early may call one found later.
func (c *checker) learnDetachers() {
	c.learnContextIgnorers()
	c.detachers = map[*types.Func][]detached{}
	var decls []*ast.FuncDecl
	for _, f := range c.pass.Files {
		if c.isTest(f) {
			continue
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil && c.serving {
				decls = append(decls, fd)
			}
		}
	}
	// Every detacher starts a goroutine itself or calls one that does, so
	// a package where no function starts one that waits, as the first
	// round of the fixed point would find, has none: most packages (the
	// standard library's runtime and net/http have go statements, none of
	// whose work waits with nothing bounding it). Only then are the
	// functions that run per request left out, which asks every function,
	// and the registered handlers, which takes the package's SSA.
	if !slices.ContainsFunc(decls, c.startsDetached) {
		return
	}
	// c.detachers is still empty: mayDetach asks other packages' facts only.
	// A function whose goroutine serves the value it returns (minio's
	// GetObject and its object's reads) starts that value's machinery, one
	// per handle its caller holds, as learnStarters judges it.
	decls = slices.DeleteFunc(decls, func(fd *ast.FuncDecl) bool { return c.detachesForRequest(fd) || c.servesReturnedValue(fd) })
	c.learnDetachersAmong(decls)
	for obj, found := range c.detachers {
		fact := &detachesPerCall{Where: found[0].where, Via: found[0].via, File: found[0].file, Line: found[0].line}
		for _, d := range found {
			if pos := c.posOf(d.file, d.line); ssautil.FileAt(c.pass.Files, pos) != nil {
				guard.Anchor(c.pass, pos) // a request's path in an importer may report it here
			}
			fact.Sites = append(fact.Sites, detachedSite{Where: d.where, Via: d.via, File: d.file, Line: d.line, Start: d.start, InDependency: d.inDependency, Owner: d.owner})
		}
		c.pass.ExportObjectFact(obj, fact)
	}
}

// startsDetached reports whether fd, by its own go statements and the
// detachers of other packages it calls, starts a goroutine per call.
func (c *checker) startsDetached(fd *ast.FuncDecl) bool {
	var found []detached
	guard.At(fd.Pos(), func() { found = c.allDetached(fd) })
	return len(found) > 0
}

// learnDetachersAmong learns what each of decls starts per call, to a
// fixed point: a function that calls a detacher outside a loop is one too.
func (c *checker) learnDetachersAmong(decls []*ast.FuncDecl) {
	for changed := true; changed; {
		changed = false
		for _, fd := range decls {
			obj, _ := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if obj == nil {
				continue
			}
			var found []detached
			guard.At(fd.Pos(), func() { found = c.allDetached(fd) })
			if len(found) > len(c.detachers[obj]) {
				c.detachers[obj] = found
				changed = true
			}
		}
	}
}

// detachesAt is what fn starts on every call (a fact, or learnt here), and
// whether it does.
func (c *checker) detachesAt(fn *types.Func) ([]detached, bool) {
	if fn == nil {
		return nil, false
	}
	fn = fn.Origin()
	if d, ok := c.detachers[fn]; ok {
		return d, true
	}
	var fact detachesPerCall
	if fn.Pkg() != nil && fn.Pkg() != c.pass.Pkg && c.pass.ImportObjectFact(fn, &fact) {
		var out []detached
		for _, s := range fact.Sites {
			out = append(out, detached{where: s.Where, via: s.Via, file: s.File, line: s.Line, start: s.Start, inDependency: s.InDependency, owner: s.Owner})
		}
		if len(out) == 0 {
			out = []detached{{where: fact.Where, via: fact.Via, file: fact.File, line: fact.Line}}
		}
		return out, true
	}
	return nil, false
}

// allDetached are the goroutines fd starts per call that checkDetached
// would report, each go statement once, in source order.
func (c *checker) allDetached(fd *ast.FuncDecl) []detached {
	var found []detached
	c.eachDetached(fd, false, func(start ast.Node, d detached, how string, direct bool) {
		if !slices.ContainsFunc(found, func(e detached) bool { return e.file == d.file && e.line == d.line }) {
			found = append(found, d)
		}
	})
	return found
}

// checkDetachedPerRequest finds, in a function that runs once per request
// (runsPerRequest), a goroutine started outside any loop — a go statement,
// or a call of a function that starts one per call with a function literal
// as its work (routine.FireAndForget(func() { … })), or a call of a function
// that does so at some depth (detachesPerCall) — whose work waits on the
// network with no deadline and no cancellation, with nothing capping how
// many run: when the remote end hangs, every request leaves one more
// goroutine parked. Silent when a slot is taken or a claim is made before
// it (a limiter, a semaphore, CompareAndSwap, TryLock, LoadOrStore), when
// it runs under a sync.Once or singleflight, when an if around it tests
// time (a minimum interval), when the goroutine takes a slot first, when
// the function waits for it, and when its work has a deadline (a context
// with a timeout, a Timeout field, SetDeadline) or is handed a context from
// the caller that reaches its waits (the request's: it ends with the
// request).
//
// A function literal that takes a request (the handler a constructor
// returns: func(app *App) http.HandlerFunc { return func(w, r) { … } })
// runs once per request too, whatever the function around it does.
func (c *checker) checkDetachedPerRequest(fd *ast.FuncDecl) {
	if c.detachesForRequest(fd) {
		c.eachDetachedIn(fd, fd.Body, true, c.reportDetached)
		return
	}
	if c.detachesPerMessage(fd) {
		c.eachDetachedIn(fd, fd.Body, true, c.reportDetachedPerMessage)
		return
	}
	mayDetach := c.mayDetach(fd)
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		lit, ok := n.(*ast.FuncLit)
		if ok && c.takesRequest(lit.Type) {
			c.eachDetachedIn(fd, lit, true, c.reportDetached)
			return false
		}
		if ok && mayDetach && c.subscribedLiteral(lit) {
			c.eachDetachedIn(fd, lit, true, c.reportDetachedPerMessage)
			return false
		}
		return true
	})
}

// subscribedLiteral reports whether lit is a message handler the package
// subscribes as a function literal (nc.Subscribe(subj, func(m *nats.Msg)
// { … })), as detachesPerMessage asks of a declared one.
func (c *checker) subscribedLiteral(lit *ast.FuncLit) bool {
	c.learnEntries()
	return c.subscribedLits[lit]
}

// detachesForRequest reports whether a goroutine fd starts is started per
// request where fd is: fd runs per request, or is a registered handler, or
// implements a method of an interface another package of the program
// declares and is handed a context. Callers reach such a method through
// the interface without seeing the implementation (an authentication
// scheme registered from its own package, which the API asks to send the
// reset mail), and the handed context is the evidence of the request that
// runs it, as for a wait that ignores it (judgedWhereItIs).
func (c *checker) detachesForRequest(fd *ast.FuncDecl) bool {
	return c.runsPerRequest(fd) || c.mayDetach(fd) && c.registeredHandler(fd) ||
		c.contextParam(fd) != nil && c.implementsImportedInterface(fd)
}

// detachesPerMessage reports whether fd is a message handler the package
// subscribes with a broker's client (entrypoints' consumers: NATS's
// Subscribe, paho's Subscribe and AddRoute, watermill's handlers): the
// client calls it once for every message delivered, as fast as the
// publishers send, so a goroutine it starts on every call is one per
// message (chirpstack's MQTT gateway backend, one per uplink).
func (c *checker) detachesPerMessage(fd *ast.FuncDecl) bool {
	if !c.mayDetach(fd) {
		return false
	}
	c.learnEntries()
	obj, _ := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
	return obj != nil && c.subscribed[obj]
}

// reportDetachedPerMessage reports a goroutine a message handler starts
// for every message (eachDetached's found, directly in the handler).
func (c *checker) reportDetachedPerMessage(start ast.Node, d detached, how string, direct bool) {
	if !direct {
		c.reportDetached(start, d, how, direct)
		return
	}
	c.report(start.Pos(), token.NoPos, "",
		"goroutine per message: this %s starts, for every message the broker delivers to this handler, a goroutine that %s, "+
			"and nothing caps how many: while it waits, they pile up as fast as messages arrive; "+
			"handle the message in the handler (the client's delivery then paces it), take a slot first, or give the work a context with a timeout",
		how, waitPhrase(d.via))
}

// reportDetached reports a goroutine a request starts (eachDetached's found).
func (c *checker) reportDetached(start ast.Node, d detached, how string, direct bool) {
	if direct {
		c.report(start.Pos(), token.NoPos, "",
			"goroutine per request: this %s starts, on every request, a goroutine that %s, "+
				"and nothing caps how many: when the remote end hangs, they pile up; "+
				"take a slot before starting it (a semaphore, a worker pool) or give the work a context with a timeout",
			how, waitPhrase(d.via))
		return
	}
	// The line to change is the go statement, wherever it is: reported
	// there once, by the first package on the imports' way whose request
	// reaches it (noContextWaitsReported carries the key on), with this
	// call as related information.
	key := fmt.Sprintf("%s:%d", d.file, d.line)
	if c.reportedElsewhere()[key] || slices.Contains(c.reportedWaits, key) {
		return
	}
	c.reportedWaits = append(c.reportedWaits, key)
	c.report(c.posOf(d.file, d.line), start.Pos(), "a request's path calls it here",
		"goroutine per request: this %s starts a goroutine on every request that reaches it (through %s), "+
			"which %s, and nothing caps how many: when the remote end hangs, "+
			"they pile up; take a slot before starting it (a semaphore, a worker pool) or give the work a context with a timeout",
		d.startName(), how, waitPhrase(d.via))
}

// reportedElsewhere is noContextWaitsReportedBefore, read once.
func (c *checker) reportedElsewhere() map[string]bool {
	if c.reportedBefore == nil {
		c.reportedBefore = c.noContextWaitsReportedBefore()
	}
	return c.reportedBefore
}

// eachDetached calls found for each goroutine fd starts on every call,
// outside loops, that nothing bounds: direct for a go statement or a
// starter's function literal (how names it), not direct for a call of a
// function that starts one (how names the function).
func (c *checker) eachDetached(fd *ast.FuncDecl, perRequest bool, found func(start ast.Node, d detached, how string, direct bool)) {
	c.eachDetachedIn(fd, fd.Body, perRequest, found)
}

// eachDetachedIn is eachDetached over root, fd's body or a function literal
// in it. Not per request, the literals that take a request are left out:
// they run once per request, not once per call of fd.
func (c *checker) eachDetachedIn(fd *ast.FuncDecl, root ast.Node, perRequest bool, found func(start ast.Node, d detached, how string, direct bool)) {
	ast.PreorderStack(root, nil, func(n ast.Node, stack []ast.Node) bool {
		switch n := n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			// A goroutine started in a loop is one per item, checkFanOut's;
			// a call in it of a function that starts one per call starts
			// one per iteration: the loop multiplies, it bounds nothing.
			return true
		case *ast.FuncLit:
			if inLoop(stack) {
				return false
			}
			if !perRequest && c.takesRequest(n.Type) {
				return false
			}
			if len(stack) > 0 {
				if call, ok := stack[len(stack)-1].(*ast.CallExpr); ok && onceOnly.Has(c.callee(call)) {
					return false
				}
			}
		case *ast.GoStmt:
			if inLoop(stack) {
				return false
			}
			if fn := c.callee(n.Call); fn != nil || isFuncLit(n.Call.Fun) {
				if via := c.checkDetached(fd, n, stack, n.Call.Fun, n.Call.Args, perRequest); via != "" {
					d := c.detachedAt(n.Pos(), via)
					d.owner = c.parkOwner(fd, n.Call, via)
					found(n, d, "go statement", true)
				}
			}
			return false // what it runs is the goroutine's, not the request's
		case *ast.CallExpr:
			fn := c.callee(n)
			if inLoop(stack) {
				// Asked in this order: whether the callee starts a goroutine
				// per call is a lookup, whether the loop runs per item an
				// analysis of the loop, and most calls in loops start none.
				ds, ok := c.detachesAt(fn)
				if ok && c.enclosingPerItemLoop(fd, append(stack[:len(stack):len(stack)], n)) != nil && !c.rateGuarded(stack) && !c.takesSlot(fd.Body, n.Pos()) && !c.claimsBefore(fd.Body, n.Pos()) {
					for _, d := range c.sharedDetached(fd, n, ds) {
						found(n, d, c.calleeName(n), false)
					}
				}
				return true
			}
			if len(n.Args) > 0 && catalog.GoroutineStarters.Has(fn) && isFuncLit(n.Args[0]) {
				if via := c.checkDetached(fd, n, stack, n.Args[0], nil, perRequest); via != "" {
					d := c.detachedAt(n.Pos(), via)
					d.start = c.calleeName(n) + " call"
					found(n, d, c.calleeName(n), true)
				}
				return false
			}
			if where := c.startsPerCall(fn); where != "" {
				for _, a := range n.Args {
					if isFuncLit(a) {
						if via := c.checkDetached(fd, n, stack, a, nil, perRequest); via != "" {
							d := c.detachedAt(n.Pos(), via)
							d.where = where
							d.start = c.calleeName(n) + " call"
							found(n, d, c.calleeName(n)+" call (it starts a goroutine at "+where+")", true)
						}
						return false
					}
				}
			}
			if ds, ok := c.detachesAt(fn); ok && !c.rateGuarded(stack) && !c.takesSlot(fd.Body, n.Pos()) && !c.claimsBefore(fd.Body, n.Pos()) {
				for _, d := range c.sharedDetached(fd, n, ds) {
					found(n, d, c.calleeName(n), false)
				}
			}
		}
		return true
	})
}

// registeredHandler reports whether fd is a request handler this package
// registers with a router or an RPC server (internal/entrypoints: a
// Connect service's methods handed to its generated NewXxxHandler, a route
// table's handlers), whatever its signature: per request is whatever an
// entry point reaches, not only what takes an *http.Request.
func (c *checker) registeredHandler(fd *ast.FuncDecl) bool {
	c.learnEntries()
	obj, _ := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
	return obj != nil && c.handlers[obj]
}

// learnEntries fills, once, the package's request handlers and the
// message handlers it subscribes (declared, and as function literals),
// from entrypoints: asking builds the package's SSA.
func (c *checker) learnEntries() {
	if c.handlers != nil {
		return
	}
	c.handlers, c.subscribed, c.subscribedLits = map[*types.Func]bool{}, map[*types.Func]bool{}, map[*ast.FuncLit]bool{}
	builder := c.pass.ResultOf[lazyssa.Analyzer].(*lazyssa.Builder)
	for _, e := range entrypoints.Find(c.pass.Pkg, builder.SrcFuncs()) {
		if e.Func.Pkg != c.ssaPkg() {
			continue
		}
		if lit, isLit := e.Func.Syntax().(*ast.FuncLit); isLit && e.PerMessage {
			c.subscribedLits[lit] = true
		}
		obj, ok := e.Func.Object().(*types.Func)
		if !ok {
			continue
		}
		if e.Class == entrypoints.Interactive {
			c.handlers[obj] = true
		}
		if e.PerMessage {
			c.subscribed[obj] = true
		}
	}
}

// mayDetach reports whether fd's body, literals included, has a go
// statement or a call of a function that starts a goroutine or detaches
// one (a fact): only then is the package's SSA built to ask
// registeredHandler.
func (c *checker) mayDetach(fd *ast.FuncDecl) bool {
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt:
			found = true
		case *ast.CallExpr:
			fn := c.callee(n)
			_, detaches := c.detachesAt(fn)
			found = detaches || catalog.GoroutineStarters.Has(fn) || c.startsPerCall(fn) != ""
		}
		return !found
	})
	return found
}

// parkOwner is, for a go statement in fd whose work parks on a queue's
// send (via from workParks), the parameter of fd the queue hangs off, as
// parksOnSend's Owner counts them, or 0.
func (c *checker) parkOwner(fd *ast.FuncDecl, call *ast.CallExpr, via string) int {
	if !strings.HasPrefix(via, parkedPrefix) {
		return 0
	}
	f := c.parkFact(c.callee(call))
	if f == nil {
		return 0
	}
	if arg := c.ownerArg(call, f); arg != nil {
		return paramOwner(c.pass.TypesInfo, fd, arg)
	}
	return 0
}

// sharedDetached is ds, what call's callee starts per call, as fd meets
// them at call: without the goroutines parked on a queue of a value fd
// made itself and handed to the call (ldap's Dial making a connection and
// calling its Start, whose reader goroutines park on the connection's own
// channels), and with each one's owner restated as fd's parameter.
func (c *checker) sharedDetached(fd *ast.FuncDecl, call *ast.CallExpr, ds []detached) []detached {
	var out []detached
	for _, d := range ds {
		if d.owner > 0 {
			arg := c.ownerArg(call, &parksOnSend{Owner: d.owner})
			if arg == nil || c.madeIn(fd, arg) {
				continue
			}
			d.owner = paramOwner(c.pass.TypesInfo, fd, arg)
		}
		at := c.atModuleCall(call, d)
		at.owner = d.owner
		out = append(out, at)
	}
	return out
}

// atModuleCall is d, a goroutine that call's callee starts per call, as
// the module's code meets it at call: when d is a dependency's, the line to change is
// the module's call into the dependency (its go statement is not the
// user's to edit: openlist's drivers/mega calling go-mega's
// MultiFactorLogin), which the finding names with where the goroutine
// starts.
func (c *checker) atModuleCall(call *ast.CallExpr, d detached) detached {
	if c.dependency || !d.inDependency {
		return d
	}
	at := c.detachedAt(call.Pos(), d.via)
	at.where = d.where
	at.start = c.calleeName(call) + " call (it starts a goroutine at " + d.where + ")"
	return at
}

// detachedAt is a goroutine started at pos whose work waits by via.
func (c *checker) detachedAt(pos token.Pos, via string) detached {
	p := c.pass.Fset.Position(pos)
	return detached{where: filepath.Base(p.Filename) + ":" + strconv.Itoa(p.Line), via: via, file: p.Filename, line: p.Line, inDependency: c.dependency}
}

// posOf is ssautil.LinePos in this pass's file set.
func (c *checker) posOf(file string, line int) token.Pos {
	return ssautil.LinePos(c.pass.Fset, file, line)
}

func isFuncLit(e ast.Expr) bool {
	_, ok := ast.Unparen(e).(*ast.FuncLit)
	return ok
}

// checkDetached checks one goroutine started per call: fun is what it runs
// (a function literal or a function), args the go statement's arguments.
// It returns the call by which the work waits when nothing bounds it, or "".
// Outside a function that runs per request (a fact for its callers), a
// function that waits for the goroutine until its own context ends joins
// it: a dial that gives up on ctx.Done() leaves the goroutine behind only
// when its caller cancels, which the caller decides, not this function.
func (c *checker) checkDetached(fd *ast.FuncDecl, start ast.Node, stack []ast.Node, fun ast.Expr, args []ast.Expr, perRequest bool) string {
	if c.rateGuarded(stack) {
		return ""
	}
	enclosing := fd.Body
	for _, n := range stack {
		var body *ast.BlockStmt
		switch n := n.(type) {
		case *ast.FuncDecl:
			body = n.Body
		case *ast.FuncLit:
			body = n.Body
		default:
			continue
		}
		if c.takesSlot(body, start.Pos()) || c.claimsBefore(body, start.Pos()) {
			return ""
		}
		enclosing = body
	}
	if c.takesSlot(fd.Body, start.Pos()) || c.claimsBefore(fd.Body, start.Pos()) {
		return ""
	}
	var work *ast.BlockStmt
	var workDecl *ast.FuncDecl
	if lit, ok := ast.Unparen(fun).(*ast.FuncLit); ok {
		work = lit.Body
	} else {
		workDecl = c.declOf(c.calleeOfExpr(fun))
		if workDecl != nil {
			work = workDecl.Body
		}
	}
	if c.slotTriedInside(work) || c.triesSlotByCall(c.calleeOfExpr(fun)) || c.joinedAfter(enclosing, start, work, !perRequest) {
		return ""
	}
	if via := c.workWaits(fun); via != "" && !c.hasDeadline(work) && !c.cancelledByCaller(fd, args, fun, work, workDecl) {
		return via
	}
	// A send that parks gives up on no deadline or context (parksOnSend):
	// one handed down does not bound it.
	return c.workParks(fd, start, fun)
}

// workParks is how a goroutine's work, a function that parks on a send to
// a queue every request shares (parksOnSend with the send's line: no
// signal, no channel made for the importers), waits, as a via (parkedVia):
// each call leaves one more goroutine waiting for the queue's consumers,
// as one waiting on the network does for the remote end (apache/answer's
// service method starting go qs.notificationInviteUser, which hands every
// invitation to the notification queue). Work written as a function
// literal parks when a call in its own body does (not one in a literal
// nested in it, which may run later). Not a queue of a value fd made
// itself, nor work that takes a slot.
func (c *checker) workParks(fd *ast.FuncDecl, start ast.Node, fun ast.Expr) string {
	if c.dependency {
		return ""
	}
	lit, ok := ast.Unparen(fun).(*ast.FuncLit)
	if !ok {
		var call *ast.CallExpr
		if g, ok := start.(*ast.GoStmt); ok {
			call = g.Call
		}
		return c.callParks(fd, fun, call)
	}
	via := ""
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		if _, nested := n.(*ast.FuncLit); nested || via != "" {
			return false
		}
		if call, ok := n.(*ast.CallExpr); ok {
			via = c.callParks(fd, call.Fun, call)
		}
		return via == ""
	})
	return via
}

// callParks is the via of the goroutine's work fun, or of a call in it,
// when it parks on a send to a shared queue (workParks), or "". call is
// the call of fun when there is one (a go statement's, or the work's own).
func (c *checker) callParks(fd *ast.FuncDecl, fun ast.Expr, call *ast.CallExpr) string {
	fn := c.calleeOfExpr(fun)
	f := c.parkFact(fn)
	if f == nil || f.File == "" || c.madeHere(fd, fun) || c.takesSlotByCall(fn) {
		return ""
	}
	if call != nil && c.parksOnOwnValue(fd, call) {
		return ""
	}
	return parkedPrefix + f.Chan + " (through " + netio.Name(fn) + ")"
}

// parkedPrefix begins the via of work that waits on a send to a shared
// queue, not on the network (workParks); facts carry a via as text.
const parkedPrefix = "a send on "

// waitPhrase says how a goroutine's work waits, by its via, for a
// finding's message.
func waitPhrase(via string) string {
	if strings.HasPrefix(via, parkedPrefix) {
		return "waits for a consumer to take its value (" + via + ") with no deadline"
	}
	return "waits on the network (" + via + ") with no deadline and no cancellation"
}

// calleeOfExpr is the function a go statement's function expression names
// (f, pkg.F, x.Method), or nil.
func (c *checker) calleeOfExpr(fun ast.Expr) *types.Func {
	switch f := ast.Unparen(fun).(type) {
	case *ast.Ident:
		fn, _ := c.pass.TypesInfo.Uses[f].(*types.Func)
		return fn
	case *ast.SelectorExpr:
		fn, _ := c.pass.TypesInfo.Uses[f.Sel].(*types.Func)
		return fn
	}
	return nil
}

// declOf is the declaration of fn in this package, or nil.
func (c *checker) declOf(fn *types.Func) *ast.FuncDecl {
	if fn == nil || fn.Pkg() != c.pass.Pkg {
		return nil
	}
	for _, file := range c.pass.Files {
		for _, d := range file.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && c.pass.TypesInfo.Defs[fd.Name] == fn {
				return fd
			}
		}
	}
	return nil
}

// workWaits is the call by which the goroutine's work waits on the
// network, or "".
func (c *checker) workWaits(fun ast.Expr) string {
	if !c.serving || !pkgscope.Reaches(c.pass.Pkg, catalog.NetworkPackages) {
		// Nothing this package reaches waits on the network: no need for
		// the SSA of its goroutines (the runtime's, analysed for facts).
		return ""
	}
	c.learnNetworkWaits(true)
	if lit, ok := ast.Unparen(fun).(*ast.FuncLit); ok {
		return c.funcWaits(c.ssaFuncAt(lit))
	}
	fn := c.calleeOfExpr(fun)
	if fn == nil {
		return ""
	}
	if recv := fn.Signature().Recv(); recv != nil && types.IsInterface(recv.Type()) {
		// An interface method waits when an implementation in its own
		// package does (waitsOnNetwork, as callWaits reads it).
		c.net.rounds.Read(fn)
		if via, ok := c.net.ifaces[fn]; ok {
			return via
		}
		if fn.Pkg() != nil && fn.Pkg() != c.pass.Pkg && c.pass.ImportObjectFact(fn, new(waitsOnNetwork)) {
			return netio.Name(fn)
		}
		return ""
	}
	prog := c.pass.ResultOf[lazyssa.Analyzer].(*lazyssa.Builder).Package().Prog
	return c.funcWaits(prog.FuncValue(fn.Origin()))
}

// claimsBefore reports whether body, before pos and outside function
// literals, makes a claim that lets one caller through at a time or once
// per key: CompareAndSwap, TryLock, LoadOrStore, TryAcquire (an in-flight
// guard, a dedupe), or the same claim written out on a shared flag (see
// flagClaim) or in a function that tests and records a key under a lock
// (claimsUnderLock).
func (c *checker) claimsBefore(body *ast.BlockStmt, pos token.Pos) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if found || n == nil || n.Pos() >= pos {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.IfStmt:
			found = c.flagClaim(body, n, pos)
		case *ast.CallExpr:
			if fn := c.callee(n); fn != nil && fn.Signature().Recv() != nil {
				switch fn.Name() {
				case "CompareAndSwap", "TryLock", "LoadOrStore", "TryAcquire", "TryRLock":
					found = true
				}
			}
			found = found || c.claimsByCall(c.callee(n))
		}
		return !found
	})
	return found
}

// flagClaim reports whether guard is the hand-written CompareAndSwap on a
// shared flag, with a set before pos:
//
//	mu.Lock()
//	if running { mu.Unlock(); return errBusy }
//	running = true
//	mu.Unlock()
//	go func() { …; mu.Lock(); running = false; mu.Unlock() }()
//
// The flag is a package variable or a field (a local one is new on every
// call and refuses nothing). While the goroutine runs, every other call
// returns at the if: at most one runs, however many requests ask.
func (c *checker) flagClaim(body *ast.BlockStmt, guard *ast.IfStmt, pos token.Pos) bool {
	flag := c.sharedFlag(guard.Cond)
	if flag == nil || guard.Else != nil || !endsInReturn(guard.Body) {
		return false
	}
	set := false
	ast.Inspect(body, func(n ast.Node) bool {
		if set || n == nil || n.Pos() >= pos {
			return false
		}
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		as, ok := n.(*ast.AssignStmt)
		if ok && as.Pos() > guard.End() && len(as.Lhs) == 1 && len(as.Rhs) == 1 &&
			c.sharedFlag(as.Lhs[0]) == flag && types.ExprString(as.Lhs[0]) == types.ExprString(guard.Cond) {
			tv := c.pass.TypesInfo.Types[as.Rhs[0]]
			set = tv.Value != nil && constant.BoolVal(tv.Value)
		}
		return !set
	})
	return set
}

// sharedFlag is the bool variable e names when it is a package variable or
// a field (running, s.running), else nil.
func (c *checker) sharedFlag(e ast.Expr) *types.Var {
	id := identOf(e)
	if id == nil {
		return nil
	}
	v, _ := c.pass.TypesInfo.ObjectOf(id).(*types.Var)
	if v == nil || !types.Identical(v.Type(), types.Typ[types.Bool]) {
		return nil
	}
	if v.IsField() || v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
		return v
	}
	return nil
}

// endsInReturn reports whether block's last statement is a return.
func endsInReturn(block *ast.BlockStmt) bool {
	if len(block.List) == 0 {
		return false
	}
	_, ok := block.List[len(block.List)-1].(*ast.ReturnStmt)
	return ok
}

// joinedAfter reports whether body, after the goroutine's start, waits for
// it: a WaitGroup or errgroup Wait, or a receive — unless the channel is
// also sent on by another function literal (a timer's callback: the wait
// gives up and leaves the goroutine running) or the receive sits in a select
// with a case that fires on time or on a context (untilCancelled counts that
// select as a join).
func (c *checker) joinedAfter(body *ast.BlockStmt, start ast.Node, work *ast.BlockStmt, untilCancelled bool) bool {
	senders := map[string]int{} // channel → function literals, other than the work, that send on it
	ast.Inspect(body, func(n ast.Node) bool {
		lit, ok := n.(*ast.FuncLit)
		if !ok {
			return true
		}
		if work != nil && lit.Body == work {
			return false // the literals inside the work are the work's: its deferred send is it finishing (etcd's runSTM)
		}
		ast.Inspect(lit.Body, func(n ast.Node) bool {
			if s, ok := n.(*ast.SendStmt); ok {
				senders[types.ExprString(s.Chan)]++
			}
			return true
		})
		return false
	})
	found := false
	ast.PreorderStack(body, nil, func(n ast.Node, stack []ast.Node) bool {
		if found || n.End() <= start.End() {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.SelectStmt:
			if !untilCancelled && selectGivesUp(n) {
				return false
			}
		case *ast.UnaryExpr:
			found = n.Op == token.ARROW && n.Pos() >= start.End() && senders[types.ExprString(n.X)] == 0
		case *ast.CallExpr:
			fn := c.callee(n)
			found = n.Pos() >= start.End() && fn != nil &&
				(catalog.Key(fn) == "(*sync.WaitGroup).Wait" || catalog.Key(fn) == "(*golang.org/x/sync/errgroup.Group).Wait")
		}
		return !found
	})
	return found
}

// selectGivesUp reports whether a select has a default or a case that
// receives from a call (time.After, ctx.Done()).
func selectGivesUp(sel *ast.SelectStmt) bool {
	for _, cl := range sel.Body.List {
		if givesUp(cl.(*ast.CommClause)) {
			return true
		}
	}
	return false
}

// hasDeadline reports whether the work sets itself a deadline: a context
// with a timeout or deadline, a Timeout field (http.Client{Timeout: d},
// net.Dialer), or a SetDeadline on a connection.
func (c *checker) hasDeadline(work *ast.BlockStmt) bool {
	if work == nil {
		return false
	}
	found := false
	ast.Inspect(work, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.CallExpr:
			fn := c.callee(n)
			found = catalog.DeadlineContexts.Has(fn) || fn != nil &&
				(fn.Name() == "SetDeadline" || fn.Name() == "SetReadDeadline" || fn.Name() == "SetWriteDeadline") ||
				c.makesDeadline(fn)
		case *ast.KeyValueExpr:
			id, ok := n.Key.(*ast.Ident)
			found = ok && id.Name == "Timeout"
		case *ast.SelectorExpr:
			found = n.Sel.Name == "Timeout" && c.isAssigned(work, n)
		}
		return !found
	})
	return found
}

// makesDeadline reports whether fn, of this package, hands its caller the
// cancel function of a context it gave a deadline: a helper that builds
// the caller's context with a timeout (nats.go's getJSContextOpts, which
// every JetStream call starts with, returning its options with the
// context and the cancel) bounds the caller's waits as a WithTimeout in
// the caller's own body would. One level: the helper's own helpers are
// not asked.
func (c *checker) makesDeadline(fn *types.Func) bool {
	if fn == nil || c.askingHelper || !returnsCancel(fn.Signature()) {
		return false
	}
	decl := c.declOf(fn)
	if decl == nil || decl.Body == nil {
		return false
	}
	c.askingHelper = true
	defer func() { c.askingHelper = false }()
	return c.hasDeadline(decl.Body)
}

// returnsCancel reports whether one of sig's results is a
// context.CancelFunc.
func returnsCancel(sig *types.Signature) bool {
	for i := range sig.Results().Len() {
		if catalog.TypeKey(sig.Results().At(i).Type()) == "context.CancelFunc" {
			return true
		}
	}
	return false
}

// isAssigned reports whether sel is the target of an assignment in body.
func (c *checker) isAssigned(body *ast.BlockStmt, sel *ast.SelectorExpr) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok {
			for _, l := range as.Lhs {
				found = found || l == sel
			}
		}
		return !found
	})
	return found
}

// cancelledByCaller reports whether the caller's context bounds the work:
// a context that comes from somewhere the function cannot see (a parameter,
// the request, a field: the request's ends with the request, and the escape
// policy trusts the others) reaches every call by which the work waits, as
// an argument or in a value built from it (db.WithContext(ctx).First(…),
// a request made with NewRequestWithContext(ctx, …)). A context the work is
// handed but does not give its waits (only its logger) cancels nothing; a
// context made from context.Background() or TODO(), directly or through
// derivations and wrappers that add no deadline, does not count; a work
// with no context at all cannot be cancelled, and a wait handed the context
// by a function that ignores it (ignoresContext) is not cancelled by it.
// When the work's waiting calls
// cannot be told from its others (its body is in another package), any
// caller's context handed to it counts.
func (c *checker) cancelledByCaller(fd *ast.FuncDecl, args []ast.Expr, fun ast.Expr, work *ast.BlockStmt, workDecl *ast.FuncDecl) bool {
	params := c.workParams(fun, workDecl)
	cancellable := map[*types.Var]bool{} // the work's parameters that receive a caller's context
	handed := false
	for i, a := range args {
		if c.isContext(a) && c.rootContext(fd, a, 0, true) == nil {
			handed = true
			if i < len(params) {
				cancellable[params[i]] = true
			}
		}
	}
	if work == nil {
		return handed && !c.ignoresCtx(c.calleeOfExpr(fun))
	}
	in := fd
	if workDecl != nil {
		in = workDecl
	}
	fromCaller := func(e ast.Expr) bool {
		if v := c.localVarOrParam(ast.Unparen(e)); v != nil && slices.Contains(params, v) {
			return cancellable[v]
		}
		return c.rootContext(in, e, 0, true) == nil
	}
	waits := c.waitingCalls(fun)
	if len(waits) == 0 {
		return handed || c.anyContextFrom(work, fromCaller)
	}
	all := true
	inspectOwn(work, func(call *ast.CallExpr) {
		if all && waits[call.Lparen] && (!c.mentionsContext(in, call, fromCaller, 0) || c.ignoresCtx(c.callee(call))) {
			all = false
		}
	})
	return all
}

// workParams are the parameters of the function a go statement runs (a
// literal or a declaration of this package), in order.
func (c *checker) workParams(fun ast.Expr, workDecl *ast.FuncDecl) []*types.Var {
	var ft *ast.FuncType
	if lit, ok := ast.Unparen(fun).(*ast.FuncLit); ok {
		ft = lit.Type
	} else if workDecl != nil {
		ft = workDecl.Type
	}
	var out []*types.Var
	if ft == nil || ft.Params == nil {
		return nil
	}
	for _, field := range ft.Params.List {
		for _, name := range field.Names {
			v, _ := c.pass.TypesInfo.Defs[name].(*types.Var)
			out = append(out, v)
		}
		if len(field.Names) == 0 {
			out = append(out, nil)
		}
	}
	return out
}

// inspectOwn calls f on each call of body that body's own function makes:
// not those of the function literals inside it, which run when called.
func inspectOwn(body *ast.BlockStmt, f func(*ast.CallExpr)) {
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			f(n)
		}
		return true
	})
}

// anyContextFrom reports whether a call of the work passes a context that
// fromCaller accepts.
func (c *checker) anyContextFrom(work *ast.BlockStmt, fromCaller func(ast.Expr) bool) bool {
	found := false
	ast.Inspect(work, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && !found {
			for _, a := range call.Args {
				found = found || c.isContext(a) && fromCaller(a)
			}
		}
		return !found
	})
	return found
}

// waitingCalls are the positions (the opening parenthesis) of the calls by
// which the work's own body waits on the network or a database, as
// callWaits tells them; nil when the work's SSA is not in this package.
func (c *checker) waitingCalls(fun ast.Expr) map[token.Pos]bool {
	if lit, ok := ast.Unparen(fun).(*ast.FuncLit); ok {
		return c.waitsOf(c.ssaFuncAt(lit))
	}
	if obj := c.calleeOfExpr(fun); obj != nil && obj.Pkg() == c.pass.Pkg {
		return c.waitsOf(c.pass.ResultOf[lazyssa.Analyzer].(*lazyssa.Builder).Package().Prog.FuncValue(obj.Origin()))
	}
	return nil
}

// mentionsContext reports whether e holds a context that fromCaller
// accepts: as a part of it (an argument, a receiver built by a call that
// takes one), in a value that carries one (its type has a Context() method,
// as *http.Request has) handed in by the caller as the call's argument or
// receiver, or in a local variable
// whose value was built with one: a carrier
// (req := http.NewRequestWithContext(ctx, …); client.Do(req)) or a
// builder's own type (tx := db.WithContext(ctx); tx.First(…)) or a
// transaction begun with one (tx := db.BeginTx(ctx, nil); tx.Commit()). A value
// merely computed by a call that took the context (rows, a saved record)
// carries none.
func (c *checker) mentionsContext(fd *ast.FuncDecl, e ast.Expr, fromCaller func(ast.Expr) bool, depth int) bool {
	if depth > 3 {
		return false
	}
	if c.isCallersCarrier(fd, e) {
		return true
	}
	if call, ok := ast.Unparen(e).(*ast.CallExpr); ok {
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok &&
			(c.isCallersCarrier(fd, sel.X) || c.isORMHandle(sel.X) && c.handleHasContext(fd, sel.X, 0)) {
			return true
		}
		if slices.ContainsFunc(call.Args, func(a ast.Expr) bool { return c.isCallersCarrier(fd, a) }) {
			return true
		}
	}
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case ast.Expr:
			// A function literal handed to the call is looked into: the
			// callee runs it (parse(md, func(kid) error { return a.key(ctx, kid) })).
			if c.isContext(n) {
				found = fromCaller(n)
				return false
			}
			v := c.localVar(n)
			if v == nil {
				return true
			}
			carrier := carriesContext(v.Type())
			for _, rhs := range c.assignmentsTo(fd, v) {
				if rhs != nil && (carrier || c.buildsSame(rhs, v.Type()) || c.acquiredWithContext(rhs)) {
					found = found || c.mentionsContext(fd, rhs, fromCaller, depth+1)
				}
			}
		}
		return !found
	})
	return found
}

// isCallersCarrier reports whether e is, itself, a value that carries a
// context and that the caller handed in (r, c.Request): not a value
// computed from one (r.FormValue("email") carries nothing).
func (c *checker) isCallersCarrier(fd *ast.FuncDecl, e ast.Expr) bool {
	t := c.pass.TypesInfo.TypeOf(e)
	return t != nil && carriesContext(t) && c.rootedOutside(fd, e)
}

// rootedOutside reports whether e (x, x.f.g) starts at a variable declared
// outside fd's body: a parameter.
func (c *checker) rootedOutside(fd *ast.FuncDecl, e ast.Expr) bool {
	id := rootIdent(e)
	if id == nil {
		return false
	}
	v, ok := c.pass.TypesInfo.ObjectOf(id).(*types.Var)
	return ok && !v.IsField() && v.Parent() != c.pass.Pkg.Scope() &&
		(v.Pos() < fd.Body.Pos() || v.Pos() >= fd.Body.End())
}

// rootIdent is the variable a selector chain starts at (x in x.f.g, *x.f),
// or nil when it starts at a call or a literal.
func rootIdent(e ast.Expr) *ast.Ident {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.SelectorExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.Ident:
			return x
		default:
			return nil
		}
	}
}

// carriesContext reports whether a value of type t carries a context: it
// has a Context() context.Context method (*http.Request, a framework's
// request context, a gRPC stream).
func carriesContext(t types.Type) bool {
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, "Context")
	fn, ok := obj.(*types.Func)
	if !ok {
		return false
	}
	sig := fn.Signature()
	return sig.Params().Len() == 0 && sig.Results().Len() == 1 && isNamed(sig.Results().At(0).Type(), "context", "Context")
}

// acquiredWithContext reports whether e is a database round trip that
// takes a context (db.BeginTxx(ctx, nil), db.QueryContext(ctx, …)): the
// transaction, connection or rows it returns are bound to that context.
func (c *checker) acquiredWithContext(e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	return ok && catalog.IsDatabaseWait(c.callee(call)) && c.contextArg(call) != nil
}

// buildsSame reports whether e is a method call on a receiver of type t
// that returns t: a builder adding to a statement (db.WithContext(ctx)).
func (c *checker) buildsSame(e ast.Expr, t types.Type) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	recv := c.pass.TypesInfo.TypeOf(sel.X)
	return recv != nil && types.Identical(recv, t)
}

func (c *checker) isContext(e ast.Expr) bool {
	t := c.pass.TypesInfo.TypeOf(e)
	return t != nil && isNamed(t, "context", "Context")
}

// runsPerRequest reports whether fd runs once per request: it takes the
// request (handlesRequest), implements a method another package's handlers
// call through its interface (servedPerRequest), or has the shape of a
// gRPC method (an exported method taking a context and a generated request
// message, returning a response and an error).
func (c *checker) runsPerRequest(fd *ast.FuncDecl) bool {
	if c.handlesRequest(fd) {
		return true
	}
	fn, _ := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
	if fn != nil && c.implementsServed(fn) {
		return true
	}
	if fn == nil || !fn.Exported() || fn.Signature().Recv() == nil {
		return false
	}
	sig := fn.Signature()
	if sig.Params().Len() != 2 || sig.Results().Len() != 2 || sig.Variadic() {
		return false
	}
	if !isNamed(sig.Params().At(0).Type(), "context", "Context") ||
		!types.Identical(sig.Results().At(1).Type(), types.Universe.Lookup("error").Type()) {
		return false
	}
	req, ok := sig.Params().At(1).Type().(*types.Pointer)
	if !ok {
		return false
	}
	obj, _, _ := types.LookupFieldOrMethod(req, false, nil, "ProtoReflect")
	_, isMethod := obj.(*types.Func)
	return isMethod
}

// inLoop reports whether a loop is among stack's nodes.
func inLoop(stack []ast.Node) bool {
	return slices.ContainsFunc(stack, isLoop)
}

// isLoop reports whether n is a for or range statement.
func isLoop(n ast.Node) bool {
	switch n.(type) {
	case *ast.ForStmt, *ast.RangeStmt:
		return true
	}
	return false
}
