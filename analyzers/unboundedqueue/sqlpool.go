package unboundedqueue

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/guard"
	"github.com/bhlint/bhlint/internal/lazyssa"
	"github.com/bhlint/bhlint/internal/pkgscope"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// openSite is a call that hands this function a *sql.DB with no maximum:
// sql.Open, sql.OpenDB, or a function that returns one (a fact).
type openSite struct {
	call     *ast.CallExpr
	opener   string       // "sql.Open", "store.Open"
	origin   token.Pos    // the sql.Open this package can point at, if any
	bounded  bool         // SetMaxOpenConns(n > 0) on it, here or in a callee
	zeroed   bool         // SetMaxOpenConns(n <= 0) on it
	onlyIf   string       // the condition a SetMaxOpenConns(n) on it is under, testing n
	result   int          // the index of the pool among the call's results
	returned int          // the result index it is returned as, or -1
	escape   string       // how it escapes first: "stored", "passed on", "used by a closure"
	shared   bool         // it escapes otherwise than as an argument of a call
	vars     []*types.Var // the local variables that hold it
	opens    []openAt     // the calls that open it, at the bottom of the chain
}

// checkSQLPools finds *sql.DB pools that escape without SetMaxOpenConns
// (shape 3). A function that returns one exports opensUnboundedDB so that
// its callers, in any package, check instead.
func (c *checker) checkSQLPools() {
	c.learnBounders()
	c.openers = map[*types.Func]*opensUnboundedDB{}
	var funcs []*ast.FuncDecl
	for _, f := range c.pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				funcs = append(funcs, fd)
			}
		}
	}
	// Openers first, to a fixed point: a helper that returns what another
	// helper opened is an opener too.
	for changed := true; changed; {
		changed = false
		for _, fd := range funcs {
			fn, _ := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if fn == nil || c.openers[fn] != nil {
				continue
			}
			for _, site := range c.openSites(fd) {
				if site.handsBack() {
					c.openers[fn] = &opensUnboundedDB{Result: site.returned, Opener: site.opener}
					changed = true
					break
				}
			}
		}
	}
	ifaceOpeners := c.learnInterfaceOpeners()
	c.learnOpens(funcs, ifaceOpeners)
	if !c.serving || lazyssa.FactsOnly() {
		return // a one-shot command's pool ends with it; or nothing is reported here
	}
	provided := c.providedToContainer()
	for _, fd := range funcs {
		if c.isTest(c.fileOf(fd)) || c.takesTesting(fd) {
			continue // test code, in a _test.go file or a fixture package
		}
		fn, _ := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
		for _, site := range c.openSites(fd) {
			switch {
			case !site.handsBack():
				if !c.closedOnReturn(fd, site) {
					c.reportOpen(site)
				}
			case provided[fn] != "":
				// No caller of the program's gets it: the container does,
				// and keeps it. The open here is the line to change.
				site.escape = "handed back to the container it is provided to (" + provided[fn] + "), which keeps it for the process's life,"
				site.shared = true
				c.reportOpen(site)
			}
		}
	}
}

// providedToContainer finds the package's functions handed to a
// dependency-injection container as constructors (fx.Provide(newSQL),
// fx.Provide(fx.Annotate(newSQL, …)), dig's c.Provide(newSQL)), with the
// call that provides them.
func (c *checker) providedToContainer() map[*types.Func]string {
	provided := map[*types.Func]string{}
	for _, f := range c.pass.Files {
		if c.isTest(f) {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || !catalog.ContainerProviders.Has(c.callee(call)) {
				return true
			}
			for _, arg := range call.Args {
				if fn := c.constructorIn(arg); fn != nil && fn.Pkg() == c.pass.Pkg {
					provided[fn] = c.calleeName(call)
				}
			}
			return true
		})
	}
	return provided
}

// constructorIn is the function arg names (newSQL, pkg.NewSQL), through a
// ContainerWrapper (fx.Annotate(newSQL, …)).
func (c *checker) constructorIn(arg ast.Expr) *types.Func {
	arg = ast.Unparen(arg)
	if call, ok := arg.(*ast.CallExpr); ok && catalog.ContainerWrappers.Has(c.callee(call)) && len(call.Args) > 0 {
		arg = ast.Unparen(call.Args[0])
	}
	id := identOf(arg)
	if id == nil {
		return nil
	}
	fn, _ := c.pass.TypesInfo.Uses[id].(*types.Func)
	return fn
}

