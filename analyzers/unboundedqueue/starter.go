package unboundedqueue

import (
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/lazyssa"
)

// startsGoroutine marks a function that starts a goroutine on every call: a
// go statement among the top-level statements of its body (not under an if,
// a loop or a sync.Once's function literal), with no slot taken by the
// function or inside the goroutine, and nothing after it that waits for it
// (a receive, a Wait). A call of it in a loop over input is a go statement
// in that loop: webhook.PostAsync(payload), routine.FireAndForget(f). Not
// transitive: a function that calls one is not marked.
type startsGoroutine struct {
	Where string // the go statement, file:line, for messages
	File  string // the go statement's file and line, for related information
	Line  int
}

func (*startsGoroutine) AFact()           {}
func (f *startsGoroutine) String() string { return "startsGoroutine" }

// learnStarters exports startsGoroutine for this package's functions.
func (c *checker) learnStarters() {
	c.starters = map[*types.Func]*startsGoroutine{}
	forwarders := map[*types.Func]*ast.FuncDecl{}
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
			if obj == nil || c.slotTakers[obj] {
				continue // a function that takes a slot bounds what it starts
			}
			if c.returnsHandle(obj) || c.servesReturnedValue(fd) {
				continue // the caller holds what joins the goroutine: Drain(ch).Wait()
			}
			if g := c.goroutinePerCall(fd); g != nil {
				c.markStarter(obj, c.startFact(g))
			} else {
				forwarders[obj] = fd
			}
		}
	}
	c.learnForwarders(forwarders)
}

// startFact is the fact for a function whose every call starts a goroutine
// at start: a go statement or a starter's call of the catalogue (the go
// statement's own line), or the call of a starter it hands its work to
// (where that one starts it).
func (c *checker) startFact(start ast.Node) *startsGoroutine {
	if call, ok := start.(*ast.CallExpr); ok && !catalog.GoroutineStarters.Has(c.callee(call)) {
		if f := c.starterFact(c.callee(call)); f != nil {
			return &startsGoroutine{Where: f.Where, File: f.File, Line: f.Line}
		}
	}
	p := c.pass.Fset.Position(start.Pos())
	return &startsGoroutine{Where: filepath.Base(p.Filename) + ":" + strconv.Itoa(p.Line), File: p.Filename, Line: p.Line}
}

func (c *checker) markStarter(fn *types.Func, fact *startsGoroutine) {
	c.starters[fn] = fact
	c.pass.ExportObjectFact(fn, fact)
}

// learnForwarders marks the functions that hand the work they are given,
// a func parameter, to a starter on every call (yorkie's Backend.Go, which
// passes f on to its Background.Go): each call starts a goroutine as
// surely as the starter's does. Until no more are found, as one forwarder
// may hand on to another of the package.
func (c *checker) learnForwarders(candidates map[*types.Func]*ast.FuncDecl) {
	for changed := true; changed; {
		changed = false
		for fn, fd := range candidates {
			if g := c.forwardPerCall(fd); g != nil {
				c.markStarter(fn, c.startFact(g))
				delete(candidates, fn)
				changed = true
			}
		}
	}
}

// goroutinePerCall is the go statement fd runs on every call of some kind,
// or nil: one reached through ifs and switches that only look at what the
// call was handed (its parameters, and what the function computed from
// them), with no return before it that state decides. A handler that
// starts its goroutine only for the "since" messages, or only for users
// with an e-mail address, still starts one per such call: what it is
// handed picks the goroutine, and nothing counts them. A guard on state
// (if !started.CompareAndSwap(false, true) { return }, if s.running)
// starts it once, or as often as the state allows.
func (c *checker) goroutinePerCall(fd *ast.FuncDecl) ast.Node {
	found, _ := c.guardsOf(fd, false).firstGo(fd.Body, fd.Body.List)
	return found
}

