package unboundedqueue

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/entrypoints"
	"github.com/bhlint/bhlint/internal/guard"
	"github.com/bhlint/bhlint/internal/netio"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// parksOnSend marks a function that sends on a channel its value or its
// package shares (a field, a package variable) and waits until a consumer
// takes the value: a plain send, or a select with no default and no
// deadline. A goroutine that calls it waits as long as the consumers are
// busy. Also a function that calls one in its own goroutine (not in a
// function literal or a go statement, not on a value it made itself, not
// one that takes a slot: a semaphore is a bound), and an interface method
// that a type of the interface's own package implements with one
// (Worker.LaunchCampaign, whose DefaultWorker hands the batch to the
// mailer's unbuffered queue): Via names the call it parks through.
//
// Owner, when positive, says the channel hangs off the function's
// parameter Owner-1 (the receiver counting first): c.writeTimeout in a
// method of c. A caller that passes a value it made itself (a websocket
// connection the request accepted, whose consumer goroutine the
// connection started) parks on that value's own queue, not on one every
// request shares. 0: a package variable, or a field of something else.
//
// File and Line, when File is set, are where the send is, through every
// Via: a queue's send, whose value is no struct{} (a signal, a semaphore's
// slot) on a channel the package does not hand to its importers, in the
// program's own code: a dependency's channels are its machinery (go-ldap's
// message channel, fed per request and drained by the connection's own
// loop), as the standard library's are, and not the program's to bound. A
// request's path in another package that calls the function waits there
// (checkRequestCallsParked), and that line is the one to change.
type parksOnSend struct {
	Chan, Via string
	Owner     int
	File      string
	Line      int
}

func (*parksOnSend) AFact() {}
func (f *parksOnSend) String() string {
	if f.Via != "" {
		return "parksOnSend(" + f.Chan + " via " + f.Via + ")"
	}
	return "parksOnSend(" + f.Chan + ")"
}

// learnParkers exports parksOnSend for this package's functions and
// interface methods, to a fixed point over the calls between them.
func (c *checker) learnParkers() {
	c.parkers = map[*types.Func]*parksOnSend{}
	calls := map[*types.Func][]*ast.CallExpr{}
	decls := map[*types.Func]*ast.FuncDecl{}
	var order []*types.Func // calls' keys in source order: which callee a round finds first is in the fact
	for _, f := range c.pass.Files {
		if c.isTest(f) {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			obj, _ := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if obj == nil {
				continue
			}
			if send := c.waitingSend(fd.Body); send != nil {
				f := &parksOnSend{Chan: types.ExprString(send.Chan), Owner: paramOwner(c.pass.TypesInfo, fd, send.Chan)}
				if !c.dependency && c.queueSend(fd, send) {
					p := c.pass.Fset.Position(send.Pos())
					f.File, f.Line = p.Filename, p.Line
					guard.Anchor(c.pass, send.Pos()) // a request's path in an importer may report it here
				}
				c.parkers[obj] = f
				continue
			}
			if inModule(c.pass.Pkg) {
				calls[obj] = c.parkingCandidates(fd)
				decls[obj] = fd
				order = append(order, obj)
			}
		}
	}
	// The standard library parks inside its own machinery (an HTTP
	// transport's writer loop): only its own sends are facts, not what
	// reaches them.
	var impls []ssautil.MethodImplementation
	if inModule(c.pass.Pkg) {
		impls = ssautil.LocalImplementations(c.pass.Pkg)
	}
	for changed := true; changed; {
		changed = false
		for _, fn := range order {
			if c.parkers[fn] != nil {
				continue
			}
			for _, call := range calls[fn] {
				callee := c.callee(call)
				f := c.parkFact(callee)
				if f == nil || !inModule(callee.Pkg()) || c.takesSlotByCall(callee) {
					continue
				}
				owner := 0
				if arg := c.ownerArg(call, f); arg != nil {
					if c.madeIn(decls[fn], arg) {
						continue // the queue of a value fn made itself
					}
					owner = paramOwner(c.pass.TypesInfo, decls[fn], arg)
				}
				c.parkers[fn] = &parksOnSend{Chan: f.Chan, Via: c.calleeName(call), Owner: owner, File: f.File, Line: f.Line}
				changed = true
				break
			}
		}
		for _, im := range impls {
			if c.parkers[im.Method] == nil && c.parkers[im.Impl] != nil && !c.slotTakers[im.Impl] {
				f := c.parkers[im.Impl]
				via := f.Via
				if via == "" {
					via = netio.Name(im.Impl)
				}
				m := &parksOnSend{Chan: f.Chan, Via: via, Owner: f.Owner}
				if c.everyImplQueues(impls, im.Method) {
					m.File, m.Line = f.File, f.Line
				}
				c.parkers[im.Method] = m
				changed = true
			}
		}
	}
	for fn, f := range c.parkers {
		c.pass.ExportObjectFact(fn, f)
	}
}