// learnOpens records, for each opener of the package, the calls that open
// its pool at the bottom of the chain, over every branch that hands one
// back (an opener choosing among drivers has one per driver), and exports
// the facts. A few rounds settle openers that call each other.
func (c *checker) learnOpens(funcs []*ast.FuncDecl, ifaceOpeners map[*types.Func][]*types.Func) {
	for range 3 {
		for _, fd := range funcs {
			fn, _ := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
			f := c.openers[fn]
			if f == nil {
				continue
			}
			f.Opens = nil
			f.Generated = ast.IsGenerated(c.fileOf(fd))
			for _, site := range c.openSites(fd) {
				if site.handsBack() {
					f.Opens = appendOpens(f.Opens, site.opens...)
				}
			}
		}
	}
	for m, impls := range ifaceOpeners {
		for _, impl := range impls {
			c.openers[m].Opens = appendOpens(c.openers[m].Opens, c.openers[impl].Opens...)
		}
	}
	for fn, f := range c.openers {
		c.pass.ExportObjectFact(fn, f)
		for _, o := range f.Opens {
			if pos := c.posOf(o.File, o.Line); ssautil.FileAt(c.pass.Files, pos) != nil {
				guard.Anchor(c.pass, pos) // a caller in an importer may report it here
			}
		}
	}
}

// learnInterfaceOpeners makes an opener of each method of the package's
// interfaces that every implementation in the package implements with an
// opener (a driver interface whose PGXDriver and PQDriver each call
// sqlx.Connect and return the pool): a call through the interface receives
// a fresh pool, whichever runs, and its caller must bound it. One
// implementation that hands back a pool it holds (an accessor) makes the
// method no opener: the pool may be another component's, bounded there.
// It returns each such method's implementations, whose opens it carries.
func (c *checker) learnInterfaceOpeners() map[*types.Func][]*types.Func {
	impls := map[*types.Func][]*types.Func{}
	var methods []*types.Func // in the order ssautil.LocalImplementations pairs them
	for _, im := range ssautil.LocalImplementations(c.pass.Pkg) {
		if _, seen := impls[im.Method]; !seen {
			methods = append(methods, im.Method)
		}
		impls[im.Method] = append(impls[im.Method], im.Impl)
	}
	out := map[*types.Func][]*types.Func{}
	for _, m := range methods {
		if f := c.commonOpener(impls[m]); f != nil && c.openers[m] == nil {
			c.openers[m] = &opensUnboundedDB{Result: f.Result, Opener: f.Opener}
			out[m] = impls[m]
		}
	}
	return out
}

// commonOpener is the opener fact of the first of impls when every one of
// them is an opener handing the pool back as the same result, or nil.
func (c *checker) commonOpener(impls []*types.Func) *opensUnboundedDB {
	var first *opensUnboundedDB
	for _, impl := range impls {
		f := c.openers[impl]
		if f == nil || first != nil && f.Result != first.Result {
			return nil
		}
		if first == nil {
			first = f
		}
	}
	return first
}

func appendOpens(to []openAt, opens ...openAt) []openAt {
	for _, o := range opens {
		if len(to) < maxOpens && !slices.Contains(to, o) {
			to = append(to, o)
		}
	}
	return to
}

// takesTesting reports whether fd has a *testing.T, *testing.B or
// testing.TB parameter: a test fixture, whose pool serves one test.
func (c *checker) takesTesting(fd *ast.FuncDecl) bool {
	fn, _ := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
	if fn == nil {
		return false
	}
	params := fn.Signature().Params()
	for i := range params.Len() {
		t := params.At(i).Type()
		if isNamed(t, "testing", "T") || isNamed(t, "testing", "B") || isNamed(t, "testing", "TB") {
			return true
		}
	}
	return false
}

// closedOnReturn reports whether the pool lives for one call of fd only:
// fd defers its Close, starts no goroutine and serves nothing (a migration,
// a one-shot check), so no concurrent requests ever wait on it. A function
// that opens a pool, defers Close and then serves, or stores the pool in a
// struct (a server that may serve from another package), is still checked.
// The deferred Close may sit in a deferred function literal that logs its
// error (defer func() { if err := db.Close(); … }()).
func (c *checker) closedOnReturn(fd *ast.FuncDecl, site openSite) bool {
	if strings.HasPrefix(site.escape, "stored") {
		return false // a server built around the pool may serve from elsewhere
	}
	closes := func(call *ast.CallExpr) bool {
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		return ok && sel.Sel.Name == "Close" && contains(site.vars, c.localVar(sel.X))
	}
	closed, concurrent := false, false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.DeferStmt:
			closed = closed || closes(n.Call)
			if lit, ok := ast.Unparen(n.Call.Fun).(*ast.FuncLit); ok {
				ast.Inspect(lit.Body, func(m ast.Node) bool {
					call, ok := m.(*ast.CallExpr)
					closed = closed || ok && closes(call)
					return !closed
				})
			}
		case *ast.GoStmt:
			concurrent = true
		case *ast.CallExpr:
			fn := c.callee(n)
			concurrent = concurrent || catalog.Servers.Has(fn) || catalog.GoroutineStarters.Has(fn)
		}
		return !concurrent
	})
	return closed && !concurrent
}