// forwardPerCall is the call by which fd hands a func parameter of its own
// to a starter on every call of some kind (as goroutinePerCall walks), or
// nil.
func (c *checker) forwardPerCall(fd *ast.FuncDecl) ast.Node {
	found, _ := c.guardsOf(fd, true).firstGo(fd.Body, fd.Body.List)
	return found
}

func (c *checker) guardsOf(fd *ast.FuncDecl, forwards bool) *handedGuards {
	g := &handedGuards{c: c, derived: map[types.Object]bool{}, params: map[types.Object]bool{}, forwards: forwards}
	for _, field := range fd.Type.Params.List {
		for _, name := range field.Names {
			g.derived[c.pass.TypesInfo.Defs[name]] = true
			g.params[c.pass.TypesInfo.Defs[name]] = true
		}
	}
	return g
}

// handedGuards walks a function's statements in order, knowing which of its
// variables hold only what the call was handed (derived).
type handedGuards struct {
	c       *checker
	derived map[types.Object]bool
	params  map[types.Object]bool
	// forwards: look for a call that hands a func parameter to a starter
	// (forwardPerCall), not for a goroutine started here.
	forwards bool
}

// firstGo is the first go statement of list that runs per call (see
// goroutinePerCall); stop is true when the walk must end there: a go
// statement was found (bounded, joined or compute-only ones give nil), or
// a return that state may take comes first. A return of list's own ends
// list only: the calls that take it are of a kind that starts nothing.
func (g *handedGuards) firstGo(body *ast.BlockStmt, list []ast.Stmt) (found ast.Node, stop bool) {
	for _, s := range list {
		switch s := s.(type) {
		case *ast.GoStmt:
			if g.forwards {
				return nil, true
			}
			return g.c.perCallGo(body, s, s.Call.Fun), true
		case *ast.ExprStmt:
			if start, work := g.startCall(s); start != nil {
				return g.c.perCallGo(body, start, work), true
			}
		case *ast.SelectStmt:
			if g.c.shutdownCheck(body, s) {
				continue // returns only once the process shuts the runner down
			}
		case *ast.ReturnStmt:
			return nil, false // this kind of call ends here; the others go on
		case *ast.IfStmt:
			if found, stop := g.ifGo(body, s); stop {
				return found, true
			}
			continue
		case *ast.SwitchStmt:
			if g.handedStmt(s.Init) && (s.Tag == nil || g.handed(s.Tag)) && g.handedCases(s) {
				for _, cc := range s.Body.List {
					if found, stop := g.firstGo(body, cc.(*ast.CaseClause).Body); stop {
						return found, true
					}
				}
				continue
			}
		case *ast.AssignStmt, *ast.DeclStmt:
			g.learn(s)
		}
		if returns(s) {
			return nil, true
		}
	}
	return nil, false
}

// ifGo walks an if statement whose condition looks only at what the call
// was handed into both branches; another one stops the walk if it returns.
func (g *handedGuards) ifGo(body *ast.BlockStmt, s *ast.IfStmt) (ast.Node, bool) {
	if !g.handedStmt(s.Init) || !g.handed(s.Cond) || g.modeFlag(s.Cond) {
		return nil, returns(s)
	}
	if found, stop := g.firstGo(body, s.Body.List); stop {
		return found, true
	}
	switch e := s.Else.(type) {
	case *ast.BlockStmt:
		return g.firstGo(body, e.List)
	case *ast.IfStmt:
		return g.ifGo(body, e)
	}
	return nil, false
}

// modeFlag reports whether cond is a bool parameter, or its negation
// (PostMaybe(p, async)): the caller's choice of how to run, which it may
// make once for all its calls, not something each call carries.
func (g *handedGuards) modeFlag(cond ast.Expr) bool {
	cond = ast.Unparen(cond)
	if not, ok := cond.(*ast.UnaryExpr); ok && not.Op == token.NOT {
		cond = ast.Unparen(not.X)
	}
	id, ok := cond.(*ast.Ident)
	if !ok {
		return false
	}
	obj := g.c.pass.TypesInfo.Uses[id]
	return g.params[obj] && types.Identical(obj.Type().Underlying(), types.Typ[types.Bool])
}

