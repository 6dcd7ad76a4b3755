package unboundedqueue

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
)

// checkAbandonedSends finds goroutines left blocked on their send (shape
// 11): a function makes an unbuffered channel, starts a goroutine that
// sends its result on it, and waits in a select that can return by another
// case (the context's Done, a timer) without receiving. When that case
// wins, nothing will ever receive, and the goroutine blocks on its send
// for ever: one more per call that gives up, with no bound but the number
// of such calls (crowdsec's plugin notifier returning on its timeout).
// Code that runs once per process (startupFuncs: main, a server's
// ListenAndServe that waits for SIGTERM) leaves at most one, when the
// process is stopping: no queue; its function literals may run more often
// and are still read.
func (c *checker) checkAbandonedSends(fd *ast.FuncDecl) {
	fn, _ := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
	runsOnce := c.startupFuncs()[fn]
	ast.PreorderStack(fd.Body, nil, func(n ast.Node, stack []ast.Node) bool {
		var names, values []ast.Expr
		switch n := n.(type) {
		case *ast.AssignStmt: // ch := make(chan T)
			names, values = n.Lhs, n.Rhs
		case *ast.ValueSpec: // var ch = make(chan T)
			for _, id := range n.Names {
				names = append(names, id)
			}
			values = n.Values
		default:
			return true
		}
		for i, name := range names {
			if i >= len(values) || !c.makesUnbufferedChan(values[i]) {
				continue
			}
			body := enclosingBody(fd, stack)
			if runsOnce && body == fd.Body {
				continue
			}
			if v := c.localVar(name); v != nil {
				c.checkAbandoned(body, v)
			}
		}
		return true
	})
}

// makeCall is e as a call of the make builtin, or nil.
func (c *checker) makeCall(e ast.Expr) *ast.CallExpr {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return nil
	}
	fun, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return nil
	}
	if b, ok := c.pass.TypesInfo.Uses[fun].(*types.Builtin); !ok || b.Name() != "make" {
		return nil
	}
	return call
}

// makesUnbufferedChan reports whether e is make(chan T) or make(chan T, 0).
func (c *checker) makesUnbufferedChan(e ast.Expr) bool {
	call := c.makeCall(e)
	if call == nil || len(call.Args) == 0 {
		return false
	}
	if _, isChan := c.pass.TypesInfo.TypeOf(call.Args[0]).Underlying().(*types.Chan); !isChan {
		return false
	}
	if len(call.Args) == 1 {
		return true
	}
	tv := c.pass.TypesInfo.Types[call.Args[1]]
	return tv.Value != nil && tv.Value.String() == "0"
}

// enclosingBody is the body of the innermost function literal in stack, or
// of fd.
func enclosingBody(fd *ast.FuncDecl, stack []ast.Node) *ast.BlockStmt {
	for i := len(stack) - 1; i >= 0; i-- {
		if lit, ok := stack[i].(*ast.FuncLit); ok {
			return lit.Body
		}
	}
	return fd.Body
}

