package poolbudget

import (
	"go/ast"
	"go/token"
	"go/types"
)

// A main package hands its work to a framework as a function value: a
// command-line library's action (app.Action = server, &cli.App{Action:
// run}, cobra's RunE), which the framework calls once main has parsed the
// command line. The call is not in main's code, so it is not followed as
// one; the function named is. One function of main's package that creates
// pools and is handed over runs as main's work and its pools count; when
// several are (subcommands: serve, migrate), the command line chooses one
// of them and none is counted.

// handed is a function named as a value, and where.
type handed struct {
	fn  *types.Func
	pos token.Pos
}

// handOver notes a function of this main package that e names as a value,
// not in a call: e is id, or a selector (a method value) whose Sel is id.
func (s *scanner) handOver(e ast.Expr, id *ast.Ident, stack []ast.Node) {
	if s.c.pass.Pkg.Name() != "main" || len(stack) == 0 {
		return
	}
	fn, ok := s.c.pass.TypesInfo.Uses[id].(*types.Func)
	if !ok || fn.Pkg() != s.c.pass.Pkg || s.c.decls[fn] == nil {
		return
	}
	parent := stack[len(stack)-1]
	if sel, ok := parent.(*ast.SelectorExpr); ok && sel.Sel == id {
		return // seen at the selector
	}
	for i := len(stack) - 1; i >= 0; i-- {
		if paren, ok := stack[i].(*ast.ParenExpr); ok {
			e = paren // (f)(x) is a call too
			continue
		}
		if call, ok := stack[i].(*ast.CallExpr); ok && call.Fun == e {
			return // a call, followed as one
		}
		break
	}
	s.handedOver = append(s.handedOver, handed{fn: fn, pos: id.Pos()})
}

// runHandedOver adds the pools of the one function handed over that
// creates any.
func (s *scanner) runHandedOver() {
	var one *handed
	var sum *createsPools
	for i := range s.handedOver {
		h := &s.handedOver[i]
		hs := s.c.summary(h.fn)
		if hs == nil || len(hs.Pools) == 0 || hs.Truncated {
			continue
		}
		if one != nil && one.fn != h.fn {
			return // commands to choose among: none counted
		}
		one, sum = h, hs
	}
	if one == nil {
		return
	}
	name := funcName(one.fn)
	for _, fp := range sum.Pools {
		p := fp
		p.Via = append([]string{name}, fp.Via...)
		p.named, p.anchor, p.Returned = false, one.pos, -1
		if p.DSN.Param >= 0 {
			p.DSN = noDSN() // the framework's arguments: not known
		}
		if p.Budget.State == FromParam {
			p.Budget = Budget{State: Unknown}
		}
		p.Budget = settle(p.Budget, p.DSN)
		s.add(&p)
	}
}
