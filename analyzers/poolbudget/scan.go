package poolbudget

import (
	"go/ast"
	"go/constant"
	"go/types"
	"slices"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/bhlint/bhlint/internal/catalog"
)

// scanner walks one function's body, closures included, in source order:
// the pools it creates and the pools its callees create, where each is
// kept, and the budgets set on them.
type scanner struct {
	c      *checker
	params map[*types.Var]int
	pools  []*Pool
	held   map[*types.Var]*Pool // local variables holding a pool
	stored map[string]*Pool     // fields and globals holding one, by expression ("s.db")
	bounds map[int]Budget       // budgets set on pools passed as parameters
	// boundLater are the pools kept in a struct field on which the package
	// calls SetMaxOpenConns elsewhere (a Configure method): not unbounded,
	// but not known either.
	boundLater map[*Pool]bool
	// truncated: more than maxPools pools reach the function.
	truncated bool
	// structs are local configuration structs (lanepool.Config{…}, a parsed
	// *pgxpool.Config): the field expressions assigned so far.
	structs map[*types.Var]map[string]ast.Expr
	pgxDSN  map[*types.Var]DSN // the connection string a *pgxpool.Config was parsed from
	dsns    map[*types.Var]DSN // local strings holding a connection string
	// fromRegistry are local variables read from a registry (sp :=
	// providers[name]); lookups, the calls through one; registers, the
	// parameters stored into one.
	fromRegistry map[*types.Var]string
	lookups      []Lookup
	registers    []Registration
	// fieldStores are the parameters the function stores into integer
	// fields (fields.go).
	fieldStores []FieldStore
	// handedOver are the functions a main package's function hands over as
	// values (app.Action = run), where they are named.
	handedOver []handed
	body       *ast.BlockStmt
	stack      []ast.Node                              // the ancestors of the node being visited
	litOf      map[*ast.KeyValueExpr]*ast.CompositeLit // learned on first use
}

func (c *checker) scan(fd *ast.FuncDecl) *createsPools {
	s := &scanner{
		c: c, params: map[*types.Var]int{}, held: map[*types.Var]*Pool{}, stored: map[string]*Pool{},
		bounds: map[int]Budget{}, structs: map[*types.Var]map[string]ast.Expr{}, boundLater: map[*Pool]bool{},
		pgxDSN: map[*types.Var]DSN{}, dsns: map[*types.Var]DSN{}, fromRegistry: map[*types.Var]string{},
		body: fd.Body,
	}
	i := 0
	for _, field := range fd.Type.Params.List {
		for _, name := range field.Names {
			if v, ok := c.pass.TypesInfo.Defs[name].(*types.Var); ok {
				s.params[v] = i
			}
			i++
		}
		if len(field.Names) == 0 {
			i++
		}
	}
	ast.PreorderStack(fd.Body, nil, func(n ast.Node, stack []ast.Node) bool {
		s.stack = stack
		switch n := n.(type) {
		case *ast.AssignStmt:
			s.assign(n.Lhs, n.Rhs)
		case *ast.ValueSpec:
			s.assign(namesOf(n), n.Values)
		case *ast.ReturnStmt:
			s.returns(n)
		case *ast.CallExpr:
			s.call(n, stack)
		case *ast.KeyValueExpr:
			if p := s.handle(n.Value); p != nil {
				s.intoField(p, n.Key) // &Store{db: db}
			}
			s.storeKeyed(n)
		case *ast.Ident:
			s.handOver(n, n, stack)
		case *ast.SelectorExpr:
			s.handOver(n, n.Sel, stack)
		}
		return true
	})
	for _, p := range s.pools {
		if p.Budget.State == Unbounded && s.boundLater[p] {
			p.Budget = Budget{State: Unknown}
		}
	}
	s.runHandedOver()
	out := &createsPools{Truncated: s.truncated, Lookups: s.lookups, Registers: s.registers, FieldStores: s.fieldStores}
	for _, p := range s.pools {
		out.Pools = append(out.Pools, *p)
	}
	for param, b := range s.bounds {
		out.Bounds = append(out.Bounds, ParamBound{Param: param, Budget: b})
	}
	slices.SortFunc(out.Bounds, func(a, b ParamBound) int { return a.Param - b.Param })
	return out
}

