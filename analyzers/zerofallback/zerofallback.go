package zerofallback

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/directive"
	"github.com/bhlint/bhlint/internal/docs"
	"github.com/bhlint/bhlint/internal/guard"
)

// Code starts every message of this analyzer.
const Code = "ERR_UNTESTED_COMPENSATION_REJECTED"

//go:embed doc.go
var doc string

// Analyzer reports fallback paths that serve hard-coded money values.
var Analyzer = guard.Wrap(&analysis.Analyzer{
	Name: "zerofallback",
	Doc:  docs.Extract(doc, "zerofallback"),
	URL:  "https://github.com/bhlint/bhlint/tree/main/analyzers/zerofallback",
	Run:  run,
}, Code)

func run(pass *analysis.Pass) (any, error) {
	money, err := moneyPatterns(pass)
	if err != nil {
		return nil, err
	}
	if declaresCatalogType(money, pass.Pkg) || !declaresMoney(money, pass) {
		return nil, nil
	}
	c := &checker{
		pass:       pass,
		money:      money,
		registered: map[ast.Node]*entry{},
		regFuncs:   map[*types.Func]*entry{},
		verified:   map[string]map[int]bool{},
		writes:     map[*types.Var][]write{},
		reported:   map[token.Pos]bool{},
		tables:     map[*types.Var]bool{},
	}
	for _, f := range pass.Files {
		c.collectDirectives(f)
		c.collectRegistrations(f)
		c.collectTables(f)
	}
	for _, f := range pass.Files {
		if strings.HasSuffix(pass.Fset.File(f.Pos()).Name(), "_test.go") {
			continue // test fakes fail on purpose and answer anything; they never serve production
		}
		guard.At(f.Pos(), func() { c.checkFile(f) })
	}
	return nil, nil
}

// moneyPatterns are the catalogue's money patterns, extended by the
// project's .bhlint.yml; the shared table itself is never changed.
func moneyPatterns(pass *analysis.Pass) (*catalog.MoneyPatterns, error) {
	cfg, err := guard.Config(pass)
	if err != nil {
		return nil, err
	}
	m := cfg.Money
	if len(m.Words)+len(m.WeakWords)+len(m.NotMoney)+len(m.Types) == 0 {
		return catalog.Money, nil
	}
	money := catalog.Money.Clone()
	money.AddWords(m.Words, m.WeakWords, m.NotMoney)
	money.AddTypes(m.Types...)
	return money, nil
}

// declaresCatalogType: the decimal and money libraries themselves (their
// Pow returns a zero Decimal on overflow) are arithmetic, not services with
// fallbacks.
func declaresCatalogType(m *catalog.MoneyPatterns, pkg *types.Package) bool {
	for key := range m.Types {
		if strings.HasPrefix(key, pkg.Path()+".") && !strings.Contains(key[len(pkg.Path())+1:], "/") {
			return true
		}
	}
	return false
}

// declaresMoney is the early bail-out: a package that defines no money
// variable, field, result or type cannot serve an invented money value.
func declaresMoney(m *catalog.MoneyPatterns, pass *analysis.Pass) bool {
	for id, obj := range pass.TypesInfo.Defs {
		switch obj := obj.(type) {
		case *types.Var:
			if holdsMoney(m, obj.Type()) || m.NameIsMoney(id.Name, obj.Type()) {
				return true
			}
		case *types.Func:
			res := obj.Signature().Results()
			for i := range res.Len() {
				if holdsMoney(m, res.At(i).Type()) || m.NameIsMoney(id.Name, res.At(i).Type()) {
					return true
				}
			}
		case *types.TypeName:
			if holdsMoney(m, obj.Type()) {
				return true
			}
		}
	}
	return false
}

type checker struct {
	pass       *analysis.Pass
	money      *catalog.MoneyPatterns  // the catalogue's, plus the project's .bhlint.yml
	registered map[ast.Node]*entry     // func literals registered as fallbacks
	regFuncs   map[*types.Func]*entry  // named functions registered as fallbacks
	verified   map[string]map[int]bool // file → lines of //bhlint:verified-compensation
	writes     map[*types.Var][]write  // every write to a local or result, in source order
	reported   map[token.Pos]bool
	// tables are package-level maps, slices and arrays initialised with
	// constants only: hard-coded tables that no contract test verifies.
	tables map[*types.Var]bool
}

// entry is where a fallback path starts, and why it is one.
type entry struct {
	pos token.Pos
	why string
	// body is the block of the branch, nil for a whole function; a write in
	// a body that ends in a return does not reach code after the branch.
	body *ast.BlockStmt
	// stmt is the if or switch statement of the branch: writes in its other
	// branches do not overwrite one in body.
	stmt ast.Node
}

// write is one assignment to a variable: the value written (nil when it is
// not a single expression: a call's results, x += y, &x passed on) and the
// fallback path it is on, if any.
type write struct {
	pos   token.Pos
	value ast.Expr
	on    *entry
}

// ---- directives and registrations ----

func (c *checker) collectDirectives(f *ast.File) {
	for _, d := range directive.InFile(f, directive.VerifiedCompensation) {
		p := c.pass.Fset.Position(d.Pos)
		if c.verified[p.Filename] == nil {
			c.verified[p.Filename] = map[int]bool{}
		}
		c.verified[p.Filename][p.Line] = true
	}
}

