package unboundedqueue

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/entrypoints"
	"github.com/bhlint/bhlint/internal/lazyssa"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// perItemLoop is a loop that runs once per item of something whose length
// the code does not bound: a slice or map, a channel, query rows.
type perItemLoop struct {
	node ast.Stmt
	body *ast.BlockStmt
	what string         // "element of orders", "row of rows", "value received from jobs"
	elem types.Type     // the type of one item
	fn   *ast.BlockStmt // the body of the function the loop is in
	// overParam: the loop ranges over a parameter of its function, which
	// the callers decide (paramfanout.go).
	overParam *deferredFanOut
}

// checkFanOut finds goroutines started once per item (shape 1) and errgroup
// Go calls in such loops on a group without SetLimit (shape 2).
func (c *checker) checkFanOut(fd *ast.FuncDecl) {
	ast.PreorderStack(fd.Body, nil, func(n ast.Node, stack []ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt:
			if c.takesSlotByCall(c.callee(n.Call)) {
				return true // go f(x) where f takes a slot of a limiter itself
			}
			if loop := c.enclosingPerItemLoop(fd, append(stack[:len(stack):len(stack)], n)); loop != nil {
				c.checkGoroutine(loop, n, n.Call.Fun, c.workBody(n.Call.Fun), "go statement", token.NoPos)
			}
		case *ast.CallExpr:
			fn := c.callee(n)
			starter, group := catalog.GoroutineStarters.Has(fn), catalog.LimitedGroups.Has(fn)
			if where := c.startsPerCall(fn); !starter && !group && where != "" && !isGoCall(n, stack) {
				if loop := c.enclosingPerItemLoop(fd, append(stack[:len(stack):len(stack)], n)); loop != nil {
					c.checkGoroutine(loop, n, firstFuncLit(n.Args), c.funcArgBody(n.Args),
						c.calleeName(n)+" call (it starts a goroutine at "+where+")", c.goroutineStartOf(fn))
				}
				return true
			}
			if !starter && !group || len(n.Args) == 0 {
				return true
			}
			loop := c.enclosingPerItemLoop(fd, append(stack[:len(stack):len(stack)], n))
			if loop == nil {
				return true
			}
			if starter {
				c.checkGoroutine(loop, n, n.Args[0], c.workBody(n.Args[0]), c.calleeName(n), token.NoPos)
			} else {
				c.checkGroupGo(fd, loop, n)
			}
		}
		return true
	})
}

// isGoCall reports whether call is the call of a go statement (go f(x)),
// which the go statement's own check covers.
func isGoCall(call *ast.CallExpr, stack []ast.Node) bool {
	g, ok := stack[len(stack)-1].(*ast.GoStmt)
	return ok && g.Call == call
}

// enclosingPerItemLoop is the innermost per-item loop around the last node
// of stack (the node, after its ancestors), within the same function.
func (c *checker) enclosingPerItemLoop(fd *ast.FuncDecl, stack []ast.Node) *perItemLoop {
	for i := len(stack) - 1; i >= 0; i-- {
		switch s := stack[i].(type) {
		case *ast.FuncLit:
			return nil
		case *ast.RangeStmt, *ast.ForStmt:
			if i+1 < len(stack) && !runsEachRound(s.(ast.Stmt), stack[i+1]) {
				continue
			}
			if returnsAfter(stack, i) {
				return nil // at most one start per call: the function returns right after it
			}
			loop := c.perItem(fd, s.(ast.Stmt))
			if loop == nil {
				loop = c.receiveLoop(s.(ast.Stmt), stack[i+1:])
			}
			if loop != nil {
				loop.fn = innermostBody(fd, stack[:i])
				return loop
			}
		}
	}
	return nil
}

// returnsAfter reports whether the last node of stack, inside the loop at
// stack[loop], is followed on every path by a return from the function
// before the loop can go round again: it is in a return statement (return
// c.TailPodLogs(ctx, pod, logs) in a loop over a job's pods, which tails the
// first one), or a return comes after it in its block, or in a block around
// it, with no continue or break in between. Such a loop starts one goroutine
// per call of its function, however many items it ranges over.
func returnsAfter(stack []ast.Node, loop int) bool {
	for j := len(stack) - 1; j > loop; j-- {
		var list []ast.Stmt
		switch n := stack[j].(type) {
		case *ast.ReturnStmt:
			return true
		case *ast.BlockStmt:
			list = n.List
		case *ast.CaseClause:
			list = n.Body
		case *ast.CommClause:
			list = n.Body
		default:
			continue
		}
		if j+1 >= len(stack) {
			continue
		}
		k := slices.IndexFunc(list, func(st ast.Stmt) bool { return ast.Node(st) == stack[j+1] })
		if k < 0 {
			continue
		}
		for _, st := range list[k+1:] {
			if _, ok := st.(*ast.ReturnStmt); ok {
				return true
			}
			if branches(st) {
				return false // it may go round again before the return
			}
		}
	}
	return false
}

// branches reports whether st holds a continue, break or goto outside
// function literals.
func branches(st ast.Stmt) bool {
	return holds(st, func(n ast.Node) bool {
		b, ok := n.(*ast.BranchStmt)
		return ok && b.Tok != token.FALLTHROUGH
	})
}

// runsEachRound reports whether child, a part of loop, runs on every round:
// the body, and a for loop's condition and post statement; not a range
// statement's expression or a for loop's init, evaluated once before the
// first round (for k, v := range m.GetResponses(): one call, whatever it
// starts).
func runsEachRound(loop ast.Stmt, child ast.Node) bool {
	switch loop := loop.(type) {
	case *ast.RangeStmt:
		return child == loop.Body
	case *ast.ForStmt:
		return child != loop.Init
	}
	return true
}