func (c *checker) fileOf(n ast.Node) *ast.File {
	for _, f := range c.pass.Files {
		if f.Pos() <= n.Pos() && n.Pos() < f.End() {
			return f
		}
	}
	return nil
}

func (c *checker) reportOpen(site openSite) {
	if site.escape == "" && site.returned >= 0 && site.onlyIf != "" {
		site.escape = "returned"
	}
	if site.bounded || site.escape == "" && !site.zeroed {
		return
	}
	how := site.escape + " without SetMaxOpenConns"
	if site.onlyIf != "" {
		how = site.escape + " with a maximum only when " + site.onlyIf + " (its SetMaxOpenConns is under that if; unset, there is none)"
	}
	if site.zeroed {
		how = "given SetMaxOpenConns(0), which means no maximum"
	}
	noun := c.poolNoun(site)
	if site.escape != "" && site.onlyIf == "" && !site.zeroed && c.opensInModule(site) {
		c.reportAtOpens(site, noun)
		return
	}
	subject := "the " + noun + " from " + site.opener
	if site.origin.IsValid() {
		subject = "the " + noun + " that " + site.opener + " returns"
	}
	d := c.diagnostic(site.call.Pos(), site.origin, "opened here by "+c.originName(site.origin),
		"pool without a maximum: %s is %s, so when the database slows every waiting request opens one more "+
			"connection until the database refuses them all; call SetMaxOpenConns(n) with n > 0 (the lane's share "+
			"of connections) before it is used", subject, how)
	for _, o := range site.opens {
		at := ssautil.LinePos(c.pass.Fset, o.File, o.Line)
		if at.IsValid() && !ssautil.SameLine(c.pass.Fset, at, site.call.Pos()) && !ssautil.SameLine(c.pass.Fset, at, site.origin) {
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: at, Message: "opened here by " + o.Name})
		}
	}
	c.emit(d)
}

// opensInModule reports whether the site's pool comes from an opener of
// the module (a function the program wrote, in any package, that opens it
// and hands it back with no maximum), whose opens are known: the line to
// change is the open inside it, which every caller's pool comes from.
func (c *checker) opensInModule(site openSite) bool {
	fn := c.callee(site.call)
	return fn != nil && !opensPool(fn) && len(site.opens) > 0 && pkgscope.DeclaredInModule(c.pass.Module, fn.Pkg())
}

// reportAtOpens reports a pool that a caller stores with no maximum at the
// opens of the module's opener it came from (minder's GetDBConnection,
// authn-server's three driver packages), with the caller's line as related
// information: once for all the callers, whichever package reaches it
// first along the imports (noContextWaitsReported carries the key on).
func (c *checker) reportAtOpens(site openSite, noun string) {
	for _, o := range site.opens {
		key := fmt.Sprintf("%s:%d", o.File, o.Line)
		if c.reportedElsewhere()[key] || slices.Contains(c.reportedWaits, key) {
			continue
		}
		c.reportedWaits = append(c.reportedWaits, key)
		fix := "call SetMaxOpenConns(n) with n > 0 (the lane's share of connections) here, before it is handed back"
		if o.Sealed {
			fix = "the generated " + o.Name + " gives no caller the pool to bound: open it yourself (sql.Open), call SetMaxOpenConns(n) with n > 0 " +
				"(the lane's share of connections), and hand it to the client's driver instead"
		}
		d := c.diagnostic(c.posOf(o.File, o.Line), site.call.Pos(), site.escape+" here by a caller of "+site.opener+", without SetMaxOpenConns",
			"pool without a maximum: the %s this %s opens is handed back by %s with no maximum and %s without SetMaxOpenConns, so when the database slows "+
				"every waiting request opens one more connection until the database refuses them all; %s",
			noun, o.Name, site.opener, site.escape, fix)
		c.emit(d)
	}
}

// poolNoun names what the site's call returns: "*sql.DB", or the wrapper's
// type with "pool of" (the pool of *gorm.DB).
func (c *checker) poolNoun(site openSite) string {
	t := c.pass.TypesInfo.TypeOf(site.call)
	if tuple, ok := t.(*types.Tuple); ok && site.result < tuple.Len() {
		t = tuple.At(site.result).Type()
	}
	if t == nil || isNamed(t, "database/sql", "DB") {
		return "*sql.DB"
	}
	return "pool of " + types.TypeString(t, func(p *types.Package) string { return p.Name() })
}