// isVerified reports whether fn is marked //bhlint:verified-compensation: in
// its doc comment, or, for a literal, on its line or the line above.
func (c *checker) isVerified(fn ast.Node) bool {
	if fd, ok := fn.(*ast.FuncDecl); ok {
		return len(directive.InGroup(fd.Doc, directive.VerifiedCompensation)) > 0
	}
	p := c.pass.Fset.Position(fn.Pos())
	lines := c.verified[p.Filename]
	return lines[p.Line] || lines[p.Line-1]
}

func (c *checker) collectRegistrations(f *ast.File) {
	ast.PreorderStack(f, nil, func(n ast.Node, stack []ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		fn, _ := typeutilCallee(c.pass.TypesInfo, call).(*types.Func)
		if fn == nil {
			return true
		}
		key := catalog.Key(fn)
		if i, ok := catalog.FallbackFuncs[key]; ok && i < len(call.Args) {
			e := &entry{pos: call.Pos(), why: "registered as a fallback with " + shortName(fn)}
			switch arg := ast.Unparen(call.Args[i]).(type) {
			case *ast.FuncLit:
				c.registered[arg] = e
			default:
				if named, ok := calleeObject(c.pass.TypesInfo, arg).(*types.Func); ok {
					c.regFuncs[named] = e
				}
			}
		}
		if i, ok := catalog.FallbackValues[key]; ok && i < len(call.Args) {
			c.checkFallbackValue(call, fn, call.Args[i], stack)
		}
		return true
	})
}

func (c *checker) collectTables(f *ast.File) {
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR {
			continue
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			if len(vs.Values) != len(vs.Names) {
				continue
			}
			for i, name := range vs.Names {
				lit, ok := ast.Unparen(vs.Values[i]).(*ast.CompositeLit)
				v, isVar := c.pass.TypesInfo.Defs[name].(*types.Var)
				if ok && isVar && len(lit.Elts) > 0 && c.allConstant(elementValues(lit)) {
					switch v.Type().Underlying().(type) {
					case *types.Map, *types.Slice, *types.Array:
						c.tables[v] = true
					}
				}
			}
		}
	}
}

// hardCodedTable reports whether x reads a hard-coded table: rates[j].
func (c *checker) hardCodedTable(x ast.Expr) (string, bool) {
	ix, ok := ast.Unparen(x).(*ast.IndexExpr)
	if !ok {
		return "", false
	}
	id, ok := ast.Unparen(ix.X).(*ast.Ident)
	if !ok {
		return "", false
	}
	if v, ok := c.pass.TypesInfo.Uses[id].(*types.Var); ok && c.tables[v] {
		return id.Name, true
	}
	return "", false
}

// checkFallbackValue reports fallback.NewWithResult(0) for a money result.
func (c *checker) checkFallbackValue(call *ast.CallExpr, fn *types.Func, arg ast.Expr, stack []ast.Node) {
	if c.stackVerified(stack) {
		return
	}
	t := c.pass.TypesInfo.TypeOf(arg)
	if t == nil || !(holdsMoney(c.money, t) || c.money.NameIsMoney(subjectName(stack), t)) {
		return
	}
	if what, ok := c.invented(arg); ok {
		c.report(arg.Pos(), &entry{pos: call.Pos(), why: "registered as the fallback result of " + shortName(fn)},
			fmt.Sprintf("%s: %s serves %s as the result of every failed call: an invented %s the caller cannot tell from a real one; %s",
				Code, shortName(fn), what, noun(t, ""), fix))
	}
}

// ---- the walk ----

func (c *checker) checkFile(f *ast.File) {
	ast.PreorderStack(f, nil, func(n ast.Node, stack []ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			c.recordAssign(n, stack)
		case *ast.ValueSpec:
			c.recordValueSpec(n, stack)
		case *ast.RangeStmt:
			for _, x := range []ast.Expr{n.Key, n.Value} {
				c.recordWrite(x, nil, n.Pos(), stack)
			}
		case *ast.IncDecStmt:
			c.recordWrite(n.X, nil, n.Pos(), stack)
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				c.recordWrite(n.X, nil, n.Pos(), stack)
			}
		case *ast.ReturnStmt:
			guard.At(n.Pos(), func() { c.checkReturn(n, stack) })
		case *ast.DeferStmt:
			guard.At(n.Pos(), func() { c.checkDeferredRecover(n, stack) })
		}
		return true
	})
}

func (c *checker) recordAssign(as *ast.AssignStmt, stack []ast.Node) {
	plain := as.Tok == token.ASSIGN || as.Tok == token.DEFINE
	for i, lhs := range as.Lhs {
		var value ast.Expr
		switch {
		case plain && len(as.Lhs) == len(as.Rhs):
			value = as.Rhs[i]
		case plain && i == 0 && len(as.Lhs) == 2 && len(as.Rhs) == 1:
			if _, ok := c.hardCodedTable(as.Rhs[0]); ok {
				value = as.Rhs[0] // rate, ok := rates[j]
			}
		}
		c.recordWrite(lhs, value, as.Pos(), stack)
	}
}