// receiveLoop reports an uncounted for loop that runs once per value
// received from a channel, when the node whose ancestors below the loop are
// inner sits in that value's part of the iteration: a select case that
// receives into a variable (for { select { case m := <-jobs: go send(m) } })
// or after a receive statement at the top of the loop body (for { m :=
// <-jobs; go send(m) }). This is the range-over-channel loop written by
// hand, and as unbounded: one goroutine per value, as fast as the senders
// send. A case that receives no value (case <-stop:, case <-wake:) is a
// signal, and a time.Time is a tick: the clock, not input, sets their pace.
func (c *checker) receiveLoop(s ast.Stmt, inner []ast.Node) *perItemLoop {
	loop, ok := s.(*ast.ForStmt)
	if !ok || loop.Init != nil || loop.Post != nil || len(inner) < 2 || inner[0] != loop.Body {
		return nil
	}
	top, ok := inner[1].(ast.Stmt)
	if !ok {
		return nil
	}
	i := slices.Index(loop.Body.List, top)
	before := loop.Body.List[:max(i, 0)]
	for _, n := range inner {
		switch n.(type) {
		case *ast.RangeStmt, *ast.ForStmt:
			return nil // the receive belongs to an inner loop
		}
		if cc, ok := n.(*ast.CommClause); ok {
			ch := c.valueReceive(cc.Comm)
			if ch == nil {
				return nil
			}
			// What may bound the goroutine: the loop's statements before the
			// select, and the case's own; not the other cases' receives.
			return c.receivedItems(loop, ch, slices.Concat(before, cc.Body))
		}
	}
	for k, st := range before {
		if ch := c.valueReceive(st); ch != nil {
			// The item's receive is not a token taken: leave it out.
			return c.receivedItems(loop, ch, slices.Concat(before[:k], loop.Body.List[k+1:]))
		}
		if read := c.messageRead(st); read != "" {
			return &perItemLoop{node: loop, body: &ast.BlockStmt{List: slices.Concat(before[:k], loop.Body.List[k+1:])}, what: "message read by " + read}
		}
	}
	return nil
}

// messageRead is the call st makes to read the next message a peer sends
// over a connection (err := stream.RecvMsg(&req), _, msg, err :=
// conn.ReadMessage(): a gRPC stream's Recv or RecvMsg, a broker's or a
// WebSocket's read of the catalogue's ReceiveCalls), named, or "". A loop
// that reads one every round runs once per message, as fast as the peer
// sends: one goroutine per message is as unbounded as one per value a
// channel receives. A listener's Accept is not a message (a server's
// connections are its sources).
func (c *checker) messageRead(st ast.Stmt) string {
	var call *ast.CallExpr
	if ifs, ok := st.(*ast.IfStmt); ok && ifs.Init != nil {
		st = ifs.Init // if err := stream.RecvMsg(&req); err != nil { return }
	}
	switch st := st.(type) {
	case *ast.AssignStmt:
		if len(st.Rhs) == 1 {
			call, _ = ast.Unparen(st.Rhs[0]).(*ast.CallExpr)
		}
	case *ast.ExprStmt:
		call, _ = ast.Unparen(st.X).(*ast.CallExpr)
	}
	if call == nil {
		return ""
	}
	fn := c.callee(call)
	if fn == nil {
		return ""
	}
	if c.peerReads.Has(fn) || c.streamRecv(call, fn) {
		return types.ExprString(call.Fun)
	}
	return ""
}

// streamRecv reports whether call is Recv or RecvMsg on a gRPC stream: a
// value with the stream's methods (RecvMsg, SendMsg, Context).
func (c *checker) streamRecv(call *ast.CallExpr, fn *types.Func) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || fn.Name() != "Recv" && fn.Name() != "RecvMsg" {
		return false
	}
	t := c.pass.TypesInfo.TypeOf(sel.X)
	return t != nil && catalog.IsGRPCStream(t)
}

func (c *checker) receivedItems(loop *ast.ForStmt, ch ast.Expr, body []ast.Stmt) *perItemLoop {
	return &perItemLoop{node: loop, body: &ast.BlockStmt{List: body}, what: "value received from " + types.ExprString(ch), elem: c.chanElem(ch)}
}

// valueReceive is the channel that st receives a value from into a
// variable (m := <-ch, m, ok := <-ch, m = <-ch), when that value is an
// item: not a tick (time.Time) nor an empty struct (a signal).
func (c *checker) valueReceive(st ast.Stmt) ast.Expr {
	as, ok := st.(*ast.AssignStmt)
	if !ok || len(as.Rhs) != 1 {
		return nil
	}
	recv, ok := ast.Unparen(as.Rhs[0]).(*ast.UnaryExpr)
	if !ok || recv.Op != token.ARROW {
		return nil
	}
	if id, ok := as.Lhs[0].(*ast.Ident); ok && id.Name == "_" {
		return nil
	}
	elem := c.chanElem(recv.X)
	if elem == nil || isTimeValue(elem) {
		return nil
	}
	if st, ok := elem.Underlying().(*types.Struct); ok && st.NumFields() == 0 {
		return nil
	}
	return recv.X
}

func (c *checker) chanElem(ch ast.Expr) types.Type {
	t, ok := c.pass.TypesInfo.TypeOf(ch).(interface{ Underlying() types.Type })
	if !ok {
		return nil
	}
	if ct, ok := t.Underlying().(*types.Chan); ok {
		return ct.Elem()
	}
	return nil
}

// closedBefore reports whether body closes the channel loop ranges over
// in a statement before the loop, of the block the loop is in: the loop
// drains what the buffer holds and ends, however many producers there were
// (maddy's pool clean-up closing a stale key's idle connections channel,
// then closing each connection).
func (c *checker) closedBefore(body *ast.BlockStmt, loop *ast.RangeStmt) bool {
	closed := false
	ast.Inspect(body, func(n ast.Node) bool {
		block, ok := n.(*ast.BlockStmt)
		if !ok || closed {
			return !closed
		}
		for _, st := range block.List {
			if st == loop {
				return false
			}
			call, ok := stmtCall(st)
			if ok && len(call.Args) == 1 && isBuiltin(c.pass.TypesInfo, call.Fun, "close") && types.ExprString(call.Args[0]) == types.ExprString(loop.X) {
				closed = slices.Contains(block.List, ast.Stmt(loop))
			}
		}
		return true
	})
	return closed
}

// stmtCall is the call an expression statement makes.
func stmtCall(st ast.Stmt) (*ast.CallExpr, bool) {
	es, ok := st.(*ast.ExprStmt)
	if !ok {
		return nil, false
	}
	call, ok := ast.Unparen(es.X).(*ast.CallExpr)
	return call, ok
}

// isBuiltin reports whether fun names the builtin function name.
func isBuiltin(info *types.Info, fun ast.Expr, name string) bool {
	id, ok := ast.Unparen(fun).(*ast.Ident)
	if !ok {
		return false
	}
	b, ok := info.Uses[id].(*types.Builtin)
	return ok && b.Name() == name
}