// originName is what opened the pool at pos inside an opener: "sql.Open",
// "gorm.Open".
func (c *checker) originName(pos token.Pos) string {
	name := "sql.Open"
	for _, f := range c.pass.Files {
		if pos < f.Pos() || pos > f.End() {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok && call.Pos() == pos && opensPool(c.callee(call)) {
				name = c.calleeName(call)
			}
			return true
		})
	}
	return name
}

// learnBounders finds the functions that call SetMaxOpenConns(n > 0) on a
// pool parameter, a *sql.DB or a wrapper of one (db.DB().SetMaxOpenConns on
// a *gorm.DB: a setDBConns(db) helper called after the open), and exports
// boundsDBParam for them.
func (c *checker) learnBounders() {
	c.bounders = map[*types.Func][]int{}
	for _, f := range c.pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			fn, _ := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if fn == nil {
				continue
			}
			var params []int
			sig := fn.Signature()
			for i := range sig.Params().Len() {
				p := sig.Params().At(i)
				if holdsSQLPool(p.Type()) && c.boundsIn(fd.Body, map[string]bool{p.Name(): true}, p) {
					params = append(params, i)
				}
			}
			if params != nil {
				c.bounders[fn] = params
				c.pass.ExportObjectFact(fn, &boundsDBParam{Params: params})
			}
		}
	}
}

// holdsSQLPool reports whether t is a *sql.DB or a type bhlint knows as a
// database pool (an ORM's handle, sqlx's DB: catalog.ResourceTypes), whose
// maximum SetMaxOpenConns sets on it or on the *sql.DB inside.
func holdsSQLPool(t types.Type) bool {
	return isNamed(t, "database/sql", "DB") || catalog.ResourceNoun(t) == "database pool"
}

// boundsIn reports whether body calls X.SetMaxOpenConns(n > 0) where X is
// v or one of the expressions in names.
func (c *checker) boundsIn(body ast.Node, names map[string]bool, v *types.Var) bool {
	bounded, _, _ := c.maxOpenCalls(body, names, v)
	return bounded
}

// maxOpenCalls reports whether body bounds the pool named by v or names,
// and whether it explicitly unbounds it with SetMaxOpenConns(n <= 0). A
// maximum set only under an if that tests its own argument (if
// cfg.MaxConns > 0 { db.SetMaxOpenConns(cfg.MaxConns) }) bounds the pool
// only when the operator sets it; unset, the pool has none: onlyIf is that
// condition, and it is no bound.
func (c *checker) maxOpenCalls(body ast.Node, names map[string]bool, v *types.Var) (bounded, zeroed bool, onlyIf string) {
	isPool := func(e ast.Expr) bool {
		return v != nil && c.localVarOrParam(e) == v || names[types.ExprString(e)]
	}
	inner := c.innerPools(body, isPool)
	ast.PreorderStack(body, nil, func(n ast.Node, stack []ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || len(call.Args) != 1 {
			return true
		}
		fn := c.callee(call)
		if fn == nil || fn.FullName() != catalog.SQLBound && !catalog.PoolWrapperBounds.Has(fn) {
			return true
		}
		recv := ast.Unparen(call.Fun.(*ast.SelectorExpr).X)
		if !isPool(recv) && !c.isInnerPool(recv, isPool) && !inner[c.localVarOrParam(recv)] {
			return true
		}
		if k, ok := c.constInt(call.Args[0]); ok && k <= 0 {
			zeroed = true
		} else if cond := testedArgument(call, stack); cond != nil {
			onlyIf = types.ExprString(cond)
		} else if set := c.nilGuardBefore(body, call, isPool); set != "" {
			onlyIf = set
		} else {
			bounded = true
		}
		return true
	})
	return bounded, zeroed, onlyIf
}

// nilGuardBefore is the condition under which body reaches call past a
// guard that returns early when a value other than the pool is nil (cerbos'
// (*ConnPoolConf).Configure(db): if cc == nil { return } — the pool keeps
// no maximum unless the connPool section is configured): "cc != nil", or
// "" when no such guard comes first among body's statements.
func (c *checker) nilGuardBefore(body ast.Node, call *ast.CallExpr, isPool func(ast.Expr) bool) string {
	block, ok := body.(*ast.BlockStmt)
	if !ok {
		return ""
	}
	for _, st := range block.List {
		if st.Pos() >= call.Pos() {
			break
		}
		ifs, ok := st.(*ast.IfStmt)
		if !ok || ifs.Init != nil || ifs.Else != nil || !endsInReturn(ifs.Body) {
			continue
		}
		bin, ok := ast.Unparen(ifs.Cond).(*ast.BinaryExpr)
		if !ok || bin.Op != token.EQL || !c.isNil(bin.Y) || isPool(ast.Unparen(bin.X)) {
			continue
		}
		return types.ExprString(bin.X) + " != nil"
	}
	return ""
}