// handedStmt learns an if's or switch's init statement, and reports
// whether it computes only from what the call was handed.
func (g *handedGuards) handedStmt(s ast.Stmt) bool {
	if s == nil {
		return true
	}
	as, ok := s.(*ast.AssignStmt)
	if !ok {
		return false
	}
	g.learn(as)
	return slices.IndexFunc(as.Rhs, func(e ast.Expr) bool { return !g.handed(e) }) < 0
}

func (g *handedGuards) handedCases(s *ast.SwitchStmt) bool {
	for _, cc := range s.Body.List {
		for _, e := range cc.(*ast.CaseClause).List {
			if !g.handed(e) {
				return false
			}
		}
	}
	return true
}

// learn marks the variables an assignment or declaration sets from what
// the call was handed (or a declaration's zero value), and unmarks the
// others.
func (g *handedGuards) learn(s ast.Stmt) {
	info := g.c.pass.TypesInfo
	set := func(lhs []*ast.Ident, rhs []ast.Expr) {
		ok := slices.IndexFunc(rhs, func(e ast.Expr) bool { return !g.handed(e) }) < 0
		for _, id := range lhs {
			if obj := info.ObjectOf(id); obj != nil && obj.Parent() != nil && obj.Parent() != obj.Pkg().Scope() {
				g.derived[obj] = ok
			}
		}
	}
	switch s := s.(type) {
	case *ast.AssignStmt:
		var lhs []*ast.Ident
		for _, e := range s.Lhs {
			if id, ok := e.(*ast.Ident); ok {
				lhs = append(lhs, id)
			}
		}
		set(lhs, s.Rhs)
	case *ast.DeclStmt:
		if gd, ok := s.Decl.(*ast.GenDecl); ok && gd.Tok == token.VAR {
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				set(vs.Names, vs.Values)
			}
		}
	}
}

// handed reports whether e computes only from what the call was handed:
// its identifiers are derived variables, constants, types, package names
// and functions, and every call in it is handed an argument (a call with
// none, isEnabled(), reads state).
func (g *handedGuards) handed(e ast.Expr) bool {
	info := g.c.pass.TypesInfo
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			ok = false
		case *ast.IndexExpr:
			// An entry of a map kept in a field is state, whoever holds it:
			// the servers started so far, keyed by port (argo-events'
			// controller.ActiveServerHandlers[port]), not what the call
			// was handed. A map the call was handed itself is input.
			if _, isMap := info.TypeOf(n.X).Underlying().(*types.Map); isMap {
				if _, isIdent := ast.Unparen(n.X).(*ast.Ident); !isIdent {
					ok = false
					return false
				}
			}
		case *ast.CallExpr:
			if len(n.Args) == 0 && info.Types[n.Fun].IsValue() {
				ok = isMethodOfDerived(info, n.Fun, g.derived)
			}
		case *ast.SelectorExpr:
			if id, isIdent := n.X.(*ast.Ident); isIdent {
				if _, pkg := info.Uses[id].(*types.PkgName); pkg {
					_, isVar := info.Uses[n.Sel].(*types.Var)
					ok = !isVar // a package's variable is state
					return false
				}
			}
			ok = g.handed(n.X)
			return false
		case *ast.Ident:
			switch obj := info.Uses[n].(type) {
			case *types.Var:
				ok = g.derived[obj]
			case nil, *types.Const, *types.TypeName, *types.PkgName, *types.Builtin, *types.Nil, *types.Func:
			default:
				ok = false
			}
		}
		return ok
	})
	return ok
}