// everyImplQueues reports whether every implementation of method among
// impls parks on a queue's send (parksOnSend with its line): a request
// that calls through the interface waits there whichever runs. One that
// does not (the production logger beside a test double whose writes go to
// a channel) leaves the call's wait to the implementation wired in, which
// this package cannot know: the interface method still parks for a
// goroutine that runs it, but no send is reported through it.
func (c *checker) everyImplQueues(impls []ssautil.MethodImplementation, method *types.Func) bool {
	for _, im := range impls {
		if im.Method == method && (c.parkers[im.Impl] == nil || c.parkers[im.Impl].File == "") {
			return false
		}
	}
	return true
}

// inModule reports whether pkg is a module's package, not the standard
// library's: the first element of its import path has a dot
// (github.com/…, example.com/…).
func inModule(pkg *types.Package) bool {
	if pkg == nil {
		return false
	}
	first, _, _ := strings.Cut(pkg.Path(), "/")
	return strings.Contains(first, ".")
}

// parkingCandidates are the calls fd makes in its own goroutine (outside
// function literals and go statements) other than on a value it made
// itself: the calls through which it may park.
func (c *checker) parkingCandidates(fd *ast.FuncDecl) []*ast.CallExpr {
	var out []*ast.CallExpr
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit, *ast.GoStmt:
			return false
		case *ast.SelectStmt:
			return false // a select waits only as its cases do
		case *ast.CallExpr:
			if c.callee(n) != nil && !c.madeHere(fd, n.Fun) {
				out = append(out, n)
			}
		}
		return true
	})
	return out
}

// waitingSend is the send on a shared channel body makes with nothing to
// give up the wait but another shared channel (a shutdown signal), or nil.
func (c *checker) waitingSend(body *ast.BlockStmt) *ast.SendStmt {
	var send *ast.SendStmt
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.SelectStmt:
			if s := c.selectWithoutEscape(n); s != nil && c.sharedAcrossCalls(s.Chan) && !c.drainedFreely(s.Chan) {
				send = s
			}
			return false // a send in a select waits only as the select does
		case *ast.SendStmt:
			if c.sharedAcrossCalls(n.Chan) && !c.drainedFreely(n.Chan) && !c.tokenGivenBack(body, n) {
				send = n
			}
		}
		return send == nil
	})
	return send
}

// queueSend reports whether send, in fd, hands a value to a queue's
// consumer, as shape 10 judges a send: not struct{} (a signal, or a
// semaphore's slot, a bound of its own), on a channel of no value fd made
// itself (o := r.Open(url); o.req <- n: the object's own goroutine, one
// per handle), on a channel the package does not make for its importers
// to read (handedToImporters: a consumer this package cannot see).
func (c *checker) queueSend(fd *ast.FuncDecl, send *ast.SendStmt) bool {
	if t := c.pass.TypesInfo.TypeOf(send.Value); t == nil || isEmptyStruct(t) {
		return false
	}
	if root := rootIdent(send.Chan); root != nil && c.madeIn(fd, root) {
		return false
	}
	id := identOf(send.Chan)
	return id == nil || !c.handedToImporters(c.pass.TypesInfo.ObjectOf(id))
}