// testedArgument is the condition of an if around call, with call in its
// body, that mentions call's argument (if n > 0 { db.SetMaxOpenConns(n) }),
// or nil.
func testedArgument(call *ast.CallExpr, stack []ast.Node) ast.Expr {
	arg := types.ExprString(ast.Unparen(call.Args[0]))
	for i := len(stack) - 1; i > 0; i-- {
		ifs, ok := stack[i-1].(*ast.IfStmt)
		if !ok || stack[i] != ifs.Body {
			continue
		}
		mentions := false
		ast.Inspect(ifs.Cond, func(n ast.Node) bool {
			if e, ok := n.(ast.Expr); ok && types.ExprString(e) == arg {
				mentions = true
			}
			return !mentions
		})
		if mentions {
			return ifs.Cond
		}
	}
	return nil
}

// isInnerPool reports whether e is the *sql.DB inside a wrapper the pool
// is (db.DB(), drv.DB()): a call of a method named DB, with no arguments,
// on it.
func (c *checker) isInnerPool(e ast.Expr, isPool func(ast.Expr) bool) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) != 0 {
		return false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "DB" && isPool(ast.Unparen(sel.X))
}

// innerPools are the local variables body assigns the inner *sql.DB of the
// pool to (sqlDB, err := db.DB()).
func (c *checker) innerPools(body ast.Node, isPool func(ast.Expr) bool) map[*types.Var]bool {
	out := map[*types.Var]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Rhs) != 1 || len(as.Lhs) == 0 || !c.isInnerPool(as.Rhs[0], isPool) {
			return true
		}
		if w := c.localVarOrParam(as.Lhs[0]); w != nil {
			out[w] = true
		}
		return true
	})
	return out
}

// opensPool reports whether fn opens a pool with no maximum: sql.Open and
// sql.OpenDB, or a wrapper's opener (gorm.Open, xorm.NewEngine, sqlx.Open).
func opensPool(fn *types.Func) bool {
	return catalog.SQLOpeners.Has(fn) || catalog.PoolWrapperOpeners.Has(fn)
}

func (c *checker) localVarOrParam(e ast.Expr) *types.Var {
	id, ok := e.(*ast.Ident)
	if !ok {
		return nil
	}
	v, _ := c.pass.TypesInfo.ObjectOf(id).(*types.Var)
	return v
}

// openerOf says whether call opens an unbounded *sql.DB, and which result
// it is.
func (c *checker) openerOf(call *ast.CallExpr) (result int, name string, origin token.Pos, opens []openAt, ok bool) {
	fn := c.callee(call)
	if fn == nil || catalog.PoolBackedOpeners.Has(fn) {
		return 0, "", token.NoPos, nil, false
	}
	if opensPool(fn) {
		if catalog.Key(fn) == "database/sql.OpenDB" && len(call.Args) == 1 && c.statelessConnector(call.Args[0]) {
			return 0, "", token.NoPos, nil, false
		}
		at := c.pass.Fset.Position(call.Pos())
		return 0, c.calleeName(call), token.NoPos, []openAt{{File: at.Filename, Line: at.Line, Name: c.calleeName(call)}}, true
	}
	fact := c.openers[fn]
	if fact == nil && fn.Pkg() != c.pass.Pkg {
		var imported opensUnboundedDB
		if c.pass.ImportObjectFact(fn, &imported) {
			fact = &imported
		}
	}
	if fact == nil {
		return 0, "", token.NoPos, nil, false
	}
	if fn.Pkg() == c.pass.Pkg {
		origin = c.originOf(fn)
	}
	opens = fact.Opens
	if !pkgscope.DeclaredInModule(c.pass.Module, fn.Pkg()) || fact.Generated {
		// A dependency's opener: the program's line to change is this call
		// (minder's splunksql.Open in GetDBConnection), not the sql.Open in
		// the module cache.
		at := c.pass.Fset.Position(call.Pos())
		opens = []openAt{{File: at.Filename, Line: at.Line, Name: c.calleeName(call), Sealed: fact.Generated}}
	}
	return fact.Result, c.calleeName(call), origin, opens, true
}