func isTimeValue(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "time" && n.Obj().Name() == "Time"
}

func (c *checker) perItem(fd *ast.FuncDecl, s ast.Stmt) *perItemLoop {
	switch s := s.(type) {
	case *ast.RangeStmt:
		tv, ok := c.pass.TypesInfo.Types[s.X]
		if !ok || tv.Type == nil {
			return nil
		}
		name := types.ExprString(s.X)
		switch t := tv.Type.Underlying().(type) {
		case *types.Slice, *types.Map:
			if c.fixedWhereMade(fd, s.X, s.Pos()) || c.fixedAtStartup(fd, s) {
				return nil // a fixed list, the cluster's members, a list fixed at start-up, or a length the code or its query capped
			}
			if isFuncList(t) && !c.unsubscribed(tv.Type) || isBehaviourList(tv.Type) {
				return nil // registered hooks or stages, as many as the code registers: not data
			}
			if isMemberList(t) {
				return nil // the cluster's members, however the list was obtained
			}
			if isListenerList(t) {
				return nil // the sockets the process listens on: one server each
			}
			return &perItemLoop{node: s, body: s.Body, what: "element of " + name, elem: elemOf(t), overParam: c.fanOutParam(fd, s.X)}
		case *types.Chan:
			if c.closedBefore(fd.Body, s) {
				return nil // drains what is buffered: at most the channel's capacity
			}
			return &perItemLoop{node: s, body: s.Body, what: "value received from " + name, elem: t.Elem()}
		}
	case *ast.ForStmt:
		if s.Init != nil || s.Post != nil {
			return nil // a counted loop: a worker pool, not a fan-out
		}
		call, ok := ast.Unparen(s.Cond).(*ast.CallExpr)
		if !ok {
			return nil
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "Next" || c.limitedRowsLoop(fd, s) {
			return nil // not an iterator, or rows of a query with a constant LIMIT (limit.go)
		}
		if c.isRows(sel.X) {
			return &perItemLoop{node: s, body: s.Body, what: "row of " + types.ExprString(sel.X)}
		}
		if c.isIterator(sel) {
			return &perItemLoop{node: s, body: s.Body, what: "item of " + types.ExprString(sel.X)}
		}
		return nil
	}
	return nil
}

// fixedWhereMade reports whether the list x, used in fd at pos, is fixed
// by what fd shows of it: a literal, a local only ever assigned literals,
// configuration, the cluster's members, a length checked before pos, or a
// batch with a constant LIMIT.
func (c *checker) fixedWhereMade(fd *ast.FuncDecl, x ast.Expr, pos token.Pos) bool {
	_, lit := ast.Unparen(x).(*ast.CompositeLit)
	return lit || c.fixedLocalList(fd.Body, x) || c.configured(fd.Body, x) || c.clusterMembers(fd.Body, x) ||
		c.lenChecked(fd.Body, x, pos) || c.cappedByLimit(fd, x)
}

// unsubscribed reports whether t is a map type that the package deletes
// from (delete(m, id) on a map of that very type): its funcs are
// subscriptions, which come and go with their subscribers (coder's pubsub
// listeners, one per request that watches a job's logs, removed by the
// cancel func Subscribe returns), not hooks the code registers once and
// never removes.
func (c *checker) unsubscribed(t types.Type) bool {
	if _, isMap := t.Underlying().(*types.Map); !isMap {
		return false
	}
	if c.deletedFrom == nil {
		c.deletedFrom = []types.Type{}
		for _, f := range c.pass.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok || len(call.Args) != 2 {
					return true
				}
				if b, ok := c.pass.TypesInfo.Uses[identOrNil(call.Fun)].(*types.Builtin); ok && b.Name() == "delete" {
					c.deletedFrom = append(c.deletedFrom, c.pass.TypesInfo.TypeOf(call.Args[0]))
				}
				return true
			})
		}
	}
	return slices.ContainsFunc(c.deletedFrom, func(d types.Type) bool { return d != nil && types.Identical(d, t) })
}

func isFuncList(t types.Type) bool {
	_, ok := elemOf(t).Underlying().(*types.Signature)
	return ok
}

// isBehaviourList reports whether t is a type the code declares as a list
// of a non-empty interface (type FanoutStage []Stage, run by its own Exec:
// the composite of a pipeline's stages): behaviours the code assembles, as
// a list of funcs is, and not data. An unnamed slice of an interface is
// not one: the interface may be an entity's (pocketbase's
// []subscriptions.Client, one per connected client); nor is a map, whose
// keys may come from input.
func isBehaviourList(t types.Type) bool {
	if _, named := types.Unalias(t).(*types.Named); !named {
		return false
	}
	sl, ok := t.Underlying().(*types.Slice)
	if !ok {
		return false
	}
	iface, ok := sl.Elem().Underlying().(*types.Interface)
	return ok && iface.NumMethods() > 0
}

// isMemberList reports whether t's elements are of a type a membership
// package declares (memberlist's *Node): the cluster's running instances,
// whether a membership function or a func field (peers func() []*Node)
// produced the list.
func isMemberList(t types.Type) bool {
	named := ssautil.NamedOf(elemOf(t))
	return named != nil && named.Obj().Pkg() != nil && catalog.IsMembershipPackage(named.Obj().Pkg().Path())
}

// isListenerList reports whether t's elements are listeners (net.Listener
// or a type that implements it): the sockets the process opened to serve
// on, as many as its configuration names ports and addresses; a goroutine
// that serves each is one server per port, not one per request.
func isListenerList(t types.Type) bool {
	elem := elemOf(t)
	if elem == types.Typ[types.Invalid] {
		return false
	}
	accept, _, _ := types.LookupFieldOrMethod(elem, true, nil, "Accept")
	addr, _, _ := types.LookupFieldOrMethod(elem, true, nil, "Addr")
	acceptFn, ok1 := accept.(*types.Func)
	addrFn, ok2 := addr.(*types.Func)
	if !ok1 || !ok2 || addrFn.Signature().Results().Len() != 1 || acceptFn.Signature().Results().Len() != 2 {
		return false
	}
	return catalog.TypeKey(addrFn.Signature().Results().At(0).Type()) == "net.Addr" &&
		catalog.TypeKey(acceptFn.Signature().Results().At(0).Type()) == "net.Conn"
}

