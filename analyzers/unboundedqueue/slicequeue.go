package unboundedqueue

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/bhlint/bhlint/internal/catalog"
)

// fieldUse is an append to, or a drain of, a slice field, in one function.
type fieldUse struct {
	fn   *ast.FuncDecl
	stmt *ast.AssignStmt
}

// checkSliceQueues finds struct field slices that a method appends to,
// under a lock, with no length check, and that another function drains: a
// queue with no bound between goroutines (shape 5).
func (c *checker) checkSliceQueues() {
	appends := map[*types.Var][]fieldUse{}
	drains := map[*types.Var][]fieldUse{}
	var fields []*types.Var // in source order, for stable reports
	for _, f := range c.pass.Files {
		if c.isTest(f) {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				as, ok := n.(*ast.AssignStmt)
				if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 || as.Tok != token.ASSIGN {
					return true
				}
				field := c.sliceField(as.Lhs[0])
				if field == nil {
					return true
				}
				lhs := types.ExprString(as.Lhs[0])
				switch {
				case c.isAppendTo(as.Rhs[0], lhs) && c.onReceiver(fd, as.Lhs[0]):
					if appends[field] == nil && drains[field] == nil {
						fields = append(fields, field)
					}
					appends[field] = append(appends[field], fieldUse{fd, as})
				case c.isDrainOf(as.Rhs[0], lhs) && c.consumes(fd, as, lhs):
					if appends[field] == nil && drains[field] == nil {
						fields = append(fields, field)
					}
					drains[field] = append(drains[field], fieldUse{fd, as})
				}
				return true
			})
		}
	}
	for _, field := range fields {
		for _, app := range appends[field] {
			drain := drainElsewhere(drains[field], app.fn)
			if drain == nil || !c.locks(app.fn) || isFuncList(field.Type()) || c.boundedIn(app, drains[field]) {
				continue
			}
			target := types.ExprString(app.stmt.Lhs[0])
			c.report(app.stmt.Pos(), drain.stmt.Pos(), "drained here",
				"slice used as a queue: %s appends to %s with no check of its length, and %s drains it, "+
					"so it grows for as long as producers outpace the drain; check len(%s) against a bound "+
					"and reject or drop when full, or use a buffered channel",
				funcName(app.fn), target, funcName(drain.fn), target)
		}
	}
}

// onReceiver reports whether e selects a field of fd's receiver: the state
// of a long-lived value, not of a struct being built.
func (c *checker) onReceiver(fd *ast.FuncDecl, e ast.Expr) bool {
	if fd.Recv == nil || len(fd.Recv.List) == 0 || len(fd.Recv.List[0].Names) == 0 {
		return false
	}
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	return ok && c.pass.TypesInfo.Uses[id] == c.pass.TypesInfo.Defs[fd.Recv.List[0].Names[0]]
}

// locks reports whether fd takes a sync.Mutex or RWMutex: the slice is
// shared between goroutines, a producer and a consumer, as a queue is. A
// slice only one goroutine touches (a builder, a buffer reused with [:0])
// is not a queue.
func (c *checker) locks(fd *ast.FuncDecl) bool {
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && !found {
			if fn := c.callee(call); fn != nil {
				switch catalog.Key(fn) {
				case "(*sync.Mutex).Lock", "(*sync.RWMutex).Lock":
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// sliceField is the struct field of slice type that e selects, or nil.
func (c *checker) sliceField(e ast.Expr) *types.Var {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	v, ok := c.pass.TypesInfo.ObjectOf(sel.Sel).(*types.Var)
	if !ok || !v.IsField() {
		return nil
	}
	if _, ok := v.Type().Underlying().(*types.Slice); !ok {
		return nil
	}
	return v
}

// isAppendTo reports whether e is append(target, …).
func (c *checker) isAppendTo(e ast.Expr, target string) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) < 2 {
		return false
	}
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok || id.Name != "append" {
		return false
	}
	if _, ok := c.pass.TypesInfo.ObjectOf(id).(*types.Builtin); !ok {
		return false
	}
	return types.ExprString(call.Args[0]) == target
}

// isDrainOf reports whether e empties or shortens target from the front:
// target[1:], target[n:], target[:0], nil or make(T, 0). An empty literal
// is not counted: it is how code turns a nil slice into [] for JSON.
func (c *checker) isDrainOf(e ast.Expr, target string) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.SliceExpr:
		if types.ExprString(e.X) != target {
			return false
		}
		if e.Low != nil {
			return true
		}
		k, ok := c.constInt(e.High)
		return e.High != nil && ok && k == 0
	case *ast.Ident:
		return e.Name == "nil" && c.pass.TypesInfo.Types[e].IsNil()
	case *ast.CallExpr:
		// make([]T, 0): a fresh empty slice
		if id, ok := ast.Unparen(e.Fun).(*ast.Ident); ok && id.Name == "make" && len(e.Args) >= 2 {
			k, ok := c.constInt(e.Args[1])
			return ok && k == 0
		}
	}
	return false
}