// call handles a call that creates a pool, bounds one, or reaches a
// function that does.
func (s *scanner) call(call *ast.CallExpr, stack []ast.Node) {
	parent := stack[len(stack)-1]
	fn := typeutil.StaticCallee(s.c.pass.TypesInfo, call)
	if fn == nil {
		if reg := s.registryVarOf(call.Fun); reg != "" {
			s.lookup(call, reg, nil)
		}
		return // through an interface or any other func value: not followed
	}
	if op, ok := catalog.PoolOpeners[catalog.Key(fn)]; ok {
		s.open(call, fn, op, parent)
		return
	}
	if isBound(fn) {
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok || len(call.Args) != 1 {
			return
		}
		if flag := s.skippedByDefault(call, stack); flag != "" {
			s.assumeSkipped(sel.X, flag)
			return
		}
		s.setBudget(sel.X, s.intBudget(call.Args[0], catalog.UnsetUnbounded))
		return
	}
	if sum := s.c.summary(fn); sum != nil {
		s.inherit(call, fn, sum, parent)
	}
}

// open records the pool an opener of the catalogue creates.
func (s *scanner) open(call *ast.CallExpr, fn *types.Func, op catalog.PoolOpener, parent ast.Node) {
	if s.embedded(call, op) {
		return // a file in the process (SQLite), not the database's connections
	}
	p := &Pool{Unset: op.Unset, DSN: noDSN(), Returned: -1, Outbound: op.Outbound, Executor: op.LaneSpec,
		anchor: call.Pos(), Site: s.c.siteOf(call.Pos())}
	var lane *types.Named
	p.Kind, lane = s.kindOf(call, fn)
	if lane != nil {
		p.Lane = catalog.LaneName(lane.Obj().Name())
	}
	if op.DSN >= 0 && op.DSN < len(call.Args) {
		p.DSN = s.dsnOf(call.Args[op.DSN])
	}
	var pgx Budget
	if op.PgxConfig >= 0 && op.PgxConfig < len(call.Args) {
		pgx, p.DSN = s.pgxBudget(call.Args[op.PgxConfig])
	}
	switch {
	case op.LaneSpec && lane != nil:
		p.Budget = s.c.laneLimitOf(lane)
	case op.Config >= 0 && op.Config < len(call.Args):
		p.Budget = s.fieldBudget(call.Args[op.Config], op.Field, op.Unset)
	case op.PgxConfig >= 0:
		p.Budget = pgx
	case op.Unset == catalog.UnsetPgxDefault:
		p.Budget = Budget{State: FromDSN}
	default:
		p.Budget = budgetOf(0, op.Unset) // until SetMaxOpenConns
	}
	p.Budget = settle(p.Budget, p.DSN)
	p.Name = p.Kind
	if s.bind(p, call, parent, 0) == p {
		s.add(p)
	}
}

// add records a pool the function creates, unless it is a package-level
// variable's pool already recorded: that one counts once.
func (s *scanner) add(p *Pool) {
	if p.Command == "" {
		p.Command = s.commandAt()
	}
	if p.Global != "" {
		for _, q := range s.pools {
			if q.Global == p.Global {
				q.Budget = worse(q.Budget, p.Budget)
				return
			}
		}
	}
	if len(s.pools) == maxPools {
		s.truncated = true
		return
	}
	s.pools = append(s.pools, p)
}

// maxPools is the most pools one function's fact carries: more is a
// function reached along many paths (each call of a constructor counts),
// whose count no longer says anything about the program.
const maxPools = 64

// embedded reports whether call opens a database that lives in the
// process: a constant driver name of catalog.EmbeddedDrivers, or a
// dialector or connector made by one of their packages.
func (s *scanner) embedded(call *ast.CallExpr, op catalog.PoolOpener) bool {
	info := s.c.pass.TypesInfo
	if op.Driver >= 0 && op.Driver < len(call.Args) {
		tv := info.Types[call.Args[op.Driver]]
		return tv.Value != nil && tv.Value.Kind() == constant.String && catalog.EmbeddedDrivers[constant.StringVal(tv.Value)]
	}
	if len(call.Args) == 0 {
		return false
	}
	inner, ok := ast.Unparen(call.Args[0]).(*ast.CallExpr)
	if !ok {
		return false
	}
	fn := typeutil.StaticCallee(info, inner)
	return fn != nil && fn.Pkg() != nil && catalog.InPackages(fn.Pkg().Path(), catalog.EmbeddedDriverPackages)
}