// elemOf is the element type of a slice or map.
func elemOf(t types.Type) types.Type {
	switch t := t.Underlying().(type) {
	case *types.Slice:
		return t.Elem()
	case *types.Map:
		return t.Elem()
	}
	return types.Typ[types.Invalid]
}

// innermostBody is the body of the innermost function literal in stack, or
// fd's body.
func innermostBody(fd *ast.FuncDecl, stack []ast.Node) *ast.BlockStmt {
	for i := len(stack) - 1; i >= 0; i-- {
		if lit, ok := stack[i].(*ast.FuncLit); ok {
			return lit.Body
		}
	}
	return fd.Body
}

// joinedPartitions reports whether the loop hands each goroutine a part
// the code made (a chunk of a list, one producer's channel) that the
// goroutine ranges over, and the function waits for them all after the
// loop: as many goroutines as parts, all gone when the function returns.
func (c *checker) joinedPartitions(loop *perItemLoop, body *ast.BlockStmt) bool {
	if body == nil || loop.fn == nil || loop.elem == nil {
		return false
	}
	switch loop.elem.Underlying().(type) {
	case *types.Slice, *types.Map, *types.Chan:
	default:
		return false
	}
	ranges := false
	ast.Inspect(body, func(n ast.Node) bool {
		if r, ok := n.(*ast.RangeStmt); ok && !ranges {
			t := c.pass.TypesInfo.TypeOf(r.X)
			ranges = t != nil && types.Identical(t.Underlying(), loop.elem.Underlying())
		}
		return !ranges
	})
	return ranges && c.waitsAfter(loop.fn, loop.node.End())
}

func (c *checker) isRows(e ast.Expr) bool {
	t := c.pass.TypesInfo.TypeOf(e)
	if t == nil {
		return false
	}
	return isNamed(t, "database/sql", "Rows") || isNamed(t, "github.com/jackc/pgx/v5", "Rows")
}

// isIterator reports whether sel is a Next method that returns only a
// bool, with no argument or a context: a cursor's (MongoDB's Cursor.Next,
// a key-value store's iterator, a project's own over its records), each
// round one more stored item, as many as the store holds.
func (c *checker) isIterator(sel *ast.SelectorExpr) bool {
	fn, ok := c.pass.TypesInfo.Uses[sel.Sel].(*types.Func)
	if !ok || fn.Signature().Recv() == nil {
		return false
	}
	sig := fn.Signature()
	results := sig.Results()
	if results.Len() != 1 || !types.Identical(results.At(0).Type(), types.Typ[types.Bool]) {
		return false
	}
	params := sig.Params()
	return params.Len() == 0 || params.Len() == 1 && ssautil.IsContext(params.At(0).Type())
}

// lenChecked reports whether len(x) is compared with something before pos:
// the code bounds the collection before it fans out over it.
func (c *checker) lenChecked(body ast.Node, x ast.Expr, before token.Pos) bool {
	want := types.ExprString(x)
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		bin, ok := n.(*ast.BinaryExpr)
		if found || !ok || bin.Pos() >= before {
			return !found
		}
		switch bin.Op {
		case token.LSS, token.LEQ, token.GTR, token.GEQ:
			found = c.capsLen(bin, want)
		}
		return !found
	})
	return found
}

// capsLen reports whether bin compares len(want) with something that can
// cap it: not an emptiness test (len(x) > 0, len(x) == 0, len(x) >= 1),
// which lets any number of items through.
func (c *checker) capsLen(bin *ast.BinaryExpr, want string) bool {
	return c.caps(bin, func(e ast.Expr) bool { return c.isLenOf(e, want) })
}

// caps reports whether bin compares a length (isLen) with something that
// can cap it.
func (c *checker) caps(bin *ast.BinaryExpr, isLen func(ast.Expr) bool) bool {
	other := bin.Y
	if !isLen(bin.X) {
		if !isLen(bin.Y) {
			return false
		}
		other = bin.X
	}
	k, ok := c.constInt(other)
	if !ok {
		return true
	}
	op := bin.Op
	if other == bin.X {
		op = mirror(op) // 1 <= len(x) is len(x) >= 1
	}
	switch {
	case k <= 0:
		return false // len(x) > 0, len(x) == 0
	case k == 1:
		return op != token.GEQ && op != token.LSS // len(x) >= 1 is len(x) > 0; len(x) > 1 caps at one
	}
	return true
}

// mirror is the operator with its operands swapped.
func mirror(op token.Token) token.Token {
	switch op {
	case token.LSS:
		return token.GTR
	case token.GTR:
		return token.LSS
	case token.LEQ:
		return token.GEQ
	case token.GEQ:
		return token.LEQ
	}
	return op
}

// configured reports whether x is read from configuration (cfg.Peers,
// h.Config().Keys(ctx), a value of a type a configuration package declares:
// rs []config.InhibitRule), directly or through the one assignment of a
// local variable or the range statement that defines it, to a depth of
// three: a list set at start-up by whoever runs the process, not input.
func (c *checker) configured(body *ast.BlockStmt, x ast.Expr) bool {
	return c.fromConfig(body, x, 0)
}

func (c *checker) fromConfig(body *ast.BlockStmt, x ast.Expr, depth int) bool {
	if src := c.rangedOver(body, x); src != nil {
		x = src
	} else if x = c.assignedOnce(body, x); x == nil {
		return false
	}
	found := false
	ast.Inspect(x, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok || found {
			return !found
		}
		found = isConfigName(id.Name) || c.isConfigAccessor(id) || c.isConfiguration(c.pass.TypesInfo.TypeOf(id)) ||
			depth < 3 && c.localVar(id) != nil && c.fromConfig(body, id, depth+1)
		return !found
	})
	return found
}

// rangedOver is the collection a range statement in body ranges over when
// x is a variable that statement defines (cr in for _, cr := range rs), or
// nil.
func (c *checker) rangedOver(body *ast.BlockStmt, x ast.Expr) ast.Expr {
	v := c.localVar(x)
	if v == nil {
		return nil
	}
	var src ast.Expr
	ast.Inspect(body, func(n ast.Node) bool {
		if rs, ok := n.(*ast.RangeStmt); ok && rs.Tok == token.DEFINE {
			for _, e := range []ast.Expr{rs.Key, rs.Value} {
				if id, ok := e.(*ast.Ident); ok && c.pass.TypesInfo.Defs[id] == v {
					src = rs.X
				}
			}
		}
		return src == nil
	})
	return src
}