// statelessConnector reports whether e, sql.OpenDB's connector, is a value
// of a struct type of the module's own with no fields: a connector that
// holds no address, no client and no other driver answers every call in
// the process (a fake database that fails every query, for tests); its
// pool waits on nothing.
func (c *checker) statelessConnector(e ast.Expr) bool {
	t := c.pass.TypesInfo.TypeOf(e)
	if t == nil {
		return false
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := types.Unalias(t).(*types.Named)
	if !ok || named.Obj().Pkg() != c.pass.Pkg && !pkgscope.DeclaredInModule(c.pass.Module, named.Obj().Pkg()) {
		return false
	}
	st, ok := named.Underlying().(*types.Struct)
	return ok && st.NumFields() == 0
}

// originOf is the sql.Open call inside an opener of this package.
func (c *checker) originOf(fn *types.Func) token.Pos {
	pos := token.NoPos
	for _, f := range c.pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || c.pass.TypesInfo.Defs[fd.Name] != fn {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok && !pos.IsValid() && opensPool(c.callee(call)) {
					pos = call.Pos()
				}
				return !pos.IsValid()
			})
		}
	}
	return pos
}

// openSites follows every pool opened in fd's own body (not in nested
// function literals) to where it goes.
func (c *checker) openSites(fd *ast.FuncDecl) []openSite {
	var sites []openSite
	ast.PreorderStack(fd.Body, nil, func(n ast.Node, stack []ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		result, name, origin, opens, ok := c.openerOf(call)
		if !ok || inLit(stack) && !c.opensIntoCaptured(fd, call, result, stack) {
			return true
		}
		site := openSite{call: call, opener: name, origin: origin, result: result, returned: -1, opens: opens}
		c.follow(fd, &site, result, stack[len(stack)-1])
		sites = append(sites, site)
		return true
	})
	return sites
}

// opensIntoCaptured reports whether call, in a function literal, assigns
// the pool it opens to a variable fd declares outside the literal (cerbos'
// ConnectWithRetries: db, err = sqlx.Connect(…) inside the closure
// backoff.Retry runs): the pool is fd's, as if fd had opened it. Any other
// open in a literal is the literal's (a handler's own pool).
func (c *checker) opensIntoCaptured(fd *ast.FuncDecl, call *ast.CallExpr, result int, stack []ast.Node) bool {
	as, ok := stack[len(stack)-1].(*ast.AssignStmt)
	if !ok || as.Tok != token.ASSIGN {
		return false
	}
	v := c.localVar(pick(as.Lhs, as.Rhs, call, result))
	if v == nil || v.Pos() < fd.Body.Pos() || v.Pos() >= fd.Body.End() {
		return false
	}
	for _, n := range stack {
		if lit, ok := n.(*ast.FuncLit); ok && lit.Pos() <= v.Pos() && v.Pos() < lit.End() {
			return false // declared in a literal: not fd's
		}
	}
	return true
}

// follow classifies where the pool goes from the expression that received
// the call's result.
func (c *checker) follow(fd *ast.FuncDecl, site *openSite, result int, parent ast.Node) {
	names := map[string]bool{}
	var vars []*types.Var
	switch p := parent.(type) {
	case *ast.ReturnStmt:
		site.returned = result
		if len(p.Results) > 1 {
			site.returned = indexOf(p.Results, site.call)
		}
		return
	case *ast.AssignStmt:
		lhs := pick(p.Lhs, p.Rhs, site.call, result)
		if lhs == nil {
			return
		}
		if v := c.localVar(lhs); v != nil {
			vars = append(vars, v)
		} else if id, ok := lhs.(*ast.Ident); ok && id.Name == "_" {
			return
		} else {
			site.setEscape("stored in " + types.ExprString(lhs))
			names[types.ExprString(lhs)] = true
		}
	case *ast.ValueSpec:
		if result < len(p.Names) {
			if v, ok := c.pass.TypesInfo.Defs[p.Names[result]].(*types.Var); ok {
				vars = append(vars, v)
			}
		}
	default:
		site.setEscape("passed on")
	}
	for i := 0; i < len(vars); i++ {
		c.followVar(fd, site, vars[i], names, &vars)
	}
	var vs []*types.Var
	vs = append(vs, vars...)
	site.vars = vs
	for _, v := range vs {
		b, z, only := c.maxOpenCalls(fd.Body, names, v)
		site.bounded = site.bounded || b
		site.zeroed = site.zeroed || z
		site.onlyIf = cmp.Or(site.onlyIf, only)
	}
	if len(vs) == 0 {
		site.bounded, site.zeroed, site.onlyIf = c.maxOpenCalls(fd.Body, names, nil)
	}
	if !site.bounded && c.passedToBounder(fd.Body, names) {
		site.bounded = true
	}
}

// passedToBounder reports whether body passes the pool stored under one of
// names (a package variable, a field) to a function that bounds that
// parameter (boundsDBParam): DB, err = open(dsn); setDBConns(DB).
func (c *checker) passedToBounder(body ast.Node, names map[string]bool) bool {
	if len(names) == 0 {
		return false
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || found {
			return !found
		}
		for i, arg := range call.Args {
			if names[types.ExprString(ast.Unparen(arg))] && c.boundsArg(call, i) {
				found = true
			}
		}
		return true
	})
	return found
}

