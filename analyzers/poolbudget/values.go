package poolbudget

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/bhlint/bhlint/internal/catalog"
)

// intBudget is the budget an expression gives: a constant, a parameter of
// the function (its callers decide), or unknown (configuration, the
// environment, anything computed).
func (s *scanner) intBudget(e ast.Expr, unset catalog.Unset) Budget {
	e = ast.Unparen(e)
	info := s.c.pass.TypesInfo
	if n, ok := constInt(info, e); ok {
		return budgetOf(n, unset)
	}
	if call, ok := e.(*ast.CallExpr); ok && len(call.Args) == 1 && info.Types[call.Fun].IsType() {
		return s.intBudget(call.Args[0], unset) // int32(n)
	}
	if i, ok := s.paramOf(e); ok {
		return Budget{State: FromParam, Param: i}
	}
	if f, ok := s.flagOf(e); ok {
		b := budgetOf(f.Value, unset)
		b.Assumed = "the default of flag -" + f.Name
		return b
	}
	if k := fieldKey(info, e); k != "" {
		return Budget{State: FromField, Field: k}
	}
	return Budget{State: Unknown}
}

func constInt(info *types.Info, e ast.Expr) (int, bool) {
	tv, ok := info.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.Int {
		return 0, false
	}
	n, exact := constant.Int64Val(tv.Value)
	if !exact || n > 1<<31 || n < -1<<31 {
		return 0, false
	}
	return int(n), true
}

// flagDefault is an integer flag with a constant default. (Exported
// fields: flagNames carries it in a fact.)
type flagDefault struct {
	Name  string
	Value int
}

// flagOf is the flag e reads: *p where p := flag.Int(…) (a local or
// package-level variable), v after flag.IntVar(&v, …), or a read by name
// (c.Int("db-max")) of a flag this package or one it imports declares.
func (s *scanner) flagOf(e ast.Expr) (flagDefault, bool) {
	if call, ok := e.(*ast.CallExpr); ok {
		return s.c.flagReadBy(call)
	}
	if star, ok := e.(*ast.StarExpr); ok {
		e = ast.Unparen(star.X)
	} else if id, ok := e.(*ast.Ident); ok {
		f, ok := s.c.flagVars()[s.c.pass.TypesInfo.ObjectOf(id)]
		return f, ok
	}
	id, ok := e.(*ast.Ident)
	if !ok {
		return flagDefault{}, false
	}
	f, ok := s.c.flagPointers()[s.c.pass.TypesInfo.ObjectOf(id)]
	return f, ok
}

// flagPointers are the package's variables, at any level, that hold what
// flag.Int and its like return; flagVars, those flag.IntVar sets.
func (c *checker) flagPointers() map[types.Object]flagDefault {
	c.learnFlags()
	return c.flagPtrs
}

func (c *checker) flagVars() map[types.Object]flagDefault {
	c.learnFlags()
	return c.flagVals
}

func (c *checker) learnFlags() {
	if c.flagPtrs != nil {
		return
	}
	c.flagPtrs, c.flagVals = map[types.Object]flagDefault{}, map[types.Object]flagDefault{}
	c.flagNames = &flagNames{}
	info := c.pass.TypesInfo
	for _, f := range c.pass.Files {
		if isTestFile(c.pass, f) {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CompositeLit:
				if def, ok := cliFlagOf(info, n); ok {
					c.flagNames.Flags = append(c.flagNames.Flags, def)
				}
			case *ast.AssignStmt:
				c.learnFlagAssign(n.Lhs, n.Rhs)
			case *ast.ValueSpec:
				c.learnFlagAssign(namesOf(n), n.Values)
			case *ast.CallExpr:
				fn := typeutil.StaticCallee(info, n)
				def, ok := flagDefinition(info, fn, n)
				if ok {
					c.flagNames.Flags = append(c.flagNames.Flags, def)
				}
				if ok && catalog.FlagDefaults[catalog.Key(fn)].Var {
					if id, ok := derefOf(n.Args[0]).(*ast.Ident); ok && derefOf(n.Args[0]) != ast.Unparen(n.Args[0]) {
						c.flagVals[info.ObjectOf(id)] = def
					}
				}
			}
			return true
		})
	}
}