// isConfigType reports whether t, or the element of a slice or map it is,
// is declared by a configuration package (one named config, conf,
// configuration or settings) or named ...Config: a value loaded from the
// process's configuration.
func isConfigType(t types.Type) bool {
	if t == nil {
		return false
	}
	switch u := t.Underlying().(type) {
	case *types.Slice:
		t = u.Elem()
	case *types.Map:
		t = u.Elem()
	}
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if a, ok := t.(*types.Alias); ok && a.Obj().Pkg() != nil && isConfigPackage(a.Obj().Pkg().Name()) {
		return true // the configuration package's name for its parser's type (maddy's config.Node = parser.Node)
	}
	named := ssautil.NamedOf(t)
	if named == nil || named.Obj().Pkg() == nil {
		return false
	}
	if isConfigPackage(named.Obj().Pkg().Name()) {
		return true
	}
	return strings.HasSuffix(named.Obj().Name(), "Config")
}

// isConfigPackage reports whether a package's name says it holds the
// process's configuration.
func isConfigPackage(name string) bool {
	switch name {
	case "config", "conf", "configuration", "settings":
		return true
	}
	return false
}

// isConfiguration reports whether t is a configuration type (isConfigType)
// or one a configuration type of this package holds (heldByConfig).
func (c *checker) isConfiguration(t types.Type) bool {
	return isConfigType(t) || c.heldByConfig(t)
}

// heldByConfig reports whether t, or the element of a slice or map it is,
// is a struct type of this package that a configuration type declared here
// holds in a field, at any depth (MonitorConfig{Instances []Instance}): what
// the configuration's loader fills into it is configuration too.
func (c *checker) heldByConfig(t types.Type) bool {
	named := ssautil.NamedOf(elemOrSelf(t))
	if named == nil {
		return false
	}
	if c.configHeld == nil {
		c.configHeld = map[*types.TypeName]bool{}
		scope := c.pass.Pkg.Scope()
		for _, name := range scope.Names() {
			if tn, ok := scope.Lookup(name).(*types.TypeName); ok && isConfigType(tn.Type()) {
				c.holdFields(tn.Type())
			}
		}
	}
	return c.configHeld[named.Origin().Obj()] && !c.requestBuilt()[named.Origin().Obj()]
}

// requestBuilt is the set of this package's named types that a function
// handed a request builds: a variable of the type (or a pointer to it)
// declared there, or a composite literal of it (var s Subscription; decode
// the body into s). Such a value is the request's data, whatever
// configuration type also holds one.
func (c *checker) requestBuilt() map[*types.TypeName]bool {
	if c.perRequestTypes != nil {
		return c.perRequestTypes
	}
	c.perRequestTypes = map[*types.TypeName]bool{}
	mark := func(t types.Type) {
		if named := ssautil.NamedOf(t); named != nil && named.Obj().Pkg() == c.pass.Pkg {
			c.perRequestTypes[named.Origin().Obj()] = true
		}
	}
	for _, f := range c.pass.Files {
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil || !c.handlesRequest(fd) {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.Ident:
					if v, ok := c.pass.TypesInfo.Defs[n].(*types.Var); ok {
						mark(v.Type())
					}
				case *ast.CompositeLit:
					mark(c.pass.TypesInfo.TypeOf(n))
				}
				return true
			})
		}
	}
	return c.perRequestTypes
}

// holdFields marks the struct types of this package that t's fields hold,
// as values or as elements of slices, arrays and maps, and theirs in turn.
// A field that is one pointer is not followed: a configuration that carries
// a dependency (ServerConfig{Hub: hub}) holds what the program built, and
// the Hub's lists are the Hub's, not the operator's.
func (c *checker) holdFields(t types.Type) {
	st, ok := structOf(t)
	if !ok {
		return
	}
	for i := range st.NumFields() {
		ft := st.Field(i).Type()
		if _, ptr := types.Unalias(ft).(*types.Pointer); ptr {
			continue // one shared object handed in (Hub *Hub): a dependency, not a value the loader fills
		}
		named := ssautil.NamedOf(elemOrSelf(ft))
		if named == nil || named.Obj().Pkg() != c.pass.Pkg || c.configHeld[named.Origin().Obj()] {
			continue
		}
		if _, ok := structOf(named); ok {
			c.configHeld[named.Origin().Obj()] = true
			c.holdFields(named)
		}
	}
}

// elemOrSelf is the element type of a slice, array or map t, else t.
func elemOrSelf(t types.Type) types.Type {
	if t == nil {
		return nil
	}
	switch u := types.Unalias(t).Underlying().(type) {
	case *types.Slice:
		return u.Elem()
	case *types.Array:
		return u.Elem()
	case *types.Map:
		return u.Elem()
	}
	return t
}

// assignedOnce is x, or, when x is a local variable, the expression of its
// one assignment in body (nil when it has none or several).
func (c *checker) assignedOnce(body *ast.BlockStmt, x ast.Expr) ast.Expr {
	v := c.localVar(x)
	if v == nil {
		return x
	}
	var from ast.Expr
	n := 0
	ast.Inspect(body, func(node ast.Node) bool {
		if as, ok := node.(*ast.AssignStmt); ok && len(as.Lhs) == len(as.Rhs) {
			for i, lhs := range as.Lhs {
				if c.localVar(lhs) == v {
					from, n = as.Rhs[i], n+1
				}
			}
		}
		return true
	})
	if n != 1 {
		return nil
	}
	return from
}

// clusterMembers reports whether x is the list a call into a membership
// package returns (resolver.AvailableMembers(), memberlist's Members()),
// directly or through the one assignment of a local: the running instances
// of the cluster, as many as its operator runs, not input. A method of the
// same name elsewhere (a store's ListMembers of a group) is data.
func (c *checker) clusterMembers(body *ast.BlockStmt, x ast.Expr) bool {
	call, ok := ast.Unparen(c.assignedOnce(body, x)).(*ast.CallExpr)
	if !ok {
		return false
	}
	fn := c.callee(call)
	return fn != nil && fn.Pkg() != nil && catalog.IsMembershipPackage(fn.Pkg().Path())
}