// consumes reports whether the drain as, in fd, hands the items on: a pop
// from the front (target[1:]) does; a reset (nil, [:0], make(T, 0)) does
// only after the function took the items out (out := q.items, range,
// index, a call), and never in a function that removes one entry by
// searching for it (a registry or a set: append(s[:i], s[i+1:]...) or a
// swap-remove), where the reset just tidies an empty slice.
func (c *checker) consumes(fd *ast.FuncDecl, as *ast.AssignStmt, target string) bool {
	if sl, ok := ast.Unparen(as.Rhs[0]).(*ast.SliceExpr); ok && sl.Low != nil {
		return !c.removesBySearch(fd, target)
	}
	if c.removesBySearch(fd, target) {
		return false
	}
	takenOut := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if takenOut || n == nil || n.Pos() >= as.Pos() {
			return false
		}
		switch n := n.(type) {
		case *ast.RangeStmt:
			takenOut = types.ExprString(n.X) == target
		case *ast.IndexExpr:
			takenOut = types.ExprString(n.X) == target
		case *ast.AssignStmt:
			for _, r := range n.Rhs {
				takenOut = takenOut || types.ExprString(ast.Unparen(r)) == target
			}
		case *ast.CallExpr:
			for _, a := range n.Args {
				takenOut = takenOut || types.ExprString(ast.Unparen(a)) == target
			}
		}
		return !takenOut
	})
	return takenOut
}

// removesBySearch reports whether fd removes one entry of target found by
// a search: target = append(target[:i], target[i+1:]...), or a swap-remove
// target = target[:len(target)-1].
func (c *checker) removesBySearch(fd *ast.FuncDecl, target string) bool {
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if found || !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 || types.ExprString(as.Lhs[0]) != target {
			return !found
		}
		switch rhs := ast.Unparen(as.Rhs[0]).(type) {
		case *ast.CallExpr:
			if id, ok := rhs.Fun.(*ast.Ident); ok && id.Name == "append" && len(rhs.Args) == 2 && rhs.Ellipsis.IsValid() {
				first, ok1 := ast.Unparen(rhs.Args[0]).(*ast.SliceExpr)
				second, ok2 := ast.Unparen(rhs.Args[1]).(*ast.SliceExpr)
				found = ok1 && ok2 && types.ExprString(first.X) == target && types.ExprString(second.X) == target
			}
		case *ast.SliceExpr:
			if bin, ok := ast.Unparen(rhs.High).(*ast.BinaryExpr); ok && rhs.Low == nil && bin.Op == token.SUB {
				found = types.ExprString(rhs.X) == target && c.isLenOf(bin.X, target)
			}
		}
		return !found
	})
	return found
}

// drainElsewhere is a drain of the field in another function than fd that
// consumes it; emptying it in Close, Stop, Shutdown or Reset is teardown,
// not consumption.
func drainElsewhere(drains []fieldUse, fd *ast.FuncDecl) *fieldUse {
	for i := range drains {
		if drains[i].fn != fd && !isTeardown(drains[i].fn.Name.Name) {
			return &drains[i]
		}
	}
	return nil
}

