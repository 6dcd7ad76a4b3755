package fairclaim

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// builtQuery is the statement a chain of query builder calls makes, from
// their constant arguments, put back together as SQL so that one reading
// of claims serves both.
type builtQuery struct {
	columns, wheres, orders []string
	table, suffix           string
	model                   *types.Named
	lockAt                  *ast.CallExpr // the call adding FOR UPDATE SKIP LOCKED
	readAt                  *ast.CallExpr // the finisher reading rows (Find, First), if any
	updateAt                *ast.CallExpr // the finisher updating rows (Update, Updates), if any
	unknown                 bool          // a condition or order that is not a constant: unreadable
	xorm                    bool          // built with xorm, whose default table name is not plural
	// optional names a condition variable left out because it stays empty
	// on some path (jobCond := builder.NewCond(), narrowed only under an if).
	optional string
}

// collectChain reads the chain of builder calls ending at call (the
// outermost call of the chain, which ast.Inspect meets first), marking its
// calls seen.
func (c *checker) collectChain(call *ast.CallExpr, seen map[*ast.CallExpr]bool, generated bool, holder types.Object) {
	if fn, _ := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func); entQueryOf(fn) != nil {
		c.collectEntChain(call, seen, generated, holder)
		return
	}
	q, ok := c.readChain(call, seen)
	if !ok || q.unknown {
		return
	}
	if q.lockAt == nil {
		if q.readAt != nil && !generated {
			c.collectOrderedRead(selPos(q.readAt), q.sql(), q.model, q.optional)
		}
		return
	}
	for _, cl := range fifoClaims(q.sql()) {
		cl.optional = q.optional
		c.sites = append(c.sites, site{pos: selPos(q.lockAt), claim: cl, generated: generated, holder: holder, model: q.model})
	}
}

// readChain reads the builder calls of the chain ending at call into a
// query; it reports false when call is not a builder call.
func (c *checker) readChain(call *ast.CallExpr, seen map[*ast.CallExpr]bool) (builtQuery, bool) {
	var q builtQuery
	inChain := false
	for cur := call; cur != nil; cur = ssautil.ReceiverCall(cur) {
		if seen != nil {
			seen[cur] = true
		}
		fn, _ := typeutil.Callee(c.pass.TypesInfo, cur).(*types.Func)
		clause, ok := catalog.SQLBuilderClause(fn)
		if !ok {
			if inChain && !c.fromContextOnly(cur) {
				q.unknown = true // built on a call of another API (Scopes, a helper): it may bind the tenant
			}
			if inChain {
				break
			}
			return q, false
		}
		inChain = true
		q.xorm = q.xorm || catalog.IsXorm(fn)
		c.addClause(&q, clause, cur)
		if ssautil.ReceiverCall(cur) == nil && !c.conditionFreeRoot(cur, 0) {
			q.unknown = true
		}
	}
	return q, true
}

// selPos is where a method call's name is, the place to report a builder
// call at.
func selPos(call *ast.CallExpr) token.Pos {
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		return sel.Sel.Pos()
	}
	return call.Pos()
}

