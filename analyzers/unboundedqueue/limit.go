package unboundedqueue

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"regexp"

	"github.com/bhlint/bhlint/internal/ssautil"
)

// A batch that a query reads with a constant LIMIT has at most that many
// rows, whatever the table holds: a fan-out over it starts at most LIMIT
// goroutines (goalert's stuck messages: LIMIT 10, one status check each).
// The batch is capped when the loop ranges over
//   - the rows of such a query (for rows.Next(), rows assigned only from
//     it), or
//   - a local slice filled only by appends inside such a rows loop, or
//     through its address by such a query (sqlx's Select(&list, …), gorm's
//     Limit(10).Find(&list));
//
// and the query is limited when its statement is a constant with LIMIT n
// or FETCH FIRST n ROWS (n a literal: a placeholder is the caller's
// choice), a prepared *sql.Stmt held in a field whose every value in the
// package is prepared from such a constant, or a builder chain with
// Limit(n), n a constant.

var sqlLimit = regexp.MustCompile(`(?i)\blimit\s+\d+\b|\bfetch\s+(first|next)\s+\d+\s+rows?\s+only\b`)

// cappedByLimit reports whether the slice x, ranged over in fd, holds a
// batch read with a constant LIMIT.
func (c *checker) cappedByLimit(fd *ast.FuncDecl, x ast.Expr) bool {
	v := c.localVar(x)
	if v == nil {
		return false
	}
	fills, capped := 0, true
	ast.PreorderStack(fd.Body, nil, func(n ast.Node, stack []ast.Node) bool {
		if !capped {
			return false
		}
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				if c.localVar(lhs) != v || len(n.Rhs) != len(n.Lhs) {
					continue
				}
				switch {
				case c.isAppendTo(n.Rhs[i], v.Name()):
					capped = c.inLimitedRowsLoop(fd, stack)
					fills++
				case !c.emptyValue(n.Rhs[i]):
					capped = false
				}
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND && c.localVar(n.X) == v {
				call, ok := stack[len(stack)-1].(*ast.CallExpr)
				capped = ok && c.limitedQuery(call)
				fills++
			}
		}
		return capped
	})
	return capped && fills > 0
}

// emptyValue reports whether e makes an empty slice: nil, T{} or make(T, 0…).
func (c *checker) emptyValue(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return e.Name == "nil"
	case *ast.CompositeLit:
		return len(e.Elts) == 0
	case *ast.CallExpr:
		if c.makeCall(e) == nil || len(e.Args) < 2 {
			return false
		}
		tv := c.pass.TypesInfo.Types[e.Args[1]]
		return tv.Value != nil && constant.Sign(tv.Value) == 0
	}
	return false
}

// inLimitedRowsLoop reports whether the innermost loop in stack is a
// for rows.Next() over the rows of a limited query.
func (c *checker) inLimitedRowsLoop(fd *ast.FuncDecl, stack []ast.Node) bool {
	for i := len(stack) - 1; i >= 0; i-- {
		switch loop := stack[i].(type) {
		case *ast.FuncLit, *ast.RangeStmt:
			return false
		case *ast.ForStmt:
			return c.limitedRowsLoop(fd, loop)
		}
	}
	return false
}

// limitedRowsLoop reports whether loop is for rows.Next() over rows that
// only limited queries assign.
func (c *checker) limitedRowsLoop(fd *ast.FuncDecl, loop *ast.ForStmt) bool {
	call, ok := ast.Unparen(loop.Cond).(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Next" || !c.isRows(sel.X) {
		return false
	}
	rows := c.localVar(sel.X)
	if rows == nil {
		return false
	}
	made := c.assignmentsTo(fd, rows)
	for _, rhs := range made {
		q, ok := ast.Unparen(rhs).(*ast.CallExpr)
		if !ok || !c.limitedQuery(q) {
			return false
		}
	}
	return len(made) > 0
}

// limitedQuery reports whether call, or a call of the builder chain it is
// made on, carries a constant LIMIT.
func (c *checker) limitedQuery(call *ast.CallExpr) bool {
	for cur := call; cur != nil; cur = ssautil.ReceiverCall(cur) {
		if sel, ok := ast.Unparen(cur.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "Limit" && len(cur.Args) == 1 {
			if tv := c.pass.TypesInfo.Types[cur.Args[0]]; tv.Value != nil && constant.Sign(tv.Value) > 0 {
				return true
			}
		}
		for _, arg := range cur.Args {
			if c.limitedSQL(arg) || c.preparedWithLimit(arg) {
				return true
			}
		}
	}
	return false
}

func (c *checker) limitedSQL(e ast.Expr) bool {
	s, ok := c.constString(e)
	return ok && sqlLimit.MatchString(stripSQLComments(s))
}

// preparedWithLimit reports whether e is a field every value of which, in
// the package, is made by a call with a limited constant statement (a
// prepared *sql.Stmt: stuckMessages: p.P(`… LIMIT 10 …`)).
func (c *checker) preparedWithLimit(e ast.Expr) bool {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	field, _ := c.pass.TypesInfo.ObjectOf(sel.Sel).(*types.Var)
	if field == nil || !field.IsField() || field.Pkg() != c.pass.Pkg {
		return false
	}
	if done, ok := c.preparedLimited[field]; ok {
		// Asked already, or being asked: a value made from the field itself
		// (WithTx's tx.Stmt(s.stuck)) keeps what the field holds.
		return done
	}
	c.preparedLimited[field] = true
	limited := c.fieldPreparedWithLimit(field)
	c.preparedLimited[field] = limited
	return limited
}

// fieldPreparedWithLimit answers preparedWithLimit for one field.
func (c *checker) fieldPreparedWithLimit(field *types.Var) bool {
	values, limited := 0, true
	var fd *ast.FuncDecl
	check := func(rhs ast.Expr) {
		values++
		made := []ast.Expr{rhs}
		if v := c.localVar(rhs); v != nil && fd != nil {
			made = c.assignmentsTo(fd, v) // stmt, _ := db.Prepare(…) then Store{stmt: stmt}
		}
		for _, e := range made {
			call, ok := ast.Unparen(e).(*ast.CallExpr)
			limited = limited && ok && c.limitedQuery(call)
		}
		limited = limited && len(made) > 0
	}
	for _, f := range c.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				fd = n
			case *ast.KeyValueExpr:
				if key, ok := n.Key.(*ast.Ident); ok && c.pass.TypesInfo.Uses[key] == field {
					check(n.Value)
				}
			case *ast.AssignStmt:
				for i, lhs := range n.Lhs {
					if s, ok := ast.Unparen(lhs).(*ast.SelectorExpr); ok && c.pass.TypesInfo.ObjectOf(s.Sel) == field && len(n.Rhs) == len(n.Lhs) {
						check(n.Rhs[i])
					}
				}
			}
			return limited
		})
	}
	return limited && values > 0
}