func (c *checker) learnFlagAssign(lhs, rhs []ast.Expr) {
	info := c.pass.TypesInfo
	for i, r := range rhs {
		call, ok := ast.Unparen(r).(*ast.CallExpr)
		if !ok || i >= len(lhs) {
			continue
		}
		fn := typeutil.StaticCallee(info, call)
		def, ok := flagDefinition(info, fn, call)
		if id, isIdent := lhs[i].(*ast.Ident); ok && isIdent && !catalog.FlagDefaults[catalog.Key(fn)].Var {
			c.flagPtrs[info.ObjectOf(id)] = def
		}
	}
}

// flagDefinition is the flag call defines, when it defines an integer flag
// with a constant name and default.
func flagDefinition(info *types.Info, fn *types.Func, call *ast.CallExpr) (flagDefault, bool) {
	if fn == nil {
		return flagDefault{}, false
	}
	row, ok := catalog.FlagDefaults[catalog.Key(fn)]
	if !ok || row.Name >= len(call.Args) || row.Default >= len(call.Args) {
		return flagDefault{}, false
	}
	name, isName := info.Types[call.Args[row.Name]]
	value, isConst := constInt(info, call.Args[row.Default])
	if !isName || name.Value == nil || name.Value.Kind() != constant.String || !isConst {
		return flagDefault{}, false
	}
	return flagDefault{Name: constant.StringVal(name.Value), Value: value}, true
}

// argBudget replaces a budget that is a parameter of the callee with what
// the call passes.
func (s *scanner) argBudget(call *ast.CallExpr, b Budget, unset catalog.Unset) Budget {
	if b.State != FromParam {
		return b
	}
	if b.Param >= len(call.Args) {
		return Budget{State: Unknown}
	}
	return s.intBudget(call.Args[b.Param], unset)
}

// fieldBudget is the budget field of a configuration struct argument: a
// literal, or a local variable built from one.
func (s *scanner) fieldBudget(arg ast.Expr, field string, unset catalog.Unset) Budget {
	var fields map[string]ast.Expr
	if lit := compositeLit(ast.Unparen(arg)); lit != nil {
		fields = fieldsOf(lit)
	} else if v := s.localVar(derefOf(arg)); v != nil {
		fields = s.structs[v]
	}
	if fields == nil {
		return Budget{State: Unknown} // built elsewhere
	}
	e, ok := fields[field]
	if !ok {
		return budgetOf(0, unset)
	}
	return s.intBudget(e, unset)
}

// pgxBudget is the budget and connection string of a *pgxpool.Config
// argument parsed in this function: its MaxConns if set, otherwise what
// the connection string says.
func (s *scanner) pgxBudget(arg ast.Expr) (Budget, DSN) {
	v := s.localVar(derefOf(arg))
	fields := s.structs[v]
	if v == nil || fields == nil {
		return Budget{State: Unknown}, noDSN()
	}
	dsn, parsed := s.pgxDSN[v]
	if !parsed {
		dsn = noDSN()
	}
	if e, ok := fields[catalog.PgxMaxConnsField]; ok {
		return s.intBudget(e, catalog.UnsetPgxDefault), dsn
	}
	if !parsed {
		return Budget{State: Unknown}, dsn
	}
	return Budget{State: FromDSN}, dsn
}

// dsnOf is where a connection string comes from: a constant, an
// environment variable read with os.Getenv, a parameter, a local variable
// holding one of these, or the string inside a driver's configuration
// (gorm's postgres.Open(dsn)).
func (s *scanner) dsnOf(e ast.Expr) DSN {
	e = ast.Unparen(e)
	info := s.c.pass.TypesInfo
	if tv, ok := info.Types[e]; ok && tv.Value != nil && tv.Value.Kind() == constant.String {
		return DSN{Const: constant.StringVal(tv.Value), IsConst: true, Param: -1}
	}
	if i, ok := s.paramOf(e); ok {
		return DSN{Param: i}
	}
	if v := s.localVar(e); v != nil {
		if d, ok := s.dsns[v]; ok {
			return d
		}
		return noDSN()
	}
	call, ok := e.(*ast.CallExpr)
	if !ok || len(call.Args) == 0 {
		return noDSN()
	}
	fn := typeutil.StaticCallee(info, call)
	if catalog.EnvLookups.Has(fn) {
		if tv, ok := info.Types[call.Args[0]]; ok && tv.Value != nil && tv.Value.Kind() == constant.String {
			return DSN{Env: constant.StringVal(tv.Value), Param: -1}
		}
		return noDSN()
	}
	if fn == nil || isString(info.TypeOf(call)) {
		return noDSN() // fmt.Sprintf and friends build a string of their own
	}
	return s.dsnOf(call.Args[0]) // a dialector or connector over the string
}