func (c *checker) recordValueSpec(spec *ast.ValueSpec, stack []ast.Node) {
	for i, name := range spec.Names {
		var value ast.Expr = &zeroValue{spec.Type}
		switch {
		case len(spec.Values) == len(spec.Names):
			value = spec.Values[i]
		case len(spec.Values) > 0:
			value = nil
		}
		c.recordWrite(name, value, spec.Pos(), stack)
	}
}

// zeroValue stands for the zero value of a declaration without one.
type zeroValue struct{ ast.Expr }

func (c *checker) recordWrite(lhs ast.Expr, value ast.Expr, pos token.Pos, stack []ast.Node) {
	id, ok := ast.Unparen(lhs).(*ast.Ident)
	if !ok || id.Name == "_" {
		return
	}
	v, ok := c.pass.TypesInfo.ObjectOf(id).(*types.Var)
	if !ok || !isLocal(v) {
		return // fields and package-level variables are not followed
	}
	on, _ := c.fallbackEntry(stack, lhs)
	c.writes[v] = append(c.writes[v], write{pos: pos, value: value, on: on})
}

// lastWrite is the write to v nearest before pos, by position: on
// structured code, the write that reaches pos on the path through it.
func (c *checker) lastWrite(v *types.Var, pos token.Pos) (write, bool) {
	var last write
	found := false
	for _, w := range c.writes[v] {
		if w.pos < pos {
			last, found = w, true
		}
	}
	return last, found
}

// ---- fallback paths ----

// fallbackEntry finds the fallback path n is on: the innermost error branch
// around it within its function, or the function itself if it is registered
// as a fallback. A branch taken because a row or key was not found ends the
// search: "no row" is an answer, not a failure.
func (c *checker) fallbackEntry(stack []ast.Node, n ast.Node) (*entry, ast.Node) {
	for i := len(stack) - 1; i >= 0; i-- {
		child := n
		if i+1 < len(stack) {
			child = stack[i+1]
		}
		switch s := stack[i].(type) {
		case *ast.FuncLit:
			if e := c.registered[s]; e != nil {
				return e, s
			}
			return nil, s
		case *ast.FuncDecl:
			if fn, ok := c.pass.TypesInfo.Defs[s.Name].(*types.Func); ok && c.regFuncs[fn] != nil {
				return c.regFuncs[fn], s
			}
			return nil, s
		case *ast.IfStmt:
			if e, stop := c.ifEntry(s, child); e != nil || stop {
				return e, nil
			}
		case *ast.CaseClause:
			if i >= 2 {
				if e, stop := c.caseEntry(stack[i-2], s); e != nil || stop {
					return e, nil
				}
			}
		}
	}
	return nil, nil
}

type testKind int

const (
	noTest testKind = iota
	failureTest
	notFoundTest
)

func (c *checker) ifEntry(s *ast.IfStmt, child ast.Node) (*entry, bool) {
	switch child {
	case s.Body:
		switch kind, why := c.condTest(s.Cond, s.Init); kind {
		case failureTest:
			return &entry{pos: s.Cond.Pos(), why: why, body: s.Body, stmt: s}, false
		case notFoundTest:
			return nil, true
		}
	case s.Else:
		if be, ok := ast.Unparen(s.Cond).(*ast.BinaryExpr); ok && be.Op == token.EQL && c.errorNilCompare(be) {
			body, _ := s.Else.(*ast.BlockStmt)
			return &entry{pos: s.Cond.Pos(), why: "the else branch of " + c.exprString(s.Cond), body: body, stmt: s}, false
		}
	}
	return nil, false
}

func (c *checker) caseEntry(sw ast.Node, cc *ast.CaseClause) (*entry, bool) {
	body := &ast.BlockStmt{List: cc.Body, Lbrace: cc.Colon, Rbrace: cc.End()}
	switch sw := sw.(type) {
	case *ast.SwitchStmt:
		if sw.Tag == nil {
			for _, x := range cc.List {
				switch kind, why := c.condTest(x, sw.Init); kind {
				case failureTest:
					return &entry{pos: x.Pos(), why: why, body: body, stmt: sw}, false
				case notFoundTest:
					return nil, true
				}
			}
			return nil, false
		}
		if !isError(c.pass.TypesInfo.TypeOf(sw.Tag)) {
			return nil, false
		}
		for _, x := range cc.List {
			if c.isNil(x) {
				return nil, false
			}
			if c.isNotFound(x) {
				return nil, true
			}
		}
		if len(cc.List) > 0 {
			return &entry{pos: cc.Pos(), why: c.describeCase(sw.Tag, cc.List), body: body, stmt: sw}, false
		}
	case *ast.TypeSwitchStmt:
		if !isError(c.typeSwitchSubject(sw)) {
			return nil, false
		}
		for _, x := range cc.List {
			if c.isNil(x) {
				return nil, false
			}
		}
		if len(cc.List) > 0 {
			return &entry{pos: cc.Pos(), why: c.describeCase(nil, cc.List), body: body, stmt: sw}, false
		}
	}
	return nil, false
}