// addClause adds what one builder call contributes. Calls are met from the
// outermost in, so lists are prepended to keep their written order.
func (c *checker) addClause(q *builtQuery, clause catalog.SQLClause, call *ast.CallExpr) {
	switch clause {
	case catalog.ClauseColumns:
		q.columns = append(c.constArgs(call, nil), q.columns...)
	case catalog.ClauseFrom:
		if len(call.Args) > 0 {
			q.table, _ = c.nameArg(call.Args[0])
		}
	case catalog.ClauseWhere:
		q.wheres = append(c.conditions(q, call), q.wheres...)
	case catalog.ClauseOrder:
		q.orders = append(c.orderTerms(q, call), q.orders...)
	case catalog.ClauseLockOption:
		if len(call.Args) > 0 && c.asksSkipLocked(call.Args[0]) {
			q.suffix, q.lockAt = "FOR UPDATE SKIP LOCKED "+q.suffix, call
		}
	case catalog.ClauseSuffix:
		if args := c.constArgs(call, nil); len(args) > 0 {
			q.suffix = strings.Join(args, " ") + " " + q.suffix
			if mayContainClaim(q.suffix) {
				q.lockAt = call
			}
		}
	case catalog.ClauseLocking:
		for _, arg := range call.Args {
			if lock := c.gormLocking(arg); lock != "" {
				q.suffix, q.lockAt = lock+" "+q.suffix, call
			}
		}
	case catalog.ClauseModel, catalog.ClauseRead, catalog.ClauseUpdate:
		if len(call.Args) > 0 && q.model == nil {
			q.model = modelOf(c.pass.TypesInfo.TypeOf(call.Args[0]))
		}
		switch clause {
		case catalog.ClauseRead:
			q.readAt = call
		case catalog.ClauseUpdate:
			q.updateAt = call
		}
	case catalog.ClauseKey:
		q.wheres = append([]string{"id = ?"}, q.wheres...)
	}
}

// constArgs returns the constant string arguments of call; a non-constant
// argument sets *unknown, when given.
func (c *checker) constArgs(call *ast.CallExpr, unknown *bool) []string {
	var out []string
	for _, arg := range call.Args {
		if s, ok := c.constString(arg); ok {
			out = append(out, s)
		} else if unknown != nil {
			*unknown = true
		}
	}
	return out
}

// conditions reads a Where: a constant condition (its arguments are the
// values of its placeholders), or conditions each of which is a map literal
// keyed by column (squirrel's Eq{"tenant_id": id}, goqu's Ex{…}), read as
// column = ?, or a method of an identifier (goqu.C("tenant_id").Eq(id)).
// Anything else makes the query unreadable: it may bind the tenant.
func (c *checker) conditions(q *builtQuery, call *ast.CallExpr) []string {
	if len(call.Args) == 0 {
		return nil
	}
	if s, ok := c.constString(call.Args[0]); ok {
		return []string{c.fillPlaceholders(s, call.Args[1:])}
	}
	var out []string
	for _, arg := range call.Args {
		if name, ok := c.staysEmpty(arg); ok {
			q.optional = name
			continue
		}
		if col, method, ok := c.identifierTerm(arg); ok {
			out = append(out, condition(col, method))
			continue
		}
		lit, ok := ast.Unparen(arg).(*ast.CompositeLit)
		if !ok {
			q.unknown = true
			return nil
		}
		keys, ok := c.mapKeys(lit)
		if !ok {
			q.unknown = true
			return nil
		}
		out = append(out, keys...)
	}
	return out
}

// condition writes an identifier's condition method as SQL the claim
// reader tells apart: bound (=), matched against a list (IN) or other.
func condition(col, method string) string {
	switch {
	case catalog.SQLEqualityMethods[method]:
		return col + " = ?"
	case catalog.SQLListMethods[method]:
		return col + " IN (?)"
	}
	return col + " " + method + " ?"
}

// mapKeys reads a map literal keyed by constant column names as column = ?
// conditions (column = value for a constant value, column IS NULL for nil).
func (c *checker) mapKeys(lit *ast.CompositeLit) ([]string, bool) {
	var out []string
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		key, isConst := "", false
		if ok {
			key, isConst = c.constString(kv.Key)
		}
		if !isConst {
			return nil, false
		}
		if c.isNil(kv.Value) {
			out = append(out, key+" IS NULL")
		} else {
			out = append(out, key+" = "+c.sqlValue(kv.Value))
		}
	}
	return out, true
}

// sqlValue writes a constant Go value as a SQL literal, and anything
// else as a placeholder.
func (c *checker) sqlValue(e ast.Expr) string {
	tv, ok := c.pass.TypesInfo.Types[e]
	if !ok || tv.Value == nil {
		return "?"
	}
	switch tv.Value.Kind() {
	case constant.String:
		return "'" + strings.ReplaceAll(constant.StringVal(tv.Value), "'", "''") + "'"
	case constant.Int, constant.Float:
		return tv.Value.ExactString()
	}
	return "?"
}