func (s *scanner) argDSN(call *ast.CallExpr, param int) DSN {
	if param >= len(call.Args) {
		return noDSN()
	}
	return s.dsnOf(call.Args[param])
}

func isString(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

// poolMaxConns reads pool_max_conns from a pgx connection string, in URL
// or keyword/value form: the count, whether it is set, and whether the
// string could be read at all.
func poolMaxConns(dsn string) (n int, set, ok bool) {
	var value string
	if strings.Contains(dsn, "://") {
		u, err := url.Parse(dsn)
		if err != nil {
			return 0, false, false
		}
		value, set = u.Query().Get(catalog.PgxMaxConnsParam), u.Query().Has(catalog.PgxMaxConnsParam)
	} else {
		for _, kv := range strings.Fields(dsn) {
			if k, v, found := strings.Cut(kv, "="); found && k == catalog.PgxMaxConnsParam {
				value, set = strings.Trim(v, "'"), true
			}
		}
	}
	if !set {
		return 0, false, true
	}
	n, err := strconv.Atoi(value)
	return n, true, err == nil
}

// kindOf names what creates the pool, with its lane: "sql.Open",
// "lanedb.Open[Tax]", and returns the lane type of a lane-typed pool.
func (s *scanner) kindOf(call *ast.CallExpr, fn *types.Func) (kind string, lane *types.Named) {
	kind = funcName(fn)
	t := s.c.pass.TypesInfo.TypeOf(call)
	if tuple, ok := t.(*types.Tuple); ok && tuple.Len() > 0 {
		t = tuple.At(0).Type()
	}
	if named, _, ok := catalog.LaneTyped(t); ok {
		return kind + "[" + named.Obj().Name() + "]", named
	}
	return kind, nil
}

// funcName is "pkg.Func" or "pkg.Type.Method".
func funcName(fn *types.Func) string {
	fn = fn.Origin()
	name := fn.Name()
	if recv := fn.Signature().Recv(); recv != nil {
		t := recv.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := types.Unalias(t).(*types.Named); ok {
			name = n.Obj().Name() + "." + name
		}
	}
	if fn.Pkg() == nil {
		return name
	}
	return fn.Pkg().Name() + "." + name
}

func compositeLit(e ast.Expr) *ast.CompositeLit {
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = ast.Unparen(u.X)
	}
	lit, _ := e.(*ast.CompositeLit)
	return lit
}

// derefOf is x of &x, e otherwise.
func derefOf(e ast.Expr) ast.Expr {
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		return ast.Unparen(u.X)
	}
	return e
}

// fieldsOf is the keyed fields of a struct literal.
func fieldsOf(lit *ast.CompositeLit) map[string]ast.Expr {
	fields := map[string]ast.Expr{}
	for _, elt := range lit.Elts {
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok {
				fields[id.Name] = kv.Value
			}
		}
	}
	return fields
}

// skippedByDefault names the flag whose default skips the statement at the
// top of stack: an if whose condition, with each flag read as its default,
// is a constant that leads away from it (if *maxConns > 0 { … } with a
// default of 0). "" when no flag's default decides it.
func (s *scanner) skippedByDefault(n ast.Node, stack []ast.Node) string {
	for i := len(stack) - 1; i >= 0; i-- {
		ifs, ok := stack[i].(*ast.IfStmt)
		if !ok {
			continue
		}
		child := n
		if i+1 < len(stack) {
			child = stack[i+1]
		}
		inBody, inElse := child == ifs.Body, ifs.Else != nil && child == ifs.Else
		if !inBody && !inElse {
			continue // in the condition or the init statement
		}
		flags := map[string]bool{}
		v, ok := s.condUnderDefaults(ifs.Cond, flags)
		if ok && len(flags) > 0 && v != inBody {
			return firstKey(flags)
		}
	}
	return ""
}