// isConfigAccessor reports whether id names a function or method taking
// nothing whose name, its get prefix aside, names configuration
// (s.getOpts(), srv.GetConfig()): the settings the process was started
// with, behind an accessor.
func (c *checker) isConfigAccessor(id *ast.Ident) bool {
	fn, ok := c.pass.TypesInfo.Uses[id].(*types.Func)
	if !ok || fn.Signature().Params().Len() != 0 {
		return false
	}
	name := strings.TrimPrefix(strings.TrimPrefix(fn.Name(), "get"), "Get")
	return name != fn.Name() && isConfigName(name)
}

func isConfigName(name string) bool {
	name = strings.ToLower(name)
	switch name {
	case "cfg", "conf", "config", "configuration", "settings", "options", "opts":
		return true
	}
	return strings.HasSuffix(name, "config")
}

// fixedLocalList reports whether x is a local variable that is only ever
// assigned composite literals ({pg, mysql, crdb}): a list the code wrote,
// as fixed as a literal ranged over directly.
func (c *checker) fixedLocalList(body *ast.BlockStmt, x ast.Expr) bool {
	v := c.localVar(x)
	if v == nil {
		return false
	}
	fixed, assigned := true, false
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || !fixed {
			return fixed
		}
		for i, lhs := range as.Lhs {
			id, ok := ast.Unparen(lhs).(*ast.Ident)
			if !ok || c.pass.TypesInfo.ObjectOf(id) != v {
				continue
			}
			assigned = true
			_, lit := ast.Unparen(as.Rhs[min(i, len(as.Rhs)-1)]).(*ast.CompositeLit)
			fixed = len(as.Lhs) == len(as.Rhs) && lit
		}
		return fixed
	})
	return fixed && assigned && !c.addressTaken(body, v)
}

// addressTaken reports whether &v appears in body: someone else may fill v.
func (c *checker) addressTaken(body *ast.BlockStmt, v *types.Var) bool {
	taken := false
	ast.Inspect(body, func(n ast.Node) bool {
		if u, ok := n.(*ast.UnaryExpr); ok && u.Op == token.AND && c.localVar(u.X) == v {
			taken = true
		}
		return !taken
	})
	return taken
}

func (c *checker) isLenOf(e ast.Expr, want string) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return false
	}
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return false
	}
	if _, builtin := c.pass.TypesInfo.ObjectOf(id).(*types.Builtin); !builtin || id.Name != "len" {
		return false
	}
	return types.ExprString(call.Args[0]) == want
}

// workBody is the body of the function a goroutine runs, when it is a
// literal or a function declared in this package.
func (c *checker) workBody(fun ast.Expr) *ast.BlockStmt {
	switch f := ast.Unparen(fun).(type) {
	case *ast.FuncLit:
		return f.Body
	case *ast.Ident, *ast.SelectorExpr:
		var id *ast.Ident
		if sel, ok := f.(*ast.SelectorExpr); ok {
			id = sel.Sel
		} else {
			id = f.(*ast.Ident)
		}
		fn, ok := c.pass.TypesInfo.ObjectOf(id).(*types.Func)
		if !ok || fn.Pkg() != c.pass.Pkg {
			return nil
		}
		for _, file := range c.pass.Files {
			for _, d := range file.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && c.pass.TypesInfo.Defs[fd.Name] == fn {
					return fd.Body
				}
			}
		}
	}
	return nil
}

// takesSlot reports whether n, outside nested function literals and before
// pos, takes a slot of a limiter: a channel send (a semaphore), a receive
// (a token), or a call of the catalogue's limiters or of a function that
// takes a slot itself (a fact).
func (c *checker) takesSlot(n ast.Node, before token.Pos) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if found || n == nil || n.Pos() >= before {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.SendStmt:
			found = c.isToken(n.Value)
		case *ast.UnaryExpr:
			found = n.Op == token.ARROW
		case *ast.CallExpr:
			fn := c.callee(n)
			found = catalog.Limiters.Has(fn) || c.takesSlotByCall(fn)
		}
		return !found
	})
	return found
}

// isToken reports whether a sent value is a semaphore's token (struct{}{},
// true, 1: a constant), not data such as a counter or a result, which any
// goroutine may send with nothing waiting for a slot.
func (c *checker) isToken(x ast.Expr) bool {
	tv, ok := c.pass.TypesInfo.Types[x]
	return ok && tv.Value != nil || c.isEmptyStruct(x)
}

func (c *checker) isEmptyStruct(x ast.Expr) bool {
	st, ok := c.pass.TypesInfo.TypeOf(x).Underlying().(*types.Struct)
	return ok && st.NumFields() == 0
}

// slotTriedInside reports whether the goroutine body, in one of its
// top-level statements and before its work, tries for a slot without
// waiting: TryAcquire or Allow, a token sent in a select with a default,
// a function that only tries (takesSlot.Tries). The goroutines that find
// none end at once. A semaphore's slot the goroutine waits for bounds the
// work that runs, not the goroutines: they pile up in the wait, each
// holding what it was started with (sftpgo's event actions take their
// guard inside the goroutine every event starts). A receive still counts,
// as a token or as the goroutine's wait for the end of what started it
// (database/sql's awaitDone on the transaction's context), which is no
// queue.
func (c *checker) slotTriedInside(body *ast.BlockStmt) bool {
	if body == nil {
		return false
	}
	for _, s := range body.List {
		if _, ok := s.(*ast.DeferStmt); ok {
			continue
		}
		if c.triesSlot(s) {
			return true
		}
	}
	return false
}

// slotWaitedJoined reports whether each goroutine waits for a slot first
// (a Limiters call among its top-level statements: semaphore.Acquire with
// the caller's context) and the function waits for them all after the loop
// (a WaitGroup's or errgroup's Wait, a receive, a range over a channel).
// The function's fan-out then runs under the semaphore's cap, and the
// goroutines waiting for a slot end with the call that joins them (yorkie's
// FanOut over a request's shard groups). Goroutines that wait for their
// slot and are joined by nothing pile up with their callers gone
// (sftpgo's event actions).
func (c *checker) slotWaitedJoined(loop *perItemLoop, body *ast.BlockStmt) bool {
	if body == nil || loop.fn == nil {
		return false
	}
	waits := slices.ContainsFunc(body.List, func(s ast.Stmt) bool {
		_, isDefer := s.(*ast.DeferStmt)
		return !isDefer && c.waitsForSlot(s)
	})
	return waits && c.waitsAfter(loop.fn, loop.node.End())
}