// checkAbandoned reports the goroutine of body that sends on ch when ch is
// used only there and in receives, and a select of body that receives from
// ch has a case that returns without receiving.
func (c *checker) checkAbandoned(body *ast.BlockStmt, ch *types.Var) {
	var sender *ast.GoStmt
	var senderBody, senderBlock *ast.BlockStmt
	escapes := false
	var selects []*ast.SelectStmt
	ast.PreorderStack(body, nil, func(n ast.Node, stack []ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt:
			if work, ok := c.goroutineSends(n, ch); ok {
				if sender == nil {
					sender, senderBody = n, work
					if len(stack) > 0 {
						senderBlock, _ = stack[len(stack)-1].(*ast.BlockStmt)
					}
				}
				return false // its uses of ch are its send
			}
		case *ast.SelectStmt:
			selects = append(selects, n)
		case *ast.Ident:
			if c.pass.TypesInfo.Uses[n] == ch && !isReceiveOf(stack) {
				escapes = true // passed, stored, returned, closed, ranged over: someone else may receive
			}
		}
		return true
	})
	if sender == nil || escapes || c.servesPerSource(sender.Call.Fun) {
		// A goroutine that serves a listener sends when the server stops:
		// once per server the process runs, not once per call that gives up.
		return
	}
	if ret := c.returnsBeforeReceiving(senderBlock, sender, ch); ret != nil {
		c.emit(c.diagnostic(sender.Pos(), ret.Pos(), "the function returns here before receiving from "+ch.Name(),
			"goroutine abandoned on its send: the function can return after starting it and before receiving from %s, "+
				"an unbuffered channel, so this goroutine then blocks on its send for ever: one more for every call that returns early, with no bound; "+
				"make %s buffered (make(chan T, 1)) so that the send completes whoever is left to receive", ch.Name(), ch.Name()))
		return
	}
	for _, sel := range selects {
		if sel.Pos() < sender.End() {
			continue
		}
		if gives := c.givesUp(sel, ch, senderBody, endsBody(body, sel)); gives != nil {
			c.emit(c.diagnostic(sender.Pos(), gives.Pos(), "this case returns without receiving from "+ch.Name(),
				"goroutine abandoned on its send: when the select takes its other case, the function returns and nothing receives from %s, "+
					"an unbuffered channel, so this goroutine blocks on its send for ever: one more for every call that gives up, with no bound; "+
					"make %s buffered (make(chan T, 1)) so that the send completes whoever is left to receive", ch.Name(), ch.Name()))
			return
		}
	}
}

// returnsBeforeReceiving returns a return statement of the block that
// starts the sender, after the go statement and before the first receive
// from ch in the source (outside function literals): a way out that leaves
// the goroutine behind (kratos's registration returning on a failed
// validation while the password hash is still to be sent). Only the
// sender's own block is searched, so the return runs after the go
// statement on its path; a return in a select's case is judged by givesUp.
func (c *checker) returnsBeforeReceiving(block *ast.BlockStmt, sender *ast.GoStmt, ch *types.Var) *ast.ReturnStmt {
	if block == nil {
		return nil
	}
	firstReceive := block.End()
	ast.Inspect(block, func(n ast.Node) bool {
		if u, ok := n.(*ast.UnaryExpr); ok && u.Op == token.ARROW && c.localVar(u.X) == ch && u.Pos() > sender.End() && u.Pos() < firstReceive {
			firstReceive = u.Pos()
		}
		return true
	})
	var ret *ast.ReturnStmt
	ast.Inspect(block, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.SelectStmt:
			return false // its cases are givesUp's
		case *ast.ReturnStmt:
			if ret == nil && n.Pos() > sender.End() && n.End() <= firstReceive {
				ret = n
			}
		}
		return ret == nil
	})
	return ret
}

// goroutineSends reports whether the goroutine g starts sends its result
// on ch plainly, and returns the body it runs where it is known: a
// function literal that sends on ch (go func() { ch <- f() }()), or a
// function handed ch (go check(ctx, ch)) that sends on that parameter
// plainly or, when its body cannot be read here (a function value, another
// package's function), that declares the parameter send-only (chan<- T):
// such a parameter is for the goroutine to send on, and nothing in the
// signature says it gives up.
func (c *checker) goroutineSends(g *ast.GoStmt, ch *types.Var) (*ast.BlockStmt, bool) {
	if lit, ok := ast.Unparen(g.Call.Fun).(*ast.FuncLit); ok {
		return lit.Body, c.sendsPlainly(lit.Body, ch)
	}
	arg := slices.IndexFunc(g.Call.Args, func(a ast.Expr) bool { return c.localVar(a) == ch })
	sig, _ := c.pass.TypesInfo.TypeOf(g.Call.Fun).Underlying().(*types.Signature)
	if arg < 0 || sig == nil || sig.Variadic() && arg >= sig.Params().Len()-1 {
		return nil, false
	}
	param := sig.Params().At(arg)
	if fd := c.declOf(c.callee(g.Call)); fd != nil && fd.Body != nil {
		return fd.Body, c.sendsPlainly(fd.Body, param)
	}
	dir, ok := param.Type().Underlying().(*types.Chan)
	return &ast.BlockStmt{}, ok && dir.Dir() == types.SendOnly
}

