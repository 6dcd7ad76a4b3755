package fairclaim

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/bhlint/bhlint/internal/catalog"
)

// A claim need not lock. A worker that reads the waiting rows in order of
// age and then takes the first with a compare-and-set update (UPDATE …
// WHERE id = $1 AND claimed_by IS NULL, or xorm's Update with
// builder.Eq{"task_id": 0}) claims first-in-first-out as surely as one
// with FOR UPDATE SKIP LOCKED: the update fails only when another worker
// took the row first. This file finds such pairs in one function: the
// ordered read, and after it a conditional write of the same rows.

// orderedRead is a read of rows in order of age only, without a lock: a
// claim if the function then takes one of its rows with a compare-and-set
// update.
type orderedRead struct {
	pos      token.Pos
	claim    fifoClaim
	model    *types.Named
	fn       *ast.FuncDecl // the function reading, or nil for a package-level constant
	constant types.Object  // the package-level constant holding the read, if so
}

// casWrite is a compare-and-set update of one row: its WHERE tests the row's
// id and a claim column's unclaimed value, and it writes that column.
type casWrite struct {
	pos    token.Pos
	column string // the claim column, as tested (task_id = 0)
	table  string
	model  *types.Named
}

// orderedReads returns the reads among the statements of a SQL text that
// take rows in order of age only, bound to no tenant.
func orderedReads(text string) []fifoClaim {
	lower := strings.ToLower(text)
	if !strings.Contains(lower, "select") || !strings.Contains(lower, "order") || mayContainClaim(text) {
		return nil
	}
	sql := tokenize(text)
	var out []fifoClaim
	for _, st := range sql.statements() {
		if !is(st, 0, "select") {
			continue
		}
		cs, ok := clausesOf(st, claimSelect{sel: 0, from: -1, order: -1, filter: len(st), lock: len(st)})
		if !ok {
			continue
		}
		if c, ok := ageOrdered(st, cs); ok {
			c.name = sql.name
			out = append(out, c)
		}
	}
	return out
}

// casUpdates returns the compare-and-set updates among the statements of a
// SQL text: UPDATE t SET col = … WHERE id = $1 AND col IS NULL.
func casUpdates(text string) []casWrite {
	lower := strings.ToLower(text)
	if !strings.Contains(lower, "update") || !strings.Contains(lower, "where") {
		return nil
	}
	var out []casWrite
	for _, st := range tokenize(text).statements() {
		if !is(st, 0, "update") {
			continue
		}
		set, where, end := -1, -1, len(st)
		for i, t := range st {
			switch {
			case t.depth != 0:
			case is(st, i, "set") && set < 0:
				set = i
			case is(st, i, "where") && where < 0:
				where = i
			case is(st, i, "returning") || is(st, i, "from") && where < 0:
				end = min(end, i)
			}
		}
		if set < 0 || where < 0 {
			continue
		}
		col := unclaimedTest(st[where+1 : end])
		if col == "" || !keyedByID(st[where+1:end]) || !setsColumn(st[set+1:min(where, end)], col) {
			continue
		}
		table := tableAt(st, claimSelect{from: 0})
		out = append(out, casWrite{column: col, table: table})
	}
	return out
}

// unclaimedTest is the column a condition tests for its unclaimed value:
// col IS NULL, col = 0, col = ”, or col = 'pending' (a waiting state).
func unclaimedTest(toks []lexeme) string {
	for i := 0; i+2 < len(toks); i++ {
		if toks[i].kind != word || isKeyword(toks[i].text) {
			continue
		}
		if is(toks, i+1, "is") && is(toks, i+2, "null") {
			return toks[i].text
		}
		if toks[i+1].text != "=" {
			continue
		}
		v := toks[i+2]
		switch {
		case v.kind == number && v.text == "0", v.kind == str && v.text == "''":
			return toks[i].text
		case v.kind == str && catalog.WaitingStates[strings.ToLower(strings.Trim(v.text, "'"))]:
			return toks[i].text
		}
	}
	return ""
}

func isKeyword(w string) bool {
	switch w {
	case "and", "or", "not", "where", "is", "null":
		return true
	}
	return false
}