// waitsForSlot reports whether s, outside nested function literals, calls
// one of the catalogue's Limiters.
func (c *checker) waitsForSlot(s ast.Stmt) bool {
	found := false
	ast.Inspect(s, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			found = found || catalog.Limiters.Has(c.callee(n))
		}
		return !found
	})
	return found
}

// triesSlot reports whether s, outside nested function literals, tries for
// a slot without waiting.
func (c *checker) triesSlot(s ast.Stmt) bool {
	found := false
	ast.Inspect(s, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.SelectStmt:
			for _, send := range sendsWithDefault(n) {
				found = found || c.isToken(send.Value)
			}
		case *ast.UnaryExpr:
			found = n.Op == token.ARROW
		case *ast.CallExpr:
			fn := c.callee(n)
			found = found || catalog.SlotTries.Has(fn) || c.triesSlotByCall(fn)
		}
		return !found
	})
	return found
}

// waitsAfter reports whether the loop body, after pos, waits for what it
// started: a receive (a range over a channel receives every value until
// it is closed), or a WaitGroup or errgroup Wait (a batch, or one item at a
// time).
func (c *checker) waitsAfter(body *ast.BlockStmt, pos token.Pos) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if found || n == nil {
			return false
		}
		if n.End() <= pos {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.UnaryExpr:
			found = n.Op == token.ARROW && n.Pos() >= pos
		case *ast.RangeStmt:
			found = n.Pos() >= pos && c.chanElem(n.X) != nil
		case *ast.CallExpr:
			fn := c.callee(n)
			found = n.Pos() >= pos && fn != nil && fn.Name() == "Wait" &&
				(catalog.Key(fn) == "(*sync.WaitGroup).Wait" || catalog.Key(fn) == "(*golang.org/x/sync/errgroup.Group).Wait")
		}
		return !found
	})
	return found
}

// sleepsEveryRound reports whether a top-level statement of the loop's
// body sleeps (catalog.Sleeps: time.Sleep(time.Second)) on every round that
// starts a goroutine at start: before the statement that starts it, or
// after it with no continue between them. At most one goroutine then starts
// per interval, the pace a rate.Limiter's Wait would set. A sleep under an
// if (after a failure) paces only the rounds that take it, and a constant
// duration of zero or less does not wait.
func (c *checker) sleepsEveryRound(body *ast.BlockStmt, start token.Pos) bool {
	for _, st := range body.List {
		es, ok := st.(*ast.ExprStmt)
		if !ok {
			continue
		}
		call, ok := ast.Unparen(es.X).(*ast.CallExpr)
		if !ok || len(call.Args) == 0 {
			continue
		}
		fn := c.callee(call)
		if fn == nil {
			continue
		}
		if _, sleeps := catalog.Sleeps[catalog.Key(fn)]; !sleeps || c.noWait(call.Args[0]) {
			continue
		}
		if st.Pos() < start || !continuesBetween(body, start, st.Pos()) {
			return true
		}
	}
	return false
}

// noWait reports whether d is a constant duration of zero or less.
func (c *checker) noWait(d ast.Expr) bool {
	tv := c.pass.TypesInfo.Types[d]
	return tv.Value != nil && constant.Sign(tv.Value) <= 0
}

// continuesBetween reports whether body has a continue of its own loop
// (not of a loop nested in it, nor in a function literal) between from and
// to.
func continuesBetween(body *ast.BlockStmt, from, to token.Pos) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ForStmt, *ast.RangeStmt, *ast.FuncLit:
			return false
		case *ast.BranchStmt:
			found = found || n.Tok == token.CONTINUE && n.Pos() > from && n.Pos() < to
		}
		return !found
	})
	return found
}

// checkGoroutine reports a goroutine started once per item of loop, by
// starter; goroutineAt, when valid, is the go statement in the function
// starter calls (related information: the other end of the finding).
func (c *checker) checkGoroutine(loop *perItemLoop, starter ast.Node, work ast.Expr, body *ast.BlockStmt, how string, goroutineAt token.Pos) {
	start := starter.Pos()
	if c.takesSlot(loop.body, start) || c.slotTriedInside(body) || c.slotWaitedJoined(loop, body) || c.waitsAfter(loop.body, starter.End()) || c.sleepsEveryRound(loop.body, start) ||
		c.joinedPartitions(loop, body) || c.readerPerSource(work) || computesOnly(c.ssaFuncOfWork(work)) {
		return
	}
	d := c.diagnostic(start, loop.node.Pos(), "the loop over each "+loop.what+" starts here",
		"goroutine per item: this %s starts one goroutine for every %s, with nothing bounding how many run at once; "+
			"take a slot before the work (a buffered-channel semaphore, semaphore.Acquire, a bulkhead executor) "+
			"or start a fixed number of workers that read from a channel", how, loop.what)
	if goroutineAt.IsValid() {
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: goroutineAt, Message: "the goroutine each call starts"})
	}
	c.emitPerItem(loop, d)
}

// checkGroupGo reports g.Go in a per-item loop when g is a group created in
// this function with no SetLimit before the loop on every path.
func (c *checker) checkGroupGo(fd *ast.FuncDecl, loop *perItemLoop, call *ast.CallExpr) {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return
	}
	g := c.localVar(sel.X)
	if g == nil || !c.createsGroup(fd, g) || c.groupEscapes(fd, g) || c.limitSetBefore(fd, g, loop.node) {
		return // a group from elsewhere is the creator's to limit
	}
	work := c.workBody(call.Args[0])
	if c.takesSlot(loop.body, call.Pos()) || c.slotTriedInside(work) || c.slotWaitedJoined(loop, work) || c.waitsAfter(loop.body, call.End()) ||
		c.joinedPartitions(loop, work) {
		return
	}
	c.emitPerItem(loop, c.diagnostic(call.Pos(), g.Pos(), "group "+g.Name()+" created here with no limit",
		"errgroup without a limit: %s.Go runs once for every %s and %s has no SetLimit before the loop, "+
			"so every item runs at once; call %s.SetLimit(n) with n > 0 right after creating the group",
		g.Name(), loop.what, g.Name(), g.Name()))
}