// isMethodOfDerived reports whether fun is a method of a derived value
// (message.Type(), ed.Valid()): a question about what the call was handed.
func isMethodOfDerived(info *types.Info, fun ast.Expr, derived map[types.Object]bool) bool {
	sel, ok := ast.Unparen(fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	return ok && derived[info.Uses[id]]
}

// perCallGo is start, which starts work in a goroutine, unless what it
// starts is bounded, joined or only computes.
func (c *checker) perCallGo(body *ast.BlockStmt, start ast.Node, work ast.Expr) ast.Node {
	if c.slotTriedInside(c.workBody(work)) || c.waitsAfter(body, start.End()) {
		return nil // bounded or joined
	}
	if !lazyssa.FactsOnly() && computesOnly(c.ssaFuncOfWork(work)) {
		// It ends on its own in CPU time. Asked only in the program's own
		// packages: the question builds the package's SSA, which a
		// dependency analysed for its facts (the runtime's) would pay for
		// every go statement it has.
		return nil
	}
	return start
}

// startCall is the call s makes that starts a goroutine, with the work it
// runs: a starter of the catalogue handed a function (a WaitGroup's Go) or,
// when g looks for forwarders, a starter handed one of the function's own
// func parameters.
func (g *handedGuards) startCall(s *ast.ExprStmt) (ast.Node, ast.Expr) {
	call, ok := ast.Unparen(s.X).(*ast.CallExpr)
	if !ok || len(call.Args) == 0 {
		return nil, nil
	}
	fn := g.c.callee(call)
	if !g.forwards {
		if catalog.GoroutineStarters.Has(fn) {
			return call, call.Args[0]
		}
		return nil, nil
	}
	if g.c.starterFact(fn) == nil {
		return nil, nil
	}
	for _, a := range call.Args {
		if id, ok := ast.Unparen(a).(*ast.Ident); ok && g.params[g.c.pass.TypesInfo.Uses[id]] {
			if _, isFunc := g.c.pass.TypesInfo.TypeOf(id).Underlying().(*types.Signature); isFunc {
				return call, id
			}
		}
	}
	return nil, nil
}

// shutdownCheck reports whether s, in a function whose body is body, only
// asks whether a channel is closed: a case that receives from it and
// returns, and a default that goes on. The function neither closes nor
// sends on the channel, so the check turns true once, when whatever owns
// the channel shuts down (yorkie's Background.Go skipping work after
// Close); until then every call goes on. A once-guard closes its channel
// itself.
func (c *checker) shutdownCheck(body *ast.BlockStmt, s *ast.SelectStmt) bool {
	var ch ast.Expr
	hasDefault := false
	for _, cl := range s.Body.List {
		cc := cl.(*ast.CommClause)
		if cc.Comm == nil {
			hasDefault = true
			if slices.ContainsFunc(cc.Body, returns) {
				return false
			}
			continue
		}
		recv := receivedFrom(cc.Comm)
		if recv == nil || ch != nil || !slices.ContainsFunc(cc.Body, returns) {
			return false
		}
		ch = recv
	}
	return hasDefault && ch != nil && !c.closesOrSends(body, ch)
}

// receivedFrom is the channel a select case's plain receive (<-ch, with
// its value dropped or assigned) reads, or nil.
func receivedFrom(comm ast.Stmt) ast.Expr {
	var e ast.Expr
	switch comm := comm.(type) {
	case *ast.ExprStmt:
		e = comm.X
	case *ast.AssignStmt:
		if len(comm.Rhs) == 1 {
			e = comm.Rhs[0]
		}
	}
	if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && u.Op == token.ARROW {
		return u.X
	}
	return nil
}

// closesOrSends reports whether body, function literals included, closes
// ch or sends on it.
func (c *checker) closesOrSends(body *ast.BlockStmt, ch ast.Expr) bool {
	same := func(e ast.Expr) bool { return types.ExprString(ast.Unparen(e)) == types.ExprString(ast.Unparen(ch)) }
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SendStmt:
			found = found || same(n.Chan)
		case *ast.CallExpr:
			if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok && id.Name == "close" && len(n.Args) == 1 {
				if _, builtin := c.pass.TypesInfo.Uses[id].(*types.Builtin); builtin {
					found = found || same(n.Args[0])
				}
			}
		}
		return !found
	})
	return found
}