// endsBody reports whether sel is the last statement of body: a case that
// runs to its end leaves the function as a return would.
func endsBody(body *ast.BlockStmt, sel *ast.SelectStmt) bool {
	return len(body.List) > 0 && body.List[len(body.List)-1] == sel
}

// sendsPlainly reports whether body sends on ch outside a select: a send
// that waits until someone receives, however long.
func (c *checker) sendsPlainly(body *ast.BlockStmt, ch *types.Var) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectStmt, *ast.FuncLit:
			return false
		case *ast.SendStmt:
			found = found || c.localVar(n.Chan) == ch
		}
		return !found
	})
	return found
}

// isReceiveOf reports whether the identifier whose ancestors are stack is
// the operand of a receive (<-ch), alone or in a select's case.
func isReceiveOf(stack []ast.Node) bool {
	i := len(stack) - 1
	for i >= 0 {
		if _, paren := stack[i].(*ast.ParenExpr); !paren {
			break
		}
		i--
	}
	if i < 0 {
		return false
	}
	u, ok := stack[i].(*ast.UnaryExpr)
	return ok && u.Op == token.ARROW
}

// givesUp returns a case of sel, beside one that receives from ch, that
// returns without receiving from ch, or nil; when sel ends the function
// (last), a case that runs to its end returns too. A case on a channel the
// sender itself sends on or closes (its error channel, its done) is the
// sender's other answer, not the caller giving up: whichever it sent, the
// sender is past its sends.
func (c *checker) givesUp(sel *ast.SelectStmt, ch *types.Var, sender *ast.BlockStmt, last bool) *ast.CommClause {
	receives := false
	var other *ast.CommClause
	for _, s := range sel.Body.List {
		cc := s.(*ast.CommClause)
		if c.receivesFrom(cc.Comm, ch) {
			receives = true
			continue
		}
		leaves := returnsAtTop(cc.Body) || last && !branches(&ast.BlockStmt{List: cc.Body})
		if other == nil && leaves && !c.receivesIn(&ast.BlockStmt{List: cc.Body}, ch) && !c.fedBy(cc.Comm, sender) {
			other = cc
		}
	}
	if !receives {
		return nil
	}
	return other
}

// fedBy reports whether a select case receives from a local channel the
// sender's body sends on or closes.
func (c *checker) fedBy(comm ast.Stmt, sender *ast.BlockStmt) bool {
	if comm == nil {
		return false
	}
	fed := map[*types.Var]bool{}
	ast.Inspect(sender, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SendStmt:
			if v := c.localVar(n.Chan); v != nil {
				fed[v] = true
			}
		case *ast.CallExpr:
			if b, ok := c.pass.TypesInfo.Uses[identOrNil(n.Fun)].(*types.Builtin); ok && b.Name() == "close" && len(n.Args) == 1 {
				if v := c.localVar(n.Args[0]); v != nil {
					fed[v] = true
				}
			}
		}
		return true
	})
	found := false
	ast.Inspect(comm, func(n ast.Node) bool {
		if u, ok := n.(*ast.UnaryExpr); ok && u.Op == token.ARROW && fed[c.localVar(u.X)] {
			found = true
		}
		return !found
	})
	return found
}

// identOrNil is e as an identifier, unparenthesised, or nil.
func identOrNil(e ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(e).(*ast.Ident)
	return id
}

// receivesFrom reports whether a select case's statement receives from ch.
func (c *checker) receivesFrom(comm ast.Stmt, ch *types.Var) bool {
	return comm != nil && c.receivesIn(comm, ch)
}

func (c *checker) receivesIn(n ast.Node, ch *types.Var) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if u, ok := n.(*ast.UnaryExpr); ok && u.Op == token.ARROW && c.localVar(u.X) == ch {
			found = true
		}
		return !found
	})
	return found
}

// returnsAtTop reports whether one of stmts is a return.
func returnsAtTop(stmts []ast.Stmt) bool {
	for _, s := range stmts {
		if _, ok := s.(*ast.ReturnStmt); ok {
			return true
		}
	}
	return false
}