// inherit adds the pools a callee creates, with its parameters replaced by
// this call's arguments, and applies the budgets it sets on arguments.
func (s *scanner) inherit(call *ast.CallExpr, fn *types.Func, sum *createsPools, parent ast.Node) {
	name := funcName(fn)
	for _, fp := range sum.Pools {
		p := fp
		p.Via = append([]string{name}, fp.Via...)
		p.named = false
		if fn.Pkg() != s.c.pass.Pkg {
			p.anchor = call.Pos() // the creation is in a package this pass cannot point into
		}
		if p.DSN.Param >= 0 {
			p.DSN = s.argDSN(call, p.DSN.Param)
		}
		p.Budget = settle(s.argBudget(call, p.Budget, p.Unset), p.DSN)
		returned := p.Returned
		p.Returned = -1
		if returned < 0 || s.bind(&p, call, parent, returned) == &p {
			s.add(&p)
		}
	}
	s.truncated = s.truncated || sum.Truncated
	for _, l := range sum.Lookups {
		s.lookup(call, l.Registry, append([]string{name}, l.Via...))
	}
	for _, r := range sum.Registers {
		if i, ok := s.paramAt(call, r.Param); ok {
			s.registers = append(s.registers, Registration{Param: i, Registry: r.Registry})
		}
	}
	for _, f := range sum.FieldStores {
		if f.Param < len(call.Args) {
			s.storeValue(f.Field, s.intBudget(call.Args[f.Param], catalog.UnsetUnbounded))
		}
	}
	for _, b := range sum.Bounds {
		if b.Param < len(call.Args) {
			s.setBudget(call.Args[b.Param], s.argBudget(call, b.Budget, catalog.UnsetUnbounded))
		}
	}
}

// bind follows the pool the call returns as its result number result to
// where the call's value goes: a variable names it. It returns the pool
// that stands for it: p, or the pool the variable held already.
func (s *scanner) bind(p *Pool, call *ast.CallExpr, parent ast.Node, result int) *Pool {
	switch parent := parent.(type) {
	case *ast.AssignStmt:
		return s.keep(p, pick(parent.Lhs, parent.Rhs, call, result))
	case *ast.ValueSpec:
		if result < len(parent.Names) && len(parent.Values) == 1 {
			return s.keep(p, parent.Names[result])
		} else if i := slices.IndexFunc(parent.Values, func(e ast.Expr) bool { return ast.Unparen(e) == call }); i >= 0 && i < len(parent.Names) {
			return s.keep(p, parent.Names[i])
		}
	case *ast.ReturnStmt:
		p.Returned = result
		if len(parent.Results) > 1 {
			p.Returned = slices.IndexFunc(parent.Results, func(e ast.Expr) bool { return ast.Unparen(e) == call })
		}
	case *ast.KeyValueExpr:
		if id, ok := parent.Key.(*ast.Ident); ok {
			p.Name, p.named = id.Name, true
		}
	}
	return p
}

// keep records that lhs holds p, and names p after it. A variable or
// field that holds a pool already is given one of alternatives (the cases
// of a switch on the driver, a retry of the open): one pool, as bad as the
// worse of the two, which the bound set on the variable afterwards
// replaces; keep returns the pool that stands for both.
func (s *scanner) keep(p *Pool, lhs ast.Expr) *Pool {
	if lhs == nil || isBlank(lhs) {
		return p
	}
	v := s.localVar(lhs)
	old := s.held[v]
	if v == nil {
		old = s.stored[types.ExprString(lhs)]
	}
	if old != nil && old != p {
		old.Budget = worse(old.Budget, p.Budget)
		return old
	}
	if v != nil {
		s.held[v] = p
	} else {
		s.stored[types.ExprString(lhs)] = p
		p.Global = s.globalOf(lhs)
		if sel, ok := lhs.(*ast.SelectorExpr); ok {
			s.intoField(p, sel.Sel)
		}
	}
	p.Name, p.named = types.ExprString(lhs), true
	return p
}