func (c *checker) typeSwitchSubject(sw *ast.TypeSwitchStmt) types.Type {
	var x ast.Expr
	switch a := sw.Assign.(type) {
	case *ast.ExprStmt:
		x = a.X
	case *ast.AssignStmt:
		x = a.Rhs[0]
	}
	if ta, ok := x.(*ast.TypeAssertExpr); ok {
		return c.pass.TypesInfo.TypeOf(ta.X)
	}
	return nil
}

// condTest classifies a branch condition: does it test that an error
// happened (err != nil, errors.Is, errors.As, err == gobreaker.ErrOpenState,
// bulkhead.AsRejection), or that a row was not found? Negated tests are not
// looked into.
func (c *checker) condTest(cond ast.Expr, init ast.Stmt) (testKind, string) {
	kind, why := noTest, ""
	mark := func(k testKind, w string) {
		if k > kind {
			kind, why = k, w
		}
	}
	ast.Inspect(cond, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.UnaryExpr:
			return n.Op != token.NOT
		case *ast.BinaryExpr:
			switch {
			case n.Op == token.NEQ && c.errorNilCompare(n):
				mark(failureTest, c.exprString(n))
			case n.Op == token.EQL && isError(c.pass.TypesInfo.TypeOf(n.X)) && !c.isNil(n.X) && !c.isNil(n.Y):
				if c.isNotFound(n.X) || c.isNotFound(n.Y) {
					mark(notFoundTest, "")
				} else {
					mark(failureTest, c.describeTest(n))
				}
			}
		case *ast.CallExpr:
			if k, w := c.callTest(n); k != noTest {
				mark(k, w)
			}
		case *ast.Ident:
			// if rej, ok := bulkhead.AsRejection(err); ok { … }
			if as, ok := init.(*ast.AssignStmt); ok && len(as.Rhs) == 1 && definesIdent(as, c.pass.TypesInfo.ObjectOf(n), c.pass.TypesInfo) {
				if call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr); ok {
					if k, w := c.callTest(call); k != noTest {
						mark(k, w)
					}
				}
			}
		}
		return true
	})
	return kind, why
}

func (c *checker) callTest(call *ast.CallExpr) (testKind, string) {
	fn, _ := typeutilCallee(c.pass.TypesInfo, call).(*types.Func)
	if fn == nil || !catalog.ErrorTests.Has(fn) {
		return noTest, ""
	}
	for _, arg := range call.Args[min(1, len(call.Args)):] {
		if c.isNotFound(arg) {
			return notFoundTest, ""
		}
	}
	return failureTest, c.describeTest(call)
}

func definesIdent(as *ast.AssignStmt, obj types.Object, info *types.Info) bool {
	for _, lhs := range as.Lhs {
		if id, ok := lhs.(*ast.Ident); ok && obj != nil && info.ObjectOf(id) == obj {
			return true
		}
	}
	return false
}

func (c *checker) errorNilCompare(be *ast.BinaryExpr) bool {
	return (isError(c.pass.TypesInfo.TypeOf(be.X)) && c.isNil(be.Y)) ||
		(isError(c.pass.TypesInfo.TypeOf(be.Y)) && c.isNil(be.X))
}

func (c *checker) isNil(x ast.Expr) bool {
	tv, ok := c.pass.TypesInfo.Types[x]
	return ok && tv.IsNil()
}

func (c *checker) isNotFound(x ast.Expr) bool {
	return catalog.NotFoundErrors[objectKey(calleeObject(c.pass.TypesInfo, x))]
}

// describeTest names the branch for the finding's related position, with
// what the breaker or bulkhead error means when bhlint knows it.
func (c *checker) describeTest(test ast.Expr) string {
	why := c.exprString(test)
	var meaning string
	ast.Inspect(test, func(n ast.Node) bool {
		if meaning != "" {
			return false
		}
		switch n := n.(type) {
		case *ast.Ident, *ast.SelectorExpr:
			meaning = catalog.RejectionErrors[objectKey(calleeObject(c.pass.TypesInfo, n.(ast.Expr)))]
			if meaning == "" {
				if t := c.pass.TypesInfo.TypeOf(n.(ast.Expr)); t != nil {
					meaning = catalog.RejectionErrors[types.TypeString(t, nil)]
				}
			}
		}
		return true
	})
	if meaning != "" {
		return why + ": " + meaning
	}
	return why
}

func (c *checker) describeCase(tag ast.Expr, list []ast.Expr) string {
	var cases []string
	for _, x := range list {
		cases = append(cases, c.exprString(x))
	}
	text := "case " + strings.Join(cases, ", ")
	if tag != nil {
		text = "switch " + c.exprString(tag) + " " + text
	}
	for _, x := range list {
		key := objectKey(calleeObject(c.pass.TypesInfo, x))
		if tv, ok := c.pass.TypesInfo.Types[x]; ok && tv.IsType() {
			key = types.TypeString(tv.Type, nil)
		}
		if meaning := catalog.RejectionErrors[key]; meaning != "" {
			return text + ": " + meaning
		}
	}
	return text
}

// ---- returns ----