func isTeardown(name string) bool {
	name = strings.ToLower(name)
	for _, w := range []string{"close", "stop", "shutdown", "reset", "clear", "cleanup", "teardown"} {
		if strings.Contains(name, w) {
			return true
		}
	}
	return false
}

// boundedIn reports whether the appending function checks the field's
// length, or trims it itself (a window, a ring).
func (c *checker) boundedIn(app fieldUse, drains []fieldUse) bool {
	for _, d := range drains {
		if d.fn == app.fn || c.callsAfter(app, d.fn) {
			return true
		}
	}
	if c.rebuildsBefore(app) {
		return true
	}
	want := types.ExprString(app.stmt.Lhs[0])
	lens := c.lenCopies(app.fn.Body, want)
	found := false
	ast.Inspect(app.fn.Body, func(n ast.Node) bool {
		if bin, ok := n.(*ast.BinaryExpr); ok && !found {
			switch bin.Op {
			case token.LSS, token.LEQ, token.GTR, token.GEQ, token.EQL, token.NEQ:
				found = c.capsLen(bin, want)
				found = found || c.caps(bin, func(e ast.Expr) bool {
					v := c.localVar(e)
					return v != nil && contains(lens, v)
				})
			}
		}
		return !found
	})
	return found
}

// rebuildsBefore reports whether the appending function first replaces the
// slice with a fresh empty one (nil, [:0], make(T, 0, n)) and then appends:
// it rebuilds the slice from its own input on every call, so what it holds
// is one call's list, not what calls left behind.
func (c *checker) rebuildsBefore(app fieldUse) bool {
	target := types.ExprString(app.stmt.Lhs[0])
	found := false
	ast.Inspect(app.fn.Body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok || found {
			return false
		}
		as, ok := n.(*ast.AssignStmt)
		found = ok && as.End() <= app.stmt.Pos() && len(as.Lhs) == 1 && len(as.Rhs) == 1 &&
			types.ExprString(as.Lhs[0]) == target && c.isDrainOf(as.Rhs[0], target)
		return true
	})
	return found
}

// callsAfter reports whether the appending function, after its append,
// calls drain itself (p.processActiveStateQueue()), not in a goroutine or a
// function literal: every producer empties what it added before it
// returns, so the slice holds at most one batch per producer running at
// that moment, not a backlog.
func (c *checker) callsAfter(app fieldUse, drain *ast.FuncDecl) bool {
	want, _ := c.pass.TypesInfo.Defs[drain.Name].(*types.Func)
	if want == nil {
		return false
	}
	found := false
	ast.Inspect(app.fn.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit, *ast.GoStmt:
			return false
		case *ast.CallExpr:
			found = found || n.Pos() > app.stmt.End() && c.callee(n) == want
		}
		return !found
	})
	return found
}

// lenCopies are the local variables that body sets to len(target) (n :=
// len(q.items), checked after the unlock): a check of one checks the length.
func (c *checker) lenCopies(body *ast.BlockStmt, target string) []*types.Var {
	var vars []*types.Var
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != len(as.Rhs) {
			return true
		}
		for i, r := range as.Rhs {
			if v := c.localVar(as.Lhs[i]); v != nil && c.isLenOf(r, target) {
				vars = append(vars, v)
			}
		}
		return true
	})
	return vars
}

func funcName(fd *ast.FuncDecl) string {
	if fd.Recv != nil && len(fd.Recv.List) > 0 {
		t := fd.Recv.List[0].Type
		if star, ok := t.(*ast.StarExpr); ok {
			t = star.X
		}
		if idx, ok := t.(*ast.IndexExpr); ok {
			t = idx.X
		}
		return "(" + types.ExprString(t) + ")." + fd.Name.Name
	}
	return fd.Name.Name
}