// startsPerCall is where fn starts its goroutine (a fact), or "".
func (c *checker) startsPerCall(fn *types.Func) string {
	if f := c.starterFact(fn); f != nil {
		return f.Where
	}
	return ""
}

// goroutineStartOf is the position of the go statement fn runs on every
// call, for related information: the line that starts what the loop
// multiplies, in this package or another.
func (c *checker) goroutineStartOf(fn *types.Func) token.Pos {
	if f := c.starterFact(fn); f != nil {
		return c.posOf(f.File, f.Line)
	}
	return token.NoPos
}

func (c *checker) starterFact(fn *types.Func) *startsGoroutine {
	if fn == nil {
		return nil
	}
	fn = fn.Origin()
	if f, ok := c.starters[fn]; ok {
		return f
	}
	var fact startsGoroutine
	if fn.Pkg() != nil && fn.Pkg() != c.pass.Pkg && c.pass.ImportObjectFact(fn, &fact) {
		return &fact
	}
	return nil
}

// funcArgBody is the body of the first function literal among args (the
// work FireAndForget(func() { … }) runs), or nil.
func (c *checker) funcArgBody(args []ast.Expr) *ast.BlockStmt {
	if lit, ok := firstFuncLit(args).(*ast.FuncLit); ok {
		return lit.Body
	}
	return nil
}

// firstFuncLit is the first function literal among args, or nil.
func firstFuncLit(args []ast.Expr) ast.Expr {
	for _, a := range args {
		if lit, ok := ast.Unparen(a).(*ast.FuncLit); ok {
			return lit
		}
	}
	return nil
}

// returns reports whether s contains a return outside function literals.
func returns(s ast.Stmt) bool {
	return holds(s, func(n ast.Node) bool {
		_, ok := n.(*ast.ReturnStmt)
		return ok
	})
}

// holds reports whether s contains, outside function literals, a node
// that match accepts.
func holds(s ast.Stmt, match func(ast.Node) bool) bool {
	found := false
	ast.Inspect(s, func(n ast.Node) bool {
		if _, lit := n.(*ast.FuncLit); lit || found {
			return false
		}
		found = match(n)
		return !found
	})
	return found
}

// servesReturnedValue reports whether a goroutine fd starts shares a
// channel of fd's own with a value fd returns (minio's GetObject returning
// newObject(ctx, cancel, reqCh, resCh), whose reads the goroutine feeds
// through reqCh): the goroutine serves that value, one per handle the
// caller holds and uses, paced by the caller's reads; not work per call.
func (c *checker) servesReturnedValue(fd *ast.FuncDecl) bool {
	info := c.pass.TypesInfo
	chans := func(n ast.Node) map[types.Object]bool {
		out := map[types.Object]bool{}
		ast.Inspect(n, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if v, ok := info.Uses[id].(*types.Var); ok && v.Parent() != nil && v.Parent() != v.Pkg().Scope() {
					if _, isChan := v.Type().Underlying().(*types.Chan); isChan {
						out[v] = true
					}
				}
			}
			return true
		})
		return out
	}
	returned := map[types.Object]bool{}
	var started []ast.Node
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ReturnStmt:
			for _, r := range n.Results {
				maps.Copy(returned, chans(r))
			}
		case *ast.GoStmt:
			started = append(started, n.Call)
		}
		return true
	})
	for _, g := range started {
		for ch := range chans(g) {
			if returned[ch] {
				return true
			}
		}
	}
	return false
}

// returnsHandle reports whether fn returns a channel, a *sync.WaitGroup or
// a func: a handle on what it started, with which its caller can wait for
// the goroutine (Drain(ch).Wait(), a fan-in's output channel).
func (c *checker) returnsHandle(fn *types.Func) bool {
	results := fn.Signature().Results()
	for i := range results.Len() {
		switch t := results.At(i).Type(); t.Underlying().(type) {
		case *types.Chan, *types.Signature:
			return true
		default:
			if isNamed(t, "sync", "WaitGroup") {
				return true
			}
		}
	}
	return false
}