func (c *checker) followVar(fd *ast.FuncDecl, site *openSite, v *types.Var, names map[string]bool, vars *[]*types.Var) {
	ast.PreorderStack(fd.Body, nil, func(n ast.Node, stack []ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok || c.pass.TypesInfo.Uses[id] != v || len(stack) == 0 {
			return true
		}
		if as, ok := stack[len(stack)-1].(*ast.AssignStmt); ok && indexOf(as.Lhs, id) >= 0 && as.Tok == token.ASSIGN {
			return true // assigned to (the open in a closure, opensIntoCaptured), not shared
		}
		if inLit(stack) {
			site.setEscape("used by a function literal")
			return true
		}
		switch p := stack[len(stack)-1].(type) {
		case *ast.ReturnStmt:
			if site.returned < 0 {
				site.returned = indexOf(p.Results, id)
			}
		case *ast.AssignStmt:
			if indexOf(p.Rhs, id) < 0 {
				return true // assigned to, not from
			}
			lhs := pick(p.Lhs, p.Rhs, id, 0)
			if lhs == nil {
				return true
			}
			if w := c.localVar(lhs); w != nil {
				if !contains(*vars, w) {
					*vars = append(*vars, w)
				}
			} else {
				names[types.ExprString(lhs)] = true
				site.setEscape("stored in " + types.ExprString(lhs))
			}
		case *ast.KeyValueExpr, *ast.CompositeLit, *ast.UnaryExpr:
			site.setEscape("stored in a struct")
		case *ast.CallExpr:
			if i := indexOf(p.Args, id); i >= 0 {
				switch {
				case c.boundsArg(p, i):
					site.bounded = true
				case len(stack) > 1 && isGoOrDefer(stack[len(stack)-2], p):
					site.setEscape("handed to the goroutine or deferred call of " + c.calleeName(p))
				default:
					site.setEscape(passedTo + c.calleeName(p))
					if r := c.returnedCarrier(fd, p, c.pass.TypesInfo.TypeOf(id), stack); r >= 0 && site.returned < 0 {
						site.returned = r
					}
				}
			}
		}
		return true
	})
}

// handsBack reports whether the function returns the pool unbounded,
// itself or in a value that carries it (a wrapper's handle), having at most
// passed it to calls on the way (a migration run in sequence): its caller
// gets it before anything else can use it, and is the one to bound it (the
// function is an opener). A pool stored, captured or handed to a goroutine
// first is shared already.
func (s *openSite) handsBack() bool {
	// An opener that sets a maximum, if only when one is configured, has
	// taken the bounding on itself: its own SetMaxOpenConns is the line to
	// change, not its callers.
	if s.returned < 0 || s.bounded || s.zeroed || s.onlyIf != "" {
		return false
	}
	return !s.shared
}

// passedTo starts the escape of a pool handed to a call.
const passedTo = "passed to "

func (s *openSite) setEscape(how string) {
	sharing := !strings.HasPrefix(how, passedTo)
	if s.escape == "" || sharing && !s.shared {
		s.escape = how // the first way it is shared, else the first call
	}
	s.shared = s.shared || sharing
}

// boundsArg reports whether call bounds the pool passed as argument i.
func (c *checker) boundsArg(call *ast.CallExpr, i int) bool {
	fn := c.callee(call)
	if fn == nil {
		return false
	}
	params, ok := c.bounders[fn]
	if !ok && fn.Pkg() != c.pass.Pkg {
		var fact boundsDBParam
		if c.pass.ImportObjectFact(fn, &fact) {
			params = fact.Params
		}
	}
	return contains(params, i)
}

func inLit(stack []ast.Node) bool {
	for _, n := range stack {
		if _, ok := n.(*ast.FuncLit); ok {
			return true
		}
	}
	return false
}

// pick is the left-hand side that receives result i of call (or the value
// e) in an assignment.
func pick(lhs, rhs []ast.Expr, e ast.Expr, result int) ast.Expr {
	if len(rhs) == 1 && len(lhs) > 1 {
		if result < len(lhs) {
			return lhs[result]
		}
		return nil
	}
	if i := indexOf(rhs, e); i >= 0 && i < len(lhs) {
		return lhs[i]
	}
	return nil
}

func indexOf[T comparable](list []ast.Expr, e T) int {
	for i, x := range list {
		if any(ast.Unparen(x)) == any(e) {
			return i
		}
	}
	return -1
}

func contains[T comparable](list []T, x T) bool {
	for _, y := range list {
		if y == x {
			return true
		}
	}
	return false
}