// checkReturn reports a return that serves an invented money value with a
// nil error: directly on a fallback path, or from a variable that a fallback
// path set.
func (c *checker) checkReturn(ret *ast.ReturnStmt, stack []ast.Node) {
	fnNode := enclosingFunc(stack)
	if fnNode == nil || c.stackVerified(stack) {
		return
	}
	sig := c.signature(fnNode)
	if sig == nil || sig.Results().Len() == 0 {
		return
	}
	on, _ := c.fallbackEntry(stack, ret)
	results := sig.Results()
	if len(ret.Results) != 0 && len(ret.Results) != results.Len() {
		return // return f(): the values come from the call
	}
	if !c.nilError(ret, results) || c.signalsAbsence(ret, results) {
		return
	}
	subject := funcSubject(fnNode, stack)
	for i := range results.Len() {
		res := results.At(i)
		if isError(res.Type()) {
			continue
		}
		var expr ast.Expr
		if len(ret.Results) == results.Len() {
			expr = ret.Results[i]
		}
		c.checkResult(ret, res, expr, subject, results.Len(), on)
	}
}

func (c *checker) checkResult(ret *ast.ReturnStmt, res *types.Var, expr ast.Expr, subject string, nresults int, on *entry) {
	// The value returned, and the variable it came from, if any.
	var v *types.Var
	name := res.Name()
	if expr == nil {
		v = res // a bare return of a named result
	} else if id, ok := ast.Unparen(expr).(*ast.Ident); ok {
		v, _ = c.pass.TypesInfo.ObjectOf(id).(*types.Var)
		if v != nil {
			name = v.Name()
		}
	}
	if !c.isMoneySlot(res, name, subject, nresults) && !c.exprHoldsMoney(expr) {
		return
	}
	if v == nil || !isLocal(v) {
		if on == nil {
			return
		}
		if what, ok := c.invented(expr); ok {
			c.reportReturn(expr.Pos(), on, what, res, name, subject)
		}
		return
	}
	if on != nil {
		w, ok := c.lastWrite(v, ret.Pos())
		if !ok || w.value == nil {
			return
		}
		if what, invented := c.invented(w.value); invented {
			pos := ret.Pos()
			if expr != nil {
				pos = expr.Pos()
			}
			c.reportReturn(pos, on, what+" (set at line "+c.line(w.pos)+")", res, v.Name(), subject)
		}
		return
	}
	// A return after the branch: the writes a fallback branch made that
	// reach it.
	for _, w := range c.writes[v] {
		if w.on == nil || w.value == nil || w.pos >= ret.Pos() || !reaches(w, ret) || c.overwritten(v, w, ret) {
			continue
		}
		if what, invented := c.invented(w.value); invented {
			c.reportReturn(w.pos, w.on, what, res, v.Name(), subject)
		}
	}
}

// overwritten reports whether another write to v comes between w and ret,
// other than one in another branch of w's if or switch.
func (c *checker) overwritten(v *types.Var, w write, ret *ast.ReturnStmt) bool {
	for _, other := range c.writes[v] {
		if other.pos <= w.pos || other.pos >= ret.Pos() {
			continue
		}
		inBody := w.on.body != nil && w.on.body.Pos() <= other.pos && other.pos < w.on.body.End()
		inSibling := !inBody && w.on.stmt != nil && w.on.stmt.Pos() <= other.pos && other.pos < w.on.stmt.End()
		if !inSibling {
			return true
		}
	}
	return false
}

// reaches reports whether a write on a fallback branch can reach a return
// after the branch: not if the branch ends in a return or a jump.
func reaches(w write, ret *ast.ReturnStmt) bool {
	body := w.on.body
	if body == nil || (body.Pos() <= ret.Pos() && ret.End() <= body.End()) {
		return true
	}
	if len(body.List) == 0 {
		return true
	}
	switch last := body.List[len(body.List)-1].(type) {
	case *ast.ReturnStmt, *ast.BranchStmt:
		return false
	case *ast.ExprStmt:
		if call, ok := last.X.(*ast.CallExpr); ok {
			if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "panic" {
				return false
			}
		}
	}
	return true
}

// nilError reports whether the return's error result, if it has one, is
// nil: the literal nil, or a variable whose last write was nil (or that was
// never written). A function with no error result cannot signal failure, so
// what it returns is used.
func (c *checker) nilError(ret *ast.ReturnStmt, results *types.Tuple) bool {
	last := results.Len() - 1
	if !isError(results.At(last).Type()) {
		return true
	}
	var v *types.Var
	if len(ret.Results) == 0 {
		v = results.At(last)
	} else {
		x := ret.Results[last]
		if c.isNil(x) {
			return true
		}
		id, ok := ast.Unparen(x).(*ast.Ident)
		if !ok {
			return false
		}
		v, _ = c.pass.TypesInfo.ObjectOf(id).(*types.Var)
	}
	if v == nil {
		return false
	}
	w, ok := c.lastWrite(v, ret.Pos())
	if !ok {
		return isLocal(v) && len(c.writes[v]) == 0 && isResult(v, results)
	}
	if _, ok := w.value.(*zeroValue); ok {
		return true // var err error
	}
	return w.value != nil && c.isNil(w.value)
}

// isLocal: a variable of a function (a local, parameter or result), not a
// field or a package-level variable.
func isLocal(v *types.Var) bool {
	return v.Parent() != nil && v.Pkg() != nil && v.Parent() != v.Pkg().Scope()
}