func (c *checker) isNil(e ast.Expr) bool {
	tv, ok := c.pass.TypesInfo.Types[e]
	return ok && tv.IsNil()
}

// fillPlaceholders puts the constant values among args in place of the ?
// placeholders of a condition (Where("task_id = ? AND status = ?", 0,
// "queued")), so that a test of a claim column's unclaimed value is seen.
// A text with other placeholders, or a different count, is left as it is.
func (c *checker) fillPlaceholders(cond string, args []ast.Expr) string {
	if strings.Count(cond, "?") != len(args) || len(args) == 0 {
		return cond
	}
	var b strings.Builder
	i := 0
	for _, r := range cond {
		if r == '?' {
			b.WriteString(c.sqlValue(args[i]))
			i++
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// orderTerms reads an OrderBy or Order: constant terms, or an identifier's
// Asc() or Desc() (goqu.C("created_at").Asc()). Anything else makes the
// query unreadable.
func (c *checker) orderTerms(q *builtQuery, call *ast.CallExpr) []string {
	var out []string
	for _, arg := range call.Args {
		if s, ok := c.constString(arg); ok {
			out = append(out, s)
		} else if col, _, ok := c.identifierTerm(arg); ok {
			out = append(out, col)
		} else {
			q.unknown = true
		}
	}
	return out
}

// nameArg is a constant name, or the constant an identifier function is
// given (goqu.T("jobs")).
func (c *checker) nameArg(arg ast.Expr) (string, bool) {
	if s, ok := c.constString(arg); ok {
		return s, true
	}
	call, ok := ast.Unparen(arg).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return "", false
	}
	fn, _ := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	if !catalog.SQLIdentifiers.Has(fn) {
		return "", false
	}
	return c.constString(call.Args[0])
}

// identifierTerm reads a method called on an identifier: goqu.C("col").Eq(v)
// is col and Eq.
func (c *checker) identifierTerm(arg ast.Expr) (col, method string, ok bool) {
	call, isCall := ast.Unparen(arg).(*ast.CallExpr)
	if !isCall {
		return "", "", false
	}
	sel, isSel := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !isSel {
		return "", "", false
	}
	col, ok = c.nameArg(sel.X)
	if !ok || !isCallOf(sel.X) {
		return "", "", false
	}
	return col, sel.Sel.Name, true
}

func isCallOf(e ast.Expr) bool {
	_, ok := ast.Unparen(e).(*ast.CallExpr)
	return ok
}

// asksSkipLocked reports whether arg names a constant of SQLSkipLocked
// (exp.SkipLocked).
func (c *checker) asksSkipLocked(arg ast.Expr) bool {
	var id *ast.Ident
	switch e := ast.Unparen(arg).(type) {
	case *ast.Ident:
		id = e
	case *ast.SelectorExpr:
		id = e.Sel
	default:
		return false
	}
	k, ok := c.pass.TypesInfo.Uses[id].(*types.Const)
	return ok && k.Pkg() != nil && catalog.SQLSkipLocked[k.Pkg().Path()+"."+k.Name()]
}

// gormLocking reads clause.Locking{Strength: "UPDATE", Options: "SKIP
// LOCKED"} as the SQL it adds.
func (c *checker) gormLocking(arg ast.Expr) string {
	lit, ok := ast.Unparen(arg).(*ast.CompositeLit)
	if !ok {
		return ""
	}
	if t, ok := types.Unalias(c.pass.TypesInfo.TypeOf(lit)).(*types.Named); !ok || t.Obj().Pkg() == nil ||
		t.Obj().Pkg().Path()+"."+t.Obj().Name() != catalog.GormLocking {
		return ""
	}
	fields := map[string]string{}
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		if id, ok := kv.Key.(*ast.Ident); ok {
			if s, ok := c.constString(kv.Value); ok {
				fields[id.Name] = s
			}
		}
	}
	if fields["Strength"] == "" || fields["Options"] == "" {
		return ""
	}
	return "FOR " + fields["Strength"] + " " + fields["Options"]
}

// sql puts the chain back together as one statement.
func (q *builtQuery) sql() string {
	var b strings.Builder
	b.WriteString("SELECT ")
	if len(q.columns) == 0 {
		b.WriteString("*")
	}
	b.WriteString(strings.Join(q.columns, ", "))
	table := q.table
	switch {
	case table != "" || q.model == nil:
	case q.xorm:
		table = catalog.LaneName(q.model.Obj().Name()) // xorm's snake case, singular
	default:
		table = gormTable(q.model)
	}
	if table == "" {
		table = "(unknown)"
	}
	b.WriteString(" FROM " + table)
	if len(q.wheres) > 0 {
		b.WriteString(" WHERE (" + strings.Join(q.wheres, ") AND (") + ")")
	}
	if len(q.orders) > 0 {
		b.WriteString(" ORDER BY " + strings.Join(q.orders, ", "))
	}
	b.WriteString(" " + q.suffix)
	return b.String()
}

// modelOf is the named struct type behind *T, []T, *[]T or []*T.
func modelOf(t types.Type) *types.Named {
	for {
		switch u := types.Unalias(t).(type) {
		case *types.Pointer:
			t = u.Elem()
		case *types.Slice:
			t = u.Elem()
		case *types.Named:
			if _, ok := u.Underlying().(*types.Struct); ok {
				return u
			}
			return nil
		default:
			return nil
		}
	}
}

// modelTenant is the tenant column of a gorm model, by its fields' column
// names (a gorm:"column:…" tag, or gorm's snake case of the field's name),
// with the field's name.
func modelTenant(model *types.Named) (column, field string) {
	st := model.Underlying().(*types.Struct)
	for i := range st.NumFields() {
		f := st.Field(i)
		col := gormColumn(f.Name(), st.Tag(i))
		if catalog.TenantColumns[col] {
			return col, f.Name()
		}
		if catalog.OwnerColumns[col] && column == "" {
			column, field = col, f.Name() // the tenant unless a tenant column follows
		}
	}
	return column, field
}

// gormColumn is a model field's column: a gorm:"column:…" tag, a quoted
// name in an xorm tag (xorm:"'tenant_id' index"), or the snake case of its
// name both libraries use by default.
func gormColumn(name, tag string) string {
	for part := range strings.SplitSeq(reflect.StructTag(tag).Get("gorm"), ";") {
		if col, ok := strings.CutPrefix(strings.TrimSpace(part), "column:"); ok {
			return strings.ToLower(col)
		}
	}
	for part := range strings.FieldsSeq(reflect.StructTag(tag).Get("xorm")) {
		if len(part) > 2 && part[0] == '\'' && part[len(part)-1] == '\'' {
			return strings.ToLower(part[1 : len(part)-1])
		}
	}
	return catalog.LaneName(name) // gorm's snake case is the runtime's for lane names: TenantID → tenant_id
}

// gormTable is gorm's default table name for a model: the snake case of its
// name, plural. (A TableName method is not read; the name only labels the
// message and finds a CREATE TABLE.)
func gormTable(model *types.Named) string {
	name := catalog.LaneName(model.Obj().Name())
	switch {
	case strings.HasSuffix(name, "y") && !strings.HasSuffix(name, "ey"):
		return name[:len(name)-1] + "ies"
	case strings.HasSuffix(name, "s"), strings.HasSuffix(name, "x"), strings.HasSuffix(name, "ch"), strings.HasSuffix(name, "sh"):
		return name + "es"
	}
	return name + "s"
}

// The chain's first call is made on something: a package (sq.Select), a
// struct field or package variable holding a handle (s.db, psql), or a
// variable of the function. A variable assigned a builder that carries
// conditions (tx := db.Where("tenant_id = ?", t)) or a call the catalogue
// does not know (tx := tenantScoped(db)) may bind the tenant, so the chain
// on it is unreadable. Parameters and fields are taken for plain handles.

// maxRootDepth bounds how many assignments back a chain's root is followed.
const maxRootDepth = 4

// conditionFreeRoot reports whether what the innermost call of a chain is
// called on carries no conditions.
func (c *checker) conditionFreeRoot(inner *ast.CallExpr, depth int) bool {
	sel, ok := ast.Unparen(inner.Fun).(*ast.SelectorExpr)
	if !ok {
		return true
	}
	return c.conditionFree(sel.X, depth)
}

// conditionFree reports whether e, a builder or handle, carries no
// conditions: a package name, a field, a variable only ever assigned such
// values, or a chain of calls that add nothing to a statement (WithContext,
// Begin) on one.
func (c *checker) conditionFree(e ast.Expr, depth int) bool {
	if depth > maxRootDepth {
		return false
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.SelectorExpr:
		return true // a field, or a package's variable
	case *ast.Ident:
		switch obj := c.pass.TypesInfo.Uses[e].(type) {
		case *types.PkgName:
			return true
		case *types.Var:
			return c.conditionFreeVar(obj, depth)
		}
	case *ast.CallExpr:
		if c.fromContextOnly(e) {
			return true
		}
		for cur := e; cur != nil; cur = ssautil.ReceiverCall(cur) {
			fn, _ := typeutil.Callee(c.pass.TypesInfo, cur).(*types.Func)
			if clause, ok := catalog.SQLBuilderClause(fn); !ok || clause != 0 {
				return false
			}
			if ssautil.ReceiverCall(cur) == nil {
				return c.conditionFreeRoot(cur, depth+1)
			}
		}
	}
	return false
}

// fromContextOnly reports whether call is a function given only a
// context (gitea's db.GetEngine(ctx)): it returns the handle the context
// carries, the engine or the transaction's session, taken for a plain
// handle as a parameter is.
func (c *checker) fromContextOnly(call *ast.CallExpr) bool {
	if len(call.Args) == 0 {
		return false
	}
	for _, arg := range call.Args {
		if !ssautil.IsContext(c.pass.TypesInfo.TypeOf(arg)) {
			return false
		}
	}
	return true
}

// conditionFreeVar reports whether every value the function assigns to v
// carries no conditions (a parameter, never assigned, is taken as it is).
func (c *checker) conditionFreeVar(v *types.Var, depth int) bool {
	if c.body == nil || v.Pkg() == nil || v.Parent() == v.Pkg().Scope() {
		return true
	}
	free := true
	ast.Inspect(c.body, func(n ast.Node) bool {
		if !free {
			return false
		}
		switch n := n.(type) {
		case *ast.AssignStmt:
			if len(n.Lhs) != len(n.Rhs) {
				free = !c.assignsTo(n.Lhs, v)
				return free
			}
			for i, lhs := range n.Lhs {
				if c.isVar(lhs, v) && !c.conditionFree(n.Rhs[i], depth+1) {
					free = false
				}
			}
		case *ast.ValueSpec:
			for i, name := range n.Names {
				if c.isVar(name, v) && i < len(n.Values) && !c.conditionFree(n.Values[i], depth+1) {
					free = false
				}
			}
		}
		return free
	})
	return free
}

func (c *checker) assignsTo(lhs []ast.Expr, v *types.Var) bool {
	return slices.ContainsFunc(lhs, func(e ast.Expr) bool { return c.isVar(e, v) })
}

func (c *checker) isVar(e ast.Expr, v *types.Var) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && (c.pass.TypesInfo.Defs[id] == v || c.pass.TypesInfo.Uses[id] == v)
}