// condUnderDefaults evaluates a condition over integer constants and flags
// with constant defaults, each flag read as its default: comparisons,
// &&, || and !. flags collects the flags it reads.
func (s *scanner) condUnderDefaults(e ast.Expr, flags map[string]bool) (bool, bool) {
	switch e := ast.Unparen(e).(type) {
	case *ast.UnaryExpr:
		if e.Op == token.NOT {
			v, ok := s.condUnderDefaults(e.X, flags)
			return !v, ok
		}
	case *ast.BinaryExpr:
		switch e.Op {
		case token.LAND, token.LOR:
			x, okx := s.condUnderDefaults(e.X, flags)
			y, oky := s.condUnderDefaults(e.Y, flags)
			if !okx || !oky {
				return false, false
			}
			if e.Op == token.LAND {
				return x && y, true
			}
			return x || y, true
		case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
			x, okx := s.intUnderDefault(e.X, flags)
			y, oky := s.intUnderDefault(e.Y, flags)
			if !okx || !oky {
				return false, false
			}
			return constant.Compare(constant.MakeInt64(int64(x)), e.Op, constant.MakeInt64(int64(y))), true
		}
	}
	return false, false
}

// intUnderDefault is a constant, or a flag's default (its name added to
// flags).
func (s *scanner) intUnderDefault(e ast.Expr, flags map[string]bool) (int, bool) {
	e = ast.Unparen(e)
	if n, ok := constInt(s.c.pass.TypesInfo, e); ok {
		return n, true
	}
	if f, ok := s.flagOf(e); ok {
		flags[f.Name] = true
		return f.Value, true
	}
	return 0, false
}

// assumeSkipped notes, on the pool e holds, that the default of flag
// skips the maximum set on it: it keeps the budget it had.
func (s *scanner) assumeSkipped(e ast.Expr, flag string) {
	if inner := innerOf(e); inner != nil && s.handle(e) == nil {
		e = inner
	}
	if p := s.handle(e); p != nil && p.Budget.Assumed == "" {
		p.Budget.Assumed = "the default of flag -" + flag
	}
}

func firstKey(m map[string]bool) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys[0]
}

// flagNames is the package fact of the integer flags a package declares
// with a constant default, by name: a flag declared in one package (a
// flags.go of urfave/cli structs) is read by name in another.
type flagNames struct {
	Flags []flagDefault
}

func (*flagNames) AFact() {}

func (f *flagNames) String() string {
	var parts []string
	for _, d := range f.Flags {
		parts = append(parts, fmt.Sprintf("-%s=%d", d.Name, d.Value))
	}
	return "flagNames(" + strings.Join(parts, " ") + ")"
}

// cliFlagOf is the flag a CLI library's flag struct literal declares, when
// its name is a constant and its default a constant integer (no default is
// the zero value).
func cliFlagOf(info *types.Info, lit *ast.CompositeLit) (flagDefault, bool) {
	row, ok := catalog.CLIFlagStructs[catalog.TypeKey(info.TypeOf(lit))]
	if !ok {
		return flagDefault{}, false
	}
	fields := fieldsOf(lit)
	name, hasName := fields[row.Name]
	if !hasName {
		return flagDefault{}, false
	}
	tv := info.Types[name]
	if tv.Value == nil || tv.Value.Kind() != constant.String {
		return flagDefault{}, false
	}
	value := 0
	if e, set := fields[row.Default]; set {
		n, isConst := constInt(info, e)
		if !isConst {
			return flagDefault{}, false
		}
		value = n
	}
	return flagDefault{Name: constant.StringVal(tv.Value), Value: value}, true
}

// flagReadBy is the flag a read by name reads (c.Int("db-max")): declared
// with a constant default in this package or one it imports, and with one
// default wherever it is declared.
func (c *checker) flagReadBy(call *ast.CallExpr) (flagDefault, bool) {
	fn := typeutil.StaticCallee(c.pass.TypesInfo, call)
	if fn == nil {
		return flagDefault{}, false
	}
	arg, ok := catalog.FlagReaders[catalog.Key(fn)]
	if !ok || arg >= len(call.Args) {
		return flagDefault{}, false
	}
	tv := c.pass.TypesInfo.Types[call.Args[arg]]
	if tv.Value == nil || tv.Value.Kind() != constant.String {
		return flagDefault{}, false
	}
	name := constant.StringVal(tv.Value)
	c.learnFlags()
	var found []flagDefault
	collect := func(f *flagNames) {
		for _, d := range f.Flags {
			if d.Name == name {
				found = append(found, d)
			}
		}
	}
	collect(c.flagNames)
	for _, pf := range c.pass.AllPackageFacts() {
		if f, ok := pf.Fact.(*flagNames); ok && pf.Package != c.pass.Pkg {
			collect(f)
		}
	}
	if len(found) == 0 || slices.ContainsFunc(found, func(d flagDefault) bool { return d.Value != found[0].Value }) {
		return flagDefault{}, false // unknown, or two flags of that name with different defaults
	}
	return found[0], true
}