func isResult(v *types.Var, results *types.Tuple) bool {
	for i := range results.Len() {
		if results.At(i) == v {
			return true
		}
	}
	return false
}

// signalsAbsence: a return that also says false in a bool result
// ("found", "ok") tells the caller there is no value.
func (c *checker) signalsAbsence(ret *ast.ReturnStmt, results *types.Tuple) bool {
	if len(ret.Results) != results.Len() {
		return false
	}
	for i, x := range ret.Results {
		if b, ok := results.At(i).Type().Underlying().(*types.Basic); ok && b.Kind() == types.Bool {
			if tv := c.pass.TypesInfo.Types[x]; tv.Value != nil && !constant.BoolVal(tv.Value) {
				return true
			}
		}
	}
	return false
}

// isMoneySlot reports whether a result holds money: by its type, by its
// name or the name of the variable returned, or, for the one numeric result
// of a function, by the function's name (taxFor, shippingFee).
func (c *checker) isMoneySlot(res *types.Var, name, subject string, nresults int) bool {
	t := res.Type()
	if holdsMoney(c.money, t) || (name != "" && c.money.NameIsMoney(name, t)) {
		return true
	}
	if res.Name() != "" && c.money.NameIsMoney(res.Name(), t) {
		return true
	}
	return res.Name() == "" && (nresults == 1 || nresults == 2) && subject != "" && c.money.NameIsMoney(subject, t)
}

// exprHoldsMoney: arithmetic on a money-named value is money (amount * 0.07).
func (c *checker) exprHoldsMoney(x ast.Expr) bool {
	if x == nil { // a bare return
		return false
	}
	found := false
	ast.Inspect(x, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit, *ast.CallExpr:
			return false
		case *ast.Ident:
			if v, ok := c.pass.TypesInfo.ObjectOf(n).(*types.Var); ok && c.money.NameIsMoney(v.Name(), v.Type()) {
				found = true
			}
		}
		return !found
	})
	return found
}

// ---- deferred recover ----

// checkDeferredRecover reports a deferred func literal that recovers a
// panic and sets a named money result to an invented value without setting
// the error result.
func (c *checker) checkDeferredRecover(d *ast.DeferStmt, stack []ast.Node) {
	lit, ok := ast.Unparen(d.Call.Fun).(*ast.FuncLit)
	if !ok || c.stackVerified(stack) || c.isVerified(lit) {
		return
	}
	outer := enclosingFunc(stack)
	sig := c.signature(outer)
	if sig == nil {
		return
	}
	recoverCall := c.findRecover(lit)
	if recoverCall == nil {
		return
	}
	results := sig.Results()
	var errResult *types.Var
	if n := results.Len(); n > 0 && isError(results.At(n-1).Type()) && results.At(n-1).Name() != "" {
		errResult = results.At(n - 1)
	}
	type moneyWrite struct {
		pos  token.Pos
		what string
		res  *types.Var
	}
	var found []moneyWrite
	errorSet := false
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok {
			return true
		}
		for i, lhs := range as.Lhs {
			id, ok := ast.Unparen(lhs).(*ast.Ident)
			if !ok {
				continue
			}
			v, _ := c.pass.TypesInfo.ObjectOf(id).(*types.Var)
			if v == nil || !isResult(v, results) {
				continue
			}
			var value ast.Expr
			if len(as.Lhs) == len(as.Rhs) {
				value = as.Rhs[i]
			}
			if v == errResult {
				errorSet = errorSet || value == nil || !c.isNil(value)
				continue
			}
			if value == nil || !c.isMoneySlot(v, v.Name(), "", results.Len()) {
				continue
			}
			if what, ok := c.invented(value); ok {
				found = append(found, moneyWrite{as.Pos(), what, v})
			}
		}
		return true
	})
	if errorSet {
		return
	}
	on := &entry{pos: recoverCall.Pos(), why: "recover() in a deferred function"}
	for _, w := range found {
		c.reportReturn(w.pos, on, w.what, w.res, w.res.Name(), "")
	}
}

func (c *checker) findRecover(lit *ast.FuncLit) *ast.CallExpr {
	var found *ast.CallExpr
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && found == nil {
			if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
				if b, ok := c.pass.TypesInfo.Uses[id].(*types.Builtin); ok && b.Name() == "recover" {
					found = call
				}
			}
		}
		return found == nil
	})
	return found
}

// ---- invented values ----