// keyedByID reports whether a condition picks one row by its id (id = $1).
func keyedByID(toks []lexeme) bool {
	for i := 0; i+2 < len(toks); i++ {
		if is(toks, i, "id") && toks[i+1].text == "=" && isValue(toks[i+2]) {
			return true
		}
	}
	return false
}

// setsColumn reports whether a SET list assigns col.
func setsColumn(toks []lexeme, col string) bool {
	for _, item := range splitItems(toks, 0) {
		if len(item) > 1 && item[0].kind == word && item[0].text == col && item[1].text == "=" {
			return true
		}
	}
	return false
}

// collectOrderedRead records the ordered reads of a statement text read
// in the function being collected, or in a package-level constant.
func (c *checker) collectOrderedRead(pos token.Pos, text string, model *types.Named, optional string) {
	for _, cl := range orderedReads(text) {
		cl.optional = optional
		c.reads = append(c.reads, orderedRead{pos: pos, claim: cl, model: model, fn: c.fn})
	}
}

// collectConstRead records the ordered reads of a package-level constant,
// matched later with the functions that use it.
func (c *checker) collectConstRead(pos token.Pos, text string, holder types.Object) {
	if _, ok := holder.(*types.Const); !ok {
		return
	}
	for _, cl := range orderedReads(text) {
		c.reads = append(c.reads, orderedRead{pos: pos, claim: cl, constant: holder})
	}
}

// matchWrites turns each ordered read followed, in the same function, by a
// compare-and-set update of the same rows into a claim to judge.
func (c *checker) matchWrites() {
	writes := map[*ast.FuncDecl][]casWrite{}
	for _, r := range c.reads {
		fns := []*ast.FuncDecl{r.fn}
		if r.fn == nil {
			fns = c.funcsUsing(r.constant)
		}
		for _, fn := range fns {
			if fn == nil || c.isTestPos(fn.Pos()) {
				continue
			}
			if _, ok := writes[fn]; !ok {
				writes[fn] = c.casWrites(fn)
			}
			readAt := r.pos
			if r.fn == nil {
				readAt = c.firstUse(fn, r.constant)
			}
			if w, ok := claimingWrite(fn, readAt, r, writes[fn]); ok {
				cl := r.claim
				cl.cas = &w
				c.sites = append(c.sites, site{pos: r.pos, claim: cl, model: r.model})
				break
			}
		}
	}
}

// claimingWrite is the first write after the read, of the same rows, run
// once per read: a write in a loop the read is not in runs for each row
// read (a batch sweep updating them all), not for one chosen row.
func claimingWrite(fn *ast.FuncDecl, readAt token.Pos, r orderedRead, writes []casWrite) (casWrite, bool) {
	for _, w := range writes {
		if w.pos <= readAt || !sameRows(r, w) || inLoopWithout(fn.Body, w.pos, readAt) {
			continue
		}
		return w, true
	}
	return casWrite{}, false
}

func sameRows(r orderedRead, w casWrite) bool {
	if r.model != nil && w.model != nil {
		return types.Identical(r.model, w.model)
	}
	return r.claim.table != "" && r.claim.table == w.table
}

// inLoopWithout reports whether a loop of body holds the position w but
// not r.
func inLoopWithout(body ast.Node, w, r token.Pos) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			if n.Pos() <= w && w < n.End() && !(n.Pos() <= r && r < n.End()) {
				found = true
			}
		case *ast.FuncLit:
			return false
		}
		return !found
	})
	return found
}

// casWrites finds the compare-and-set updates of a function: in SQL text,
// in a builder chain ending in an update, or in a call of a function of
// the package that updates the row it is given under the condition it is
// given (gitea's UpdateRunJob(ctx, job, builder.Eq{"task_id": 0})).
func (c *checker) casWrites(fn *ast.FuncDecl) []casWrite {
	var out []casWrite
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		e, ok := n.(ast.Expr)
		if !ok {
			return true
		}
		if text, ok := c.constString(e); ok {
			for _, w := range casUpdates(text) {
				w.pos = e.Pos()
				out = append(out, w)
			}
			return false
		}
		call, ok := e.(*ast.CallExpr)
		if !ok {
			return true
		}
		if w, ok := c.chainWrite(fn, call); ok {
			out = append(out, w)
		} else if w, ok := c.helperWrite(fn, call); ok {
			out = append(out, w)
		}
		return true
	})
	return out
}