// isGoOrDefer reports whether parent runs call as a go or defer statement.
func isGoOrDefer(parent ast.Node, call *ast.CallExpr) bool {
	switch p := parent.(type) {
	case *ast.GoStmt:
		return p.Call == call
	case *ast.DeferStmt:
		return p.Call == call
	}
	return false
}

// returnedCarrier is the result index under which fd returns the value call
// makes from the pool (return wrap(db), or h = wrap(db) … return h, with h
// a local or a package variable), when that value can carry it
// (carriesPool); else -1.
func (c *checker) returnedCarrier(fd *ast.FuncDecl, call *ast.CallExpr, pool types.Type, stack []ast.Node) int {
	if !carriesPool(c.pass.TypesInfo.TypeOf(call), 0) {
		return c.returnedThroughArgs(call, pool, stack)
	}
	var held types.Object
	switch p := stack[len(stack)-2].(type) {
	case *ast.ReturnStmt:
		return indexOf(p.Results, call)
	case *ast.AssignStmt:
		if len(p.Lhs) != len(p.Rhs) {
			return -1
		}
		if id, ok := ast.Unparen(pick(p.Lhs, p.Rhs, call, 0)).(*ast.Ident); ok {
			held = c.pass.TypesInfo.ObjectOf(id)
		}
	}
	if held == nil {
		return -1
	}
	index := -1
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if _, lit := n.(*ast.FuncLit); lit {
			return false
		}
		if ret, ok := n.(*ast.ReturnStmt); ok && index < 0 {
			for i, r := range ret.Results {
				if id, ok := ast.Unparen(r).(*ast.Ident); ok && c.pass.TypesInfo.ObjectOf(id) == held {
					index = i
				}
			}
		}
		return index < 0
	})
	return index
}

// carriesPool reports whether a value of type t can hand a pool on: it is
// one (holdsSQLPool), holds one in a field (to a depth of two), or has a
// method with no parameters that returns one (a wrapper's DB() *sql.DB).
func carriesPool(t types.Type, depth int) bool {
	if t == nil || depth > 2 {
		return false
	}
	if holdsSQLPool(t) {
		return true
	}
	if st, ok := structOf(t); ok {
		for i := range st.NumFields() {
			if carriesPool(st.Field(i).Type(), depth+1) {
				return true
			}
		}
	}
	for _, mt := range []types.Type{t, types.NewPointer(t)} {
		ms := types.NewMethodSet(mt)
		for i := range ms.Len() {
			sig, ok := ms.At(i).Type().(*types.Signature)
			if ok && sig.Params().Len() == 0 && sig.Results().Len() >= 1 && holdsSQLPool(sig.Results().At(0).Type()) {
				return true
			}
		}
	}
	return false
}

// isNil reports whether e is the predeclared nil.
func (c *checker) isNil(e ast.Expr) bool {
	id := identOrNil(e)
	if id == nil {
		return false
	}
	_, ok := c.pass.TypesInfo.ObjectOf(id).(*types.Nil)
	return ok
}

// returnedThroughArgs is the result index under which fd returns a call
// that the pool reaches only as an argument of arguments (ent's generated
// Open: return NewClient(append(options, Driver(drv))...)), when the
// returned value can hold what the innermost call was given (holdsValue);
// else -1.
func (c *checker) returnedThroughArgs(call *ast.CallExpr, inner types.Type, stack []ast.Node) int {
	if inner == nil {
		return -1
	}
	var cur ast.Expr = call
	for i := len(stack) - 2; i >= 0; i-- {
		switch p := stack[i].(type) {
		case *ast.CallExpr:
			if indexOf(p.Args, cur) < 0 {
				return -1
			}
			cur = p
		case *ast.ReturnStmt:
			if r := indexOf(p.Results, cur); r >= 0 && cur != call && holdsValue(c.pass.TypesInfo.TypeOf(cur), inner, 0) {
				return r
			}
			return -1
		default:
			return -1
		}
	}
	return -1
}

// holdsValue reports whether a value of type t can hold the pool or its
// wrapper, of type inner: it carries a pool (carriesPool), or has a field,
// to a depth of two, of a non-empty interface type that inner implements
// (ent's Client, whose config's driver is a dialect.Driver).
func holdsValue(t, inner types.Type, depth int) bool {
	if t == nil || depth > 2 {
		return false
	}
	if carriesPool(t, depth) {
		return true
	}
	st, ok := structOf(t)
	if !ok {
		return false
	}
	for i := range st.NumFields() {
		ft := st.Field(i).Type()
		if iface, ok := ft.Underlying().(*types.Interface); ok && iface.NumMethods() > 0 && types.Implements(inner, iface) {
			return true
		}
		if holdsValue(ft, inner, depth+1) {
			return true
		}
	}
	return false
}