// tokenGivenBack reports whether send puts back on its channel a value
// body received from that channel (t := <-l.tokens … l.tokens <- t): a
// token returned to the slot its receive emptied, which cannot wait.
func (c *checker) tokenGivenBack(body *ast.BlockStmt, send *ast.SendStmt) bool {
	id, ok := ast.Unparen(send.Value).(*ast.Ident)
	if !ok || c.pass.TypesInfo.Uses[id] == nil {
		return false
	}
	tok := c.pass.TypesInfo.Uses[id]
	want := types.ExprString(send.Chan)
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Rhs) != 1 || len(as.Lhs) == 0 {
			return !found
		}
		recv, ok := ast.Unparen(as.Rhs[0]).(*ast.UnaryExpr)
		lhs, isIdent := as.Lhs[0].(*ast.Ident)
		if ok && isIdent && recv.Op == token.ARROW && c.pass.TypesInfo.ObjectOf(lhs) == tok && types.ExprString(recv.X) == want {
			found = true
		}
		return !found
	})
	return found
}

// paramOwner is 1 + the index of fd's parameter (the receiver first) that
// e is, or is a field of (c.writeTimeout, c.conn.queue), or 0.
func paramOwner(info *types.Info, fd *ast.FuncDecl, e ast.Expr) int {
	x := rootIdent(e)
	if x == nil {
		return 0
	}
	obj := info.ObjectOf(x)
	i := 0
	for _, list := range []*ast.FieldList{fd.Recv, fd.Type.Params} {
		if list == nil {
			continue
		}
		for _, field := range list.List {
			for _, name := range field.Names {
				i++
				if info.Defs[name] == obj {
					return i
				}
			}
			if len(field.Names) == 0 {
				i++
			}
		}
	}
	return 0
}

// ownerArg is the argument of call (the receiver first) at the parameter
// the callee's queue hangs off (f.Owner), or nil.
func (c *checker) ownerArg(call *ast.CallExpr, f *parksOnSend) ast.Expr {
	if f.Owner <= 0 {
		return nil
	}
	args := call.Args
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if s := c.pass.TypesInfo.Selections[sel]; s != nil && s.Kind() == types.MethodVal {
			args = append([]ast.Expr{sel.X}, call.Args...)
		}
	}
	if f.Owner-1 < len(args) {
		return args[f.Owner-1]
	}
	return nil
}

// madeIn reports whether e is a local variable fd declares: a value it
// made itself.
func (c *checker) madeIn(fd *ast.FuncDecl, e ast.Expr) bool {
	v := c.localVar(e)
	return fd != nil && v != nil && v.Pos() >= fd.Body.Pos() && v.Pos() < fd.Body.End()
}

// selectWithoutEscape is the send of a select that has no default and no
// case that fires on time or on the caller's context (time.After,
// ctx.Done(): a call), so it waits until a consumer takes the value.
func (c *checker) selectWithoutEscape(sel *ast.SelectStmt) *ast.SendStmt {
	var send *ast.SendStmt
	for _, cl := range sel.Body.List {
		cc := cl.(*ast.CommClause)
		if s, ok := cc.Comm.(*ast.SendStmt); ok {
			send = s
		} else if givesUp(cc) {
			return nil
		}
	}
	return send
}

// givesUp reports whether a select's case fires with no partner on its
// channel: the default, or a receive from a call (time.After, ctx.Done()).
func givesUp(cc *ast.CommClause) bool {
	if cc.Comm == nil {
		return true
	}
	escape := false
	ast.Inspect(cc.Comm, func(n ast.Node) bool {
		if u, ok := n.(*ast.UnaryExpr); ok && u.Op == token.ARROW {
			_, call := ast.Unparen(u.X).(*ast.CallExpr)
			escape = escape || call
		}
		return !escape
	})
	return escape
}