// chainWrite reads a builder chain ending in an update:
// e.ID(job.ID).Where(builder.Eq{"task_id": 0}).Update(job).
func (c *checker) chainWrite(fn *ast.FuncDecl, call *ast.CallExpr) (casWrite, bool) {
	q, ok := c.readChain(call, nil)
	if !ok || q.updateAt != call {
		return casWrite{}, false
	}
	where := tokenize(strings.Join(q.wheres, " AND ")).toks
	col := unclaimedTest(where)
	if col == "" || !keyedByID(where) || !c.updateWrites(fn, call, col) {
		return casWrite{}, false
	}
	return casWrite{pos: call.Pos(), column: col, table: q.table, model: q.model}, true
}

// updateWrites reports whether the update call writes col: named as
// gorm's Update("col", v) names it, a key of the map it is given, or a
// field of the row it is given that the function assigns (job.TaskID =
// task.ID before Update(job)).
func (c *checker) updateWrites(fn *ast.FuncDecl, call *ast.CallExpr, col string) bool {
	if len(call.Args) == 0 {
		return false
	}
	if name, ok := c.constString(call.Args[0]); ok {
		return strings.EqualFold(name, col)
	}
	if lit, ok := ast.Unparen(call.Args[0]).(*ast.CompositeLit); ok {
		if conds, ok := c.mapKeys(lit); ok {
			for _, k := range conds {
				if strings.HasPrefix(k, col+" ") {
					return true
				}
			}
		}
	}
	return assignsField(fn.Body, col)
}

// assignsField reports whether body assigns a struct field whose column
// (the snake case of its name) is col.
func assignsField(body ast.Node, col string) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok {
			return !found
		}
		for _, lhs := range as.Lhs {
			if sel, ok := ast.Unparen(lhs).(*ast.SelectorExpr); ok && catalog.LaneName(sel.Sel.Name) == col {
				found = true
			}
		}
		return !found
	})
	return found
}

// helperWrite reads a call of a function of the package given a condition
// map literal that tests a claim column (builder.Eq{"task_id": 0}), when
// that function updates one row by id under the condition it is given. The
// row is the call's argument of a model type; the column must be assigned
// by the caller.
func (c *checker) helperWrite(fn *ast.FuncDecl, call *ast.CallExpr) (casWrite, bool) {
	callee, _ := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	decl := c.decls()[callee]
	if decl == nil || decl.Body == nil {
		return casWrite{}, false
	}
	for i, arg := range call.Args {
		lit, ok := ast.Unparen(arg).(*ast.CompositeLit)
		if !ok || !c.isConditionMap(lit) {
			continue
		}
		conds, ok := c.mapKeys(lit)
		if !ok {
			continue
		}
		col := unclaimedTest(tokenize(strings.Join(conds, " AND ")).toks)
		if col == "" || !c.updatesByIDUnder(decl, i) || !assignsField(fn.Body, col) {
			continue
		}
		w := casWrite{pos: call.Pos(), column: col}
		for _, a := range call.Args {
			if m := modelOf(c.pass.TypesInfo.TypeOf(a)); m != nil && w.model == nil {
				w.model = m
			}
		}
		return w, w.model != nil
	}
	return casWrite{}, false
}

func (c *checker) isConditionMap(lit *ast.CompositeLit) bool {
	t, ok := types.Unalias(c.pass.TypesInfo.TypeOf(lit)).(*types.Named)
	return ok && t.Obj().Pkg() != nil && catalog.SQLConditionMaps[t.Obj().Pkg().Path()+"."+t.Obj().Name()]
}

// updatesByIDUnder reports whether decl's body updates one row by id
// (xorm's ID) and passes its parameter i to a condition of a builder
// (sess.Where(cond)): the helper applies the caller's condition to the
// update of one row. The calls may be on one session over several
// statements, as gitea writes them.
func (c *checker) updatesByIDUnder(decl *ast.FuncDecl, i int) bool {
	params := decl.Type.Params
	var param types.Object
	k := 0
	for _, field := range params.List {
		for _, name := range field.Names {
			if k == i {
				param = c.pass.TypesInfo.Defs[name]
			}
			k++
		}
	}
	if param == nil {
		return false
	}
	keyed, updates, applied := false, false, false
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		fn, _ := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
		switch clause, _ := catalog.SQLBuilderClause(fn); clause {
		case catalog.ClauseKey:
			keyed = true
		case catalog.ClauseUpdate:
			updates = true
		case catalog.ClauseWhere:
			for _, a := range call.Args {
				if id, ok := ast.Unparen(a).(*ast.Ident); ok && c.pass.TypesInfo.Uses[id] == param {
					applied = true
				}
			}
		}
		return true
	})
	return keyed && updates && applied
}