// invented reports whether x is a hard-coded money value, and describes it:
// a constant (0, 0.07, a named constant), a money composite literal that is
// zero or all constants, decimal.Zero, a decimal built from constants, or an
// amount multiplied by a literal rate. A value read from a verified
// compensation table is never invented.
func (c *checker) invented(x ast.Expr) (string, bool) {
	if _, ok := x.(*zeroValue); ok {
		return "the zero value of its declaration", true
	}
	if c.readsVerified(x) {
		return "", false
	}
	x = ast.Unparen(x)
	info := c.pass.TypesInfo
	if tv, ok := info.Types[x]; ok && tv.Value != nil {
		return "the hard-coded " + c.exprString(x), true
	}
	if table, ok := c.hardCodedTable(x); ok {
		return c.exprString(x) + ", from the hard-coded table " + table + " that no contract test verifies", true
	}
	switch x := x.(type) {
	case *ast.Ident, *ast.SelectorExpr:
		if catalog.MoneyConstants[objectKey(calleeObject(info, x))] {
			return "the hard-coded " + c.exprString(x), true
		}
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			return c.invented(x.X)
		}
	case *ast.CompositeLit:
		return c.inventedComposite(x)
	case *ast.CallExpr:
		return c.inventedCall(x)
	case *ast.BinaryExpr:
		if x.Op == token.MUL || x.Op == token.QUO {
			for _, side := range []ast.Expr{x.X, x.Y} {
				if rate, ok := c.literalRate(side); ok {
					return c.exprString(x) + ", an amount times the hard-coded rate " + rate, true
				}
				if table, ok := c.hardCodedTable(side); ok {
					return c.exprString(x) + ", an amount times a rate from the hard-coded table " + table + " that no contract test verifies", true
				}
			}
		}
	}
	return "", false
}

func (c *checker) inventedCall(call *ast.CallExpr) (string, bool) {
	info := c.pass.TypesInfo
	if tv, ok := info.Types[call.Fun]; ok && tv.IsType() && len(call.Args) == 1 {
		return c.invented(call.Args[0]) // Money(0)
	}
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if b, ok := info.Uses[id].(*types.Builtin); ok && b.Name() == "new" && holdsMoney(c.money, info.TypeOf(call)) {
			return "the zero " + c.exprString(call), true
		}
	}
	fn, _ := typeutilCallee(info, call).(*types.Func)
	if fn == nil {
		return "", false
	}
	if catalog.MoneyConstructors.Has(fn) && c.allConstant(call.Args) {
		return "the hard-coded " + c.exprString(call), true
	}
	// amount.Mul(decimal.NewFromFloat(0.07)): a literal rate.
	if sel, ok := call.Fun.(*ast.SelectorExpr); ok && fn.Signature().Recv() != nil && (fn.Name() == "Mul" || fn.Name() == "Div") && len(call.Args) == 1 {
		if holdsMoney(c.money, info.TypeOf(sel.X)) {
			if _, ok := c.invented(call.Args[0]); ok {
				return c.exprString(call) + ", an amount times a hard-coded rate", true
			}
		}
	}
	return "", false
}

func (c *checker) inventedComposite(lit *ast.CompositeLit) (string, bool) {
	t := c.pass.TypesInfo.TypeOf(lit)
	if t == nil {
		return "", false
	}
	if c.money.TypeIsMoney(t) {
		if len(lit.Elts) == 0 || c.allConstant(elementValues(lit)) {
			return "the hard-coded " + c.exprString(lit), true
		}
		return "", false
	}
	// A struct that holds money (Quote{OrderID: id}): each money field must
	// come from somewhere real.
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return "", false
	}
	set := map[string]ast.Expr{}
	for i, elt := range lit.Elts {
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok {
				set[id.Name] = kv.Value
			}
		} else if i < st.NumFields() {
			set[st.Field(i).Name()] = elt
		}
	}
	for f := range st.Fields() {
		if !isMoneyField(c.money, f) {
			continue
		}
		value, ok := set[f.Name()]
		if !ok {
			return "a " + types.TypeString(t, types.RelativeTo(c.pass.Pkg)) + " literal that leaves " + f.Name() + " zero", true
		}
		if what, ok := c.invented(value); ok {
			return "a " + types.TypeString(t, types.RelativeTo(c.pass.Pkg)) + " literal whose " + f.Name() + " is " + strings.TrimPrefix(what, "the "), true
		}
	}
	return "", false
}

func elementValues(lit *ast.CompositeLit) []ast.Expr {
	var out []ast.Expr
	for _, elt := range lit.Elts {
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			elt = kv.Value
		}
		out = append(out, elt)
	}
	return out
}

func (c *checker) allConstant(xs []ast.Expr) bool {
	for _, x := range xs {
		if tv, ok := c.pass.TypesInfo.Types[x]; !ok || tv.Value == nil {
			return false
		}
	}
	return true
}

// literalRate: a non-integer constant such as 0.07, as a multiplier.
func (c *checker) literalRate(x ast.Expr) (string, bool) {
	tv, ok := c.pass.TypesInfo.Types[x]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.Float {
		return "", false
	}
	if constant.ToInt(tv.Value).Kind() == constant.Int {
		return "", false // 100, 2.0: unit conversions, not rates
	}
	return c.exprString(x), true
}

// readsVerified reports whether x reads a verified compensation table.
func (c *checker) readsVerified(x ast.Expr) bool {
	found := false
	ast.Inspect(x, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if fn, ok := typeutilCallee(c.pass.TypesInfo, call).(*types.Func); ok && catalog.VerifiedSources.Has(fn) {
				found = true
			}
		}
		return !found
	})
	return found
}

// ---- money ----

// holdsMoney: a money type, or a struct (or pointer to one) with a money field.
func holdsMoney(m *catalog.MoneyPatterns, t types.Type) bool {
	if t == nil {
		return false
	}
	if m.TypeIsMoney(t) {
		return true
	}
	st, ok := pointee(t).Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for f := range st.Fields() {
		if isMoneyField(m, f) {
			return true
		}
	}
	return false
}