// createsGroup reports whether g is declared in fd as a new errgroup: a
// zero Group, new(errgroup.Group), &errgroup.Group{} or errgroup.WithContext.
func (c *checker) createsGroup(fd *ast.FuncDecl, g *types.Var) bool {
	if g.Pos() < fd.Body.Pos() || g.Pos() >= fd.Body.End() {
		return false
	}
	creates := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ValueSpec:
			for i, name := range n.Names {
				if c.pass.TypesInfo.Defs[name] == g {
					creates = len(n.Values) == 0 || i < len(n.Values) && c.isNewGroup(n.Values[i])
				}
			}
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				id, ok := lhs.(*ast.Ident)
				if !ok || c.pass.TypesInfo.Defs[id] != g {
					continue
				}
				if len(n.Rhs) == len(n.Lhs) {
					creates = c.isNewGroup(n.Rhs[i])
				} else if len(n.Rhs) == 1 {
					creates = c.isNewGroup(n.Rhs[0])
				}
			}
		}
		return true
	})
	return creates
}

func (c *checker) isNewGroup(e ast.Expr) bool {
	const errgroup = "golang.org/x/sync/errgroup"
	switch e := ast.Unparen(e).(type) {
	case *ast.UnaryExpr:
		return e.Op == token.AND && c.isNewGroup(e.X)
	case *ast.CompositeLit:
		return isNamed(c.pass.TypesInfo.TypeOf(e), errgroup, "Group")
	case *ast.CallExpr:
		if id, ok := ast.Unparen(e.Fun).(*ast.Ident); ok && id.Name == "new" && len(e.Args) == 1 {
			return isNamed(c.pass.TypesInfo.TypeOf(e.Args[0]), errgroup, "Group")
		}
		fn := c.callee(e)
		return fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == errgroup && fn.Name() == "WithContext"
	}
	return false
}

// groupEscapes reports whether g is passed to a function or stored, where
// someone else may set its limit.
func (c *checker) groupEscapes(fd *ast.FuncDecl, g *types.Var) bool {
	escapes := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			for _, a := range n.Args {
				if u, ok := ast.Unparen(a).(*ast.UnaryExpr); ok && u.Op == token.AND {
					a = u.X
				}
				if c.localVar(a) == g {
					escapes = true
				}
			}
		case *ast.AssignStmt:
			for _, r := range n.Rhs {
				if u, ok := ast.Unparen(r).(*ast.UnaryExpr); ok && u.Op == token.AND {
					r = u.X
				}
				if c.localVar(r) == g {
					escapes = true
				}
			}
		}
		return !escapes
	})
	return escapes
}

// limitSetBefore reports whether g.SetLimit(n), n not a negative constant,
// is a statement of a block around loop, before it: on every path to it.
func (c *checker) limitSetBefore(fd *ast.FuncDecl, g *types.Var, loop ast.Stmt) bool {
	set := false
	ast.PreorderStack(fd.Body, nil, func(n ast.Node, stack []ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if set || !ok || len(stack) < 2 || call.Pos() >= loop.Pos() {
			return !set
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "SetLimit" || c.localVar(sel.X) != g || len(call.Args) != 1 {
			return true
		}
		if n, ok := c.constInt(call.Args[0]); ok && n < 0 {
			return true // SetLimit(-1) removes the limit
		}
		if _, ok := stack[len(stack)-1].(*ast.ExprStmt); !ok {
			return true
		}
		block, ok := stack[len(stack)-2].(*ast.BlockStmt)
		set = ok && block.Pos() <= loop.Pos() && loop.End() <= block.End()
		return !set
	})
	return set
}

// readerPerSource reports whether the goroutine's work loops for as long as
// its source lives — a receive loop over a channel, a ticker loop, an
// infinite loop, in the work or two calls down (entrypoints' rule for
// background work). One such goroutine per item is a reader per shard,
// file, peer, plugin or input channel: the items are sources the
// deployment or the code set up, each read by one goroutine for its whole
// life, not units of work queued per input; what bounds them is how many
// sources there are, not how fast input arrives. A server per configured
// listener is one such reader (servesConns).
func (c *checker) readerPerSource(work ast.Expr) bool {
	if c.servesPerSource(work) || runsUntilStopped(c.pass.TypesInfo.TypeOf(work)) {
		return true
	}
	fn := c.ssaFuncOfWork(work)
	return fn != nil && (&entrypoints.Finder{}).Loop(fn) != ""
}

// runsUntilStopped reports whether t is the signature of a runner handed
// only a stop channel, Run(stopCh <-chan struct{}) as Kubernetes'
// informers and controllers take it: it runs until that channel closes,
// one per source the code set up (an informer per watched namespace),
// whatever package declares it.
func runsUntilStopped(t types.Type) bool {
	sig, ok := t.(*types.Signature)
	if !ok || sig.Params().Len() != 1 || sig.Results().Len() != 0 {
		return false
	}
	ch, ok := sig.Params().At(0).Type().Underlying().(*types.Chan)
	if !ok || ch.Dir() == types.SendOnly {
		return false
	}
	st, ok := ch.Elem().Underlying().(*types.Struct)
	return ok && st.NumFields() == 0
}

// ssaFuncOfWork is the SSA function a goroutine runs: a function literal,
// or a function or method of this package named by work; nil otherwise.
func (c *checker) ssaFuncOfWork(work ast.Expr) *ssa.Function {
	switch w := ast.Unparen(work).(type) {
	case *ast.FuncLit:
		return c.ssaFuncAt(w)
	case *ast.Ident, *ast.SelectorExpr:
		fn, ok := c.pass.TypesInfo.Uses[identOf(w)].(*types.Func)
		if !ok || fn.Pkg() != c.pass.Pkg {
			return nil
		}
		return c.pass.ResultOf[lazyssa.Analyzer].(*lazyssa.Builder).Package().Prog.FuncValue(fn)
	}
	return nil
}

// identOf is the identifier that names e: x, or Sel in x.Sel; else nil.
func identOf(e ast.Expr) *ast.Ident {
	switch e := ast.Unparen(e).(type) {
	case *ast.SelectorExpr:
		return e.Sel
	case *ast.Ident:
		return e
	}
	return nil
}
