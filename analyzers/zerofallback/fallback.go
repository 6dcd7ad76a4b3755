package zerofallback

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/bhlint/bhlint/internal/catalog"
)

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