// parkFact is what fn waits to send on (a fact), or nil.
func (c *checker) parkFact(fn *types.Func) *parksOnSend {
	if fn == nil {
		return nil
	}
	fn = fn.Origin()
	if f, ok := c.parkers[fn]; ok {
		return f
	}
	var fact parksOnSend
	if fn.Pkg() != nil && fn.Pkg() != c.pass.Pkg && c.pass.ImportObjectFact(fn, &fact) {
		return &fact
	}
	return nil
}

// parksOn is the channel fn waits to send on, with the call it parks
// through when it is not its own send, or "".
func (c *checker) parksOn(fn *types.Func) string {
	f := c.parkFact(fn)
	switch {
	case f == nil:
		return ""
	case f.Via != "":
		return f.Chan + " (through " + f.Via + ")"
	}
	return f.Chan
}

// checkParkedPerRequest finds, in an HTTP handler, a go statement outside
// any loop that runs a function parked on a send to a shared queue (go
// pool.Push(jobs) where Push waits for a fixed set of workers): each request
// leaves one more goroutine waiting, and nothing caps how many. Silent when
// an if around it tests time (time.Since: a refresh interval) or a limiter,
// and when the value it parks on is one the function made (madeHere).
//
// A message handler the package subscribes with a broker's client
// (detachesPerMessage) runs once per message: the same go statement there
// leaves one goroutine per message waiting.
func (c *checker) checkParkedPerRequest(fd *ast.FuncDecl) {
	unit := "request"
	if !c.handlesRequest(fd) {
		if !c.detachesPerMessage(fd) {
			return
		}
		unit = "message"
	}
	ast.PreorderStack(fd.Body, nil, func(n ast.Node, stack []ast.Node) bool {
		g, ok := n.(*ast.GoStmt)
		if !ok {
			return true
		}
		ch := c.parksOn(c.callee(g.Call))
		if ch == "" || inLoopOrLit(stack) || c.rateGuarded(stack) || c.madeHere(fd, g.Call.Fun) || c.parksOnOwnValue(fd, g.Call) {
			return true
		}
		c.report(g.Pos(), token.NoPos, "",
			"goroutine per %s: this go statement leaves one goroutine per %s waiting to send on %s "+
				"until a consumer takes it, with nothing capping how many wait; send with a select that has a "+
				"default (reject when the queue is full) or take a slot before starting it", unit, unit, ch)
		return true
	})
}

// parksOnOwnValue reports whether call parks on a queue of a value fd made
// itself and passes (go httpapi.Heartbeat(ctx, conn), conn the websocket
// the request accepted): one queue per request, with its own consumer.
func (c *checker) parksOnOwnValue(fd *ast.FuncDecl, call *ast.CallExpr) bool {
	f := c.parkFact(c.callee(call))
	if f == nil {
		return false
	}
	arg := c.ownerArg(call, f)
	return arg != nil && c.madeIn(fd, arg)
}

// madeHere reports whether fun is a method of a value fd made itself (a
// local variable it declares: sess := importer.NewSession(opt); go
// sess.LoadCSV(path)): its queue is the request's own, with the consumer
// the request starts, not one shared by every request.
func (c *checker) madeHere(fd *ast.FuncDecl, fun ast.Expr) bool {
	sel, ok := ast.Unparen(fun).(*ast.SelectorExpr)
	return ok && c.madeIn(fd, sel.X)
}

// handlesRequest reports whether fd takes an *http.Request, or a
// framework's context that carries one (carriesRequest): it runs once per
// request.
func (c *checker) handlesRequest(fd *ast.FuncDecl) bool {
	fn, _ := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
	if fn == nil {
		return false
	}
	if !takesRequest(fn.Signature()) {
		return false
	}
	// Asked second, of the few functions handed a request: a receiver's
	// method set is costly to look up.
	recv := fn.Signature().Recv()
	return recv == nil || !isClientTransport(recv.Type()) // not the client's own outgoing request
}

// takesRequest reports whether sig takes an *http.Request or a framework's
// context that carries one (entrypoints.CarriesRequest).
func takesRequest(sig *types.Signature) bool {
	for p := range sig.Params().Variables() {
		if entrypoints.CarriesRequest(p.Type()) {
			return true
		}
	}
	return false
}