func isMoneyField(m *catalog.MoneyPatterns, f *types.Var) bool {
	return m.TypeIsMoney(f.Type()) || m.NameIsMoney(f.Name(), f.Type())
}

func noun(t types.Type, names string) string {
	var words []string
	for _, name := range strings.Fields(names) {
		words = append(words, catalog.Words(name)...)
	}
	for _, w := range append(words, catalog.Words(typeName(t))...) {
		switch w {
		case "tax", "taxes", "vat", "gst":
			return "tax"
		case "rate", "rates":
			return "rate"
		case "fee", "fees":
			return "fee"
		case "price", "prices":
			return "price"
		}
	}
	return "amount"
}

func typeName(t types.Type) string {
	if n, ok := types.Unalias(pointee(t)).(*types.Named); ok {
		return n.Obj().Name()
	}
	return ""
}

// ---- reporting ----

const fix = "return the error instead, or serve a value read from a verified compensation table (bulkhead/compensation.Table, checked by its contract test)"

func (c *checker) reportReturn(pos token.Pos, on *entry, what string, res *types.Var, name, subject string) {
	as := ""
	if name != "" {
		as = " as " + name
	}
	c.report(pos, on, fmt.Sprintf("%s: on a fallback path (%s), the value served%s is %s, with a nil error: an invented %s the caller cannot tell from a real one; %s",
		Code, on.why, as, what, noun(res.Type(), name+" "+subject), fix))
}

func (c *checker) report(pos token.Pos, on *entry, msg string) {
	if !pos.IsValid() || c.reported[pos] {
		return
	}
	c.reported[pos] = true
	d := analysis.Diagnostic{Pos: pos, Message: msg}
	if on.pos.IsValid() && on.pos != pos {
		d.Related = []analysis.RelatedInformation{{Pos: on.pos, Message: "fallback path starts here: " + on.why}}
	}
	c.pass.Report(d)
}

// ---- small helpers ----

func (c *checker) stackVerified(stack []ast.Node) bool {
	for _, n := range stack {
		switch n.(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			if c.isVerified(n) {
				return true
			}
		}
	}
	return false
}

func enclosingFunc(stack []ast.Node) ast.Node {
	for i := len(stack) - 1; i >= 0; i-- {
		switch stack[i].(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return stack[i]
		}
	}
	return nil
}

func (c *checker) signature(fn ast.Node) *types.Signature {
	switch fn := fn.(type) {
	case *ast.FuncDecl:
		if obj, ok := c.pass.TypesInfo.Defs[fn.Name].(*types.Func); ok {
			return obj.Signature()
		}
	case *ast.FuncLit:
		sig, _ := c.pass.TypesInfo.TypeOf(fn).(*types.Signature)
		return sig
	}
	return nil
}

// funcSubject is the name that says what a function computes: its own, or
// for a literal, the variable it is assigned to or its enclosing function's.
func funcSubject(fn ast.Node, stack []ast.Node) string {
	if fd, ok := fn.(*ast.FuncDecl); ok {
		return fd.Name.Name
	}
	return subjectName(stack)
}

func subjectName(stack []ast.Node) string {
	for i := len(stack) - 1; i >= 0; i-- {
		switch s := stack[i].(type) {
		case *ast.AssignStmt:
			if len(s.Lhs) == 1 {
				if id, ok := s.Lhs[0].(*ast.Ident); ok {
					return id.Name
				}
			}
		case *ast.ValueSpec:
			if len(s.Names) == 1 {
				return s.Names[0].Name
			}
		case *ast.FuncDecl:
			return s.Name.Name
		}
	}
	return ""
}

func (c *checker) exprString(x ast.Expr) string {
	s := types.ExprString(x)
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}

func (c *checker) line(pos token.Pos) string {
	return fmt.Sprint(c.pass.Fset.Position(pos).Line)
}

func isError(t types.Type) bool {
	return t != nil && types.Identical(t, types.Universe.Lookup("error").Type())
}

func pointee(t types.Type) types.Type {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// calleeObject is the object an identifier or selector denotes.
func calleeObject(info *types.Info, x ast.Expr) types.Object {
	switch x := ast.Unparen(x).(type) {
	case *ast.Ident:
		return info.ObjectOf(x)
	case *ast.SelectorExpr:
		return info.ObjectOf(x.Sel)
	case *ast.IndexExpr:
		return calleeObject(info, x.X)
	case *ast.IndexListExpr:
		return calleeObject(info, x.X)
	}
	return nil
}

// typeutilCallee is the function or method a call statically calls.
func typeutilCallee(info *types.Info, call *ast.CallExpr) types.Object {
	obj := calleeObject(info, call.Fun)
	if fn, ok := obj.(*types.Func); ok {
		return fn.Origin()
	}
	return obj
}

// objectKey is "pkgpath.Name" for a package-level object.
func objectKey(obj types.Object) string {
	if obj == nil || obj.Pkg() == nil {
		return ""
	}
	return obj.Pkg().Path() + "." + obj.Name()
}

func shortName(fn *types.Func) string {
	if fn.Pkg() == nil {
		return fn.Name()
	}
	return fn.Pkg().Name() + "." + fn.Name()
}
