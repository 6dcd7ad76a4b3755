package unboundedqueue

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/bhlint/bhlint/internal/catalog"
)

// parksOnSend marks a function that sends on a channel its value or its
// package shares (a field, a package variable) and waits until a consumer
// takes the value: a plain send, or a select with no default and no
// deadline. A goroutine that calls it waits as long as the consumers are
// busy.
type parksOnSend struct{ Chan string }

func (*parksOnSend) AFact()           {}
func (f *parksOnSend) String() string { return "parksOnSend(" + f.Chan + ")" }

// learnParkers exports parksOnSend for this package's functions.
func (c *checker) learnParkers() {
	c.parkers = map[*types.Func]string{}
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
			if ch := c.waitingSend(fd.Body); obj != nil && ch != "" {
				c.parkers[obj] = ch
				c.pass.ExportObjectFact(obj, &parksOnSend{Chan: ch})
			}
		}
	}
}

// waitingSend is the shared channel body sends on with nothing to give up
// the wait but another shared channel (a shutdown signal), or "".
func (c *checker) waitingSend(body *ast.BlockStmt) string {
	ch := ""
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.SelectStmt:
			if s := c.selectWithoutEscape(n); s != nil && c.sharedAcrossCalls(s.Chan) {
				ch = types.ExprString(s.Chan)
			}
			return false // a send in a select waits only as the select does
		case *ast.SendStmt:
			if c.sharedAcrossCalls(n.Chan) {
				ch = types.ExprString(n.Chan)
			}
		}
		return ch == ""
	})
	return ch
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

// parksOn is the channel fn waits to send on (a fact), or "".
func (c *checker) parksOn(fn *types.Func) string {
	if fn == nil {
		return ""
	}
	fn = fn.Origin()
	if ch, ok := c.parkers[fn]; ok {
		return ch
	}
	var fact parksOnSend
	if fn.Pkg() != nil && fn.Pkg() != c.pass.Pkg && c.pass.ImportObjectFact(fn, &fact) {
		return fact.Chan
	}
	return ""
}

// checkParkedPerRequest finds, in an HTTP handler, a go statement outside
// any loop that runs a function parked on a send to a shared queue (go
// pool.Push(jobs) where Push waits for a fixed set of workers): each request
// leaves one more goroutine waiting, and nothing caps how many. Silent when
// an if around it tests time (time.Since: a refresh interval) or a limiter,
// and when the value it parks on is one the function made (madeHere).
func (c *checker) checkParkedPerRequest(fd *ast.FuncDecl) {
	if !c.handlesRequest(fd) {
		return
	}
	ast.PreorderStack(fd.Body, nil, func(n ast.Node, stack []ast.Node) bool {
		g, ok := n.(*ast.GoStmt)
		if !ok {
			return true
		}
		ch := c.parksOn(c.callee(g.Call))
		if ch == "" || inLoopOrLit(stack) || c.rateGuarded(stack) || c.madeHere(fd, g.Call.Fun) {
			return true
		}
		c.report(g.Pos(), token.NoPos, "",
			"goroutine per request: this go statement leaves one goroutine per request waiting to send on %s "+
				"until a consumer takes it, with nothing capping how many wait; send with a select that has a "+
				"default (reject when the queue is full) or take a slot before starting it", ch)
		return true
	})
}

// madeHere reports whether fun is a method of a value fd made itself (a
// local variable it declares: sess := importer.NewSession(opt); go
// sess.LoadCSV(path)): its queue is the request's own, with the consumer
// the request starts, not one shared by every request.
func (c *checker) madeHere(fd *ast.FuncDecl, fun ast.Expr) bool {
	sel, ok := ast.Unparen(fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	v := c.localVar(sel.X)
	return v != nil && v.Pos() >= fd.Body.Pos() && v.Pos() < fd.Body.End()
}

// handlesRequest reports whether fd takes an *http.Request, or a
// framework's context that carries one (carriesRequest): it runs once per
// request.
func (c *checker) handlesRequest(fd *ast.FuncDecl) bool {
	fn, _ := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
	if fn == nil {
		return false
	}
	params := fn.Signature().Params()
	for i := range params.Len() {
		if carriesRequest(params.At(i).Type()) {
			return true
		}
	}
	return false
}

func inLoopOrLit(stack []ast.Node) bool {
	for _, n := range stack {
		switch n.(type) {
		case *ast.ForStmt, *ast.RangeStmt, *ast.FuncLit:
			return true
		}
	}
	return false
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