// isClientTransport reports whether t, or a pointer to it, sends requests:
// an http.RoundTripper, or a request doer (Do(*http.Request)
// (*http.Response, error), the interface generated API clients send
// through), by a RoundTrip or Do declared on it (not promoted from an
// embedded transport), and is no http.Handler: its methods handle the
// requests its client sends (a transport that adds a token, retries,
// logs), not requests the process answers, however many of them take an
// *http.Request. A proxy that serves requests and is its own transport
// answers requests.
func isClientTransport(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	ptr := types.NewPointer(t)
	if serve, _, _ := types.LookupFieldOrMethod(ptr, false, nil, "ServeHTTP"); serve != nil {
		return false
	}
	for _, name := range []string{"RoundTrip", "Do"} {
		obj, index, _ := types.LookupFieldOrMethod(ptr, false, nil, name)
		if fn, ok := obj.(*types.Func); ok && len(index) == 1 && sendsRequest(fn.Signature()) {
			return true
		}
	}
	return false
}

// sendsRequest: sig takes a request and returns the response to it and an
// error, as RoundTrip and a doer's Do do.
func sendsRequest(sig *types.Signature) bool {
	return sig.Params().Len() == 1 && sig.Results().Len() == 2 &&
		entrypoints.CarriesRequest(sig.Params().At(0).Type()) && isNamed(sig.Results().At(0).Type(), "net/http", "Response")
}

func inLoopOrLit(stack []ast.Node) bool {
	return slices.ContainsFunc(stack, func(n ast.Node) bool {
		_, lit := n.(*ast.FuncLit)
		return lit || isLoop(n)
	})
}

// rateGuarded reports whether an if around the statement tests time.Since
// or time.Until (a minimum interval between runs) or calls a limiter.
func (c *checker) rateGuarded(stack []ast.Node) bool {
	for _, n := range stack {
		ifs, ok := n.(*ast.IfStmt)
		if !ok {
			continue
		}
		guarded := false
		ast.Inspect(ifs.Cond, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				fn := c.callee(call)
				guarded = guarded || fn != nil &&
					(fn.FullName() == "time.Since" || fn.FullName() == "time.Until" || catalog.Limiters.Has(fn))
			}
			return !guarded
		})
		if guarded {
			return true
		}
	}
	return false
}

// drainedFreely reports whether ch, a field or package variable of a
// module's package, is an actor's mailbox (isMailbox): every consumer in
// the package is back at its receive as soon as the CPU lets it (goalert's
// remote monitor, whose waitLoop moves names in and out of a map), so a
// sender waits for no one's I/O and does not park.
func (c *checker) drainedFreely(ch ast.Expr) bool {
	if !inModule(c.pass.Pkg) {
		return false // the standard library's sends are its machinery's facts, as they are
	}
	id := identOf(ch)
	if id == nil {
		return false
	}
	if t, ok := c.pass.TypesInfo.TypeOf(ch).Underlying().(*types.Chan); !ok || isEmptyStruct(t.Elem()) {
		return false // a semaphore's slot: its receive runs when the holder is done, not when a loop comes round
	}
	obj := c.pass.TypesInfo.ObjectOf(id)
	return c.receivedInPackage(obj) && c.isMailbox(obj)
}

// receivedInPackage reports whether a file of the package receives from
// the channel variable obj (a receive, a select case, a range): without
// one it has no consumer here, and isMailbox, which needs the package's
// SSA, would say no anyway (a dependency analysed for facts builds none).
func (c *checker) receivedInPackage(obj types.Object) bool {
	found := false
	for _, f := range c.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			var ch ast.Expr
			switch n := n.(type) {
			case *ast.UnaryExpr:
				if n.Op == token.ARROW {
					ch = n.X
				}
			case *ast.RangeStmt:
				ch = n.X
			}
			if id := identOf(ch); ch != nil && id != nil && c.pass.TypesInfo.ObjectOf(id) == obj {
				found = true
			}
			return !found
		})
	}
	return found
}