// globalOf is the full name of the package-level variable e is, "" for
// anything else.
func (s *scanner) globalOf(e ast.Expr) string {
	id := nameOf(e)
	if id == nil {
		return ""
	}
	v, ok := s.c.pass.TypesInfo.ObjectOf(id).(*types.Var)
	if !ok || v.IsField() || v.Pkg() == nil || v.Parent() != v.Pkg().Scope() {
		return ""
	}
	return v.Pkg().Path() + "." + v.Name()
}

// worse is the budget that allows more connections: no maximum, then one
// not known, then the larger count.
func worse(a, b Budget) Budget {
	rank := func(x Budget) int {
		switch x.State {
		case Unbounded:
			return 3
		case Known, PgxDefault:
			return 1
		}
		return 2
	}
	if rank(b) > rank(a) || rank(a) == 1 && rank(b) == 1 && b.N > a.N {
		return b
	}
	return a
}

// assign tracks what assignments carry: copies of a pool, configuration
// structs and their fields, parsed pgxpool configurations, connection
// strings.
func (s *scanner) assign(lhs, rhs []ast.Expr) {
	if len(rhs) == 1 && len(lhs) > 1 {
		s.assignTuple(lhs, rhs[0])
		return
	}
	if len(lhs) != len(rhs) {
		return
	}
	for i, l := range lhs {
		r := ast.Unparen(rhs[i])
		if s.registryAssign(l, r) {
			continue
		}
		s.storeField(l, r)
		if sel, ok := l.(*ast.SelectorExpr); ok {
			if fields := s.structs[s.localVar(sel.X)]; fields != nil {
				fields[sel.Sel.Name] = r // cfg.MaxConns = 20
				continue
			}
		}
		v := s.localVar(l)
		if lit := compositeLit(r); lit != nil {
			if v != nil {
				s.structs[v] = fieldsOf(lit)
			}
			continue
		}
		if p := s.handle(r); p != nil {
			s.keepCopy(p, l, v)
			continue
		}
		if call, ok := r.(*ast.CallExpr); ok && v != nil {
			s.assignCall(v, call)
			continue
		}
		if d := s.dsnOf(r); v != nil && (d.Env != "" || d.IsConst || d.Param >= 0) {
			s.dsns[v] = d
		}
	}
}

// assignTuple: cfg, err := pgxpool.ParseConfig(dsn); dsn, ok :=
// os.LookupEnv("DATABASE_URL").
func (s *scanner) assignTuple(lhs []ast.Expr, rhs ast.Expr) {
	if s.registryAssign(lhs[0], rhs) {
		return // sp, ok := providers[name]
	}
	v := s.localVar(lhs[0])
	if p := s.handle(rhs); p != nil {
		s.keepCopy(p, lhs[0], v) // sqlDB, err := gormDB.DB()
		return
	}
	call, ok := ast.Unparen(rhs).(*ast.CallExpr)
	if !ok || v == nil {
		return
	}
	s.assignCall(v, call)
}

func (s *scanner) assignCall(v *types.Var, call *ast.CallExpr) {
	fn := typeutil.StaticCallee(s.c.pass.TypesInfo, call)
	if fn == nil {
		return
	}
	if arg, ok := catalog.PgxConfigParsers[catalog.Key(fn)]; ok && arg < len(call.Args) {
		s.structs[v] = map[string]ast.Expr{}
		s.pgxDSN[v] = s.dsnOf(call.Args[arg])
		return
	}
	if d := s.dsnOf(call); d.Env != "" {
		s.dsns[v] = d
	}
}

// intoField notes that p is kept in the struct field named by id.
func (s *scanner) intoField(p *Pool, id ast.Expr) {
	ident, ok := id.(*ast.Ident)
	if !ok {
		return
	}
	if field, ok := s.c.pass.TypesInfo.ObjectOf(ident).(*types.Var); ok && field.IsField() && s.c.boundFields()[field] {
		s.boundLater[p] = true
	}
}

// keepCopy: a copy of a pool (db2 := db, sqlDB, _ := gormDB.DB()) is the
// same pool; a store into a field or global is where it is kept.
func (s *scanner) keepCopy(p *Pool, lhs ast.Expr, v *types.Var) {
	switch {
	case v != nil:
		s.held[v] = p
	case isBlank(lhs):
	default:
		s.stored[types.ExprString(lhs)] = p
		if p.Global == "" {
			p.Global = s.globalOf(lhs) // kept in a package-level variable: one pool
		}
		if sel, ok := lhs.(*ast.SelectorExpr); ok {
			s.intoField(p, sel.Sel)
		}
	}
}