// decls maps the package's functions to their declarations.
func (c *checker) decls() map[*types.Func]*ast.FuncDecl {
	if c.funcDecls == nil {
		c.funcDecls = map[*types.Func]*ast.FuncDecl{}
		for _, f := range c.pass.Files {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok {
					if fn, ok := c.pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
						c.funcDecls[fn] = fd
					}
				}
			}
		}
	}
	return c.funcDecls
}

// funcsUsing returns the declarations of the package's functions that use
// obj, in the order they are written.
func (c *checker) funcsUsing(obj types.Object) []*ast.FuncDecl {
	var out []*ast.FuncDecl
	for _, fd := range c.decls() {
		if fd.Body != nil && usesObject(c.pass.TypesInfo, fd.Body, obj) {
			out = append(out, fd)
		}
	}
	slices.SortFunc(out, func(a, b *ast.FuncDecl) int { return cmp.Compare(a.Pos(), b.Pos()) })
	return out
}

func (c *checker) isTestPos(pos token.Pos) bool {
	return strings.HasSuffix(c.pass.Fset.Position(pos).Filename, "_test.go")
}

// firstUse is where fn first uses obj.
func (c *checker) firstUse(fn *ast.FuncDecl, obj types.Object) token.Pos {
	pos := token.NoPos
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && pos == token.NoPos && c.pass.TypesInfo.Uses[id] == obj {
			pos = id.Pos()
		}
		return pos == token.NoPos
	})
	return pos
}

// staysEmpty reports whether arg is a condition variable that is empty on
// some path to its use: declared with a condition binding nothing
// (builder.NewCond()) and assigned otherwise only inside branches (if,
// switch) that do not hold the use. It returns the variable's name.
func (c *checker) staysEmpty(arg ast.Expr) (string, bool) {
	id, ok := ast.Unparen(arg).(*ast.Ident)
	if !ok || c.fn == nil {
		return "", false
	}
	v, ok := c.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok {
		return "", false
	}
	declaredEmpty, narrowedOnAllPaths := false, false
	var stack []ast.Node
	ast.Inspect(c.fn.Body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		stack = append(stack, n)
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != len(as.Rhs) {
			return true
		}
		for i, lhs := range as.Lhs {
			if !c.isVar(lhs, v) {
				continue
			}
			switch {
			case as.Tok == token.DEFINE && c.pass.TypesInfo.Defs[lhs.(*ast.Ident)] == v:
				declaredEmpty = c.isEmptyCondition(as.Rhs[i])
			case !inBranchWithout(stack, id.Pos()):
				narrowedOnAllPaths = true
			}
		}
		return true
	})
	return v.Name(), declaredEmpty && !narrowedOnAllPaths
}

// inBranchWithout reports whether one of the enclosing nodes is a branch
// (of an if or a switch) that does not hold pos.
func inBranchWithout(stack []ast.Node, pos token.Pos) bool {
	for _, n := range stack {
		switch n.(type) {
		case *ast.IfStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
			if !(n.Pos() <= pos && pos < n.End()) {
				return true
			}
		}
	}
	return false
}

func (c *checker) isEmptyCondition(e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	fn, _ := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	return catalog.SQLEmptyConditions.Has(fn)
}

// describeTake says how a claim takes its row, for a message.
func (c *checker) describeTake(cl fifoClaim) string {
	when := ""
	if cl.optional != "" {
		when = fmt.Sprintf(" (when %s stays empty)", cl.optional)
	}
	if cl.cas == nil {
		return "with FOR UPDATE SKIP LOCKED" + when
	}
	p := c.pass.Fset.Position(cl.cas.pos)
	return fmt.Sprintf("read%s and then taken with a compare-and-set update that requires %s unclaimed (%s:%d), without a lock",
		when, cl.cas.column, filepath.Base(p.Filename), p.Line)
}