// returns marks the pools a return statement hands to the caller.
func (s *scanner) returns(ret *ast.ReturnStmt) {
	for i, r := range ret.Results {
		if p := s.handle(r); p != nil && p.Returned < 0 {
			p.Returned = i
		}
	}
}

// handle is the pool e holds: a variable or field that holds one, or the
// *sql.DB inside one (gormDB.DB()).
func (s *scanner) handle(e ast.Expr) *Pool {
	e = ast.Unparen(e)
	if call, ok := e.(*ast.CallExpr); ok {
		sel, isSel := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !isSel || sel.Sel.Name != "DB" || len(call.Args) != 0 {
			return nil
		}
		return s.handle(sel.X)
	}
	if v := s.localVar(e); v != nil {
		return s.held[v]
	}
	switch e.(type) {
	case *ast.Ident, *ast.SelectorExpr: // a package-level variable, a field
		return s.stored[types.ExprString(e)]
	}
	return nil
}

// setBudget gives the pool e holds (or the parameter e is) its budget.
func (s *scanner) setBudget(e ast.Expr, b Budget) {
	if p := s.handle(e); p != nil {
		p.Budget = b
		return
	}
	if inner := innerOf(e); inner != nil {
		e = inner
	}
	if i, ok := s.paramOf(e); ok {
		s.bounds[i] = b
	}
}

// innerOf is X of X.DB(), nil for anything else.
func innerOf(e ast.Expr) ast.Expr {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) != 0 {
		return nil
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "DB" {
		return sel.X
	}
	return nil
}

func (s *scanner) localVar(e ast.Expr) *types.Var {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok || id.Name == "_" {
		return nil
	}
	v, _ := s.c.pass.TypesInfo.ObjectOf(id).(*types.Var)
	if v == nil || v.IsField() || v.Parent() == nil || v.Parent() == v.Pkg().Scope() {
		return nil // a package-level variable is kept by expression, as a field is
	}
	return v
}

func (s *scanner) paramOf(e ast.Expr) (int, bool) {
	v := s.localVar(e)
	if v == nil {
		return 0, false
	}
	i, ok := s.params[v]
	return i, ok
}

func isBlank(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "_"
}

// pick is the left-hand side that receives result i of call in an
// assignment.
func pick(lhs, rhs []ast.Expr, call *ast.CallExpr, result int) ast.Expr {
	if len(rhs) == 1 && len(lhs) > 1 {
		if result < len(lhs) {
			return lhs[result]
		}
		return nil
	}
	for i, r := range rhs {
		if ast.Unparen(r) == call && i < len(lhs) {
			return lhs[i]
		}
	}
	return nil
}

// namesOf is a var declaration's names as the left-hand sides of an
// assignment.
func namesOf(spec *ast.ValueSpec) []ast.Expr {
	lhs := make([]ast.Expr, len(spec.Names))
	for i, id := range spec.Names {
		lhs[i] = id
	}
	return lhs
}

// registryAssign follows a registry's entries through an assignment: sp :=
// providers[name] reads one into a local variable; providers[name] = ctor,
// with ctor a parameter, makes the function a Register.
func (s *scanner) registryAssign(lhs, rhs ast.Expr) bool {
	info := s.c.pass.TypesInfo
	if reg := registryOf(info, rhs); reg != "" {
		if _, isIndex := ast.Unparen(rhs).(*ast.IndexExpr); isIndex {
			if v := s.localVar(lhs); v != nil {
				s.fromRegistry[v] = reg
			}
			return true
		}
	}
	if reg := registryOf(info, lhs); reg != "" {
		if i, ok := s.paramOf(rhs); ok {
			s.registers = append(s.registers, Registration{Param: i, Registry: reg})
		}
		return true
	}
	return false
}

// paramAt is the parameter of this function that the call passes as its
// argument i, if it is one.
func (s *scanner) paramAt(call *ast.CallExpr, i int) (int, bool) {
	if i >= len(call.Args) {
		return 0, false
	}
	return s.paramOf(call.Args[i])
}
