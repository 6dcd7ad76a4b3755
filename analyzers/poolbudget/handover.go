package poolbudget

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/bhlint/bhlint/internal/entrypoints"
)

// A main package hands its work to a framework as a function value: a
// command-line library's action (app.Action = server, &cli.App{Action:
// run}, cobra's RunE), which the framework calls once main has parsed the
// command line. The call is not in main's code, so it is not followed as
// one; the function named is. Its pools are that command's: when one
// command creates pools they count as main's; when several do
// (subcommands: serve, migrate), the command line chooses one of them and
// none is counted (checkMain).

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

// runHandedOver adds the pools of every function handed over, each
// marked as that function's command: checkMain keeps them when there is one
// command, and drops them when the command line chooses among several.
func (s *scanner) runHandedOver() {
	seen := map[*types.Func]bool{}
	for _, h := range s.handedOver {
		hs := s.c.summary(h.fn)
		if seen[h.fn] || hs == nil || len(hs.Pools) == 0 || hs.Truncated {
			continue
		}
		seen[h.fn] = true
		s.addHandedOver(h, hs)
	}
}

func (s *scanner) addHandedOver(h handed, sum *createsPools) {
	name := funcName(h.fn)
	for _, fp := range sum.Pools {
		p := fp
		p.Via = append([]string{name}, fp.Via...)
		p.named, p.anchor, p.Returned = false, h.pos, -1
		if p.DSN.Param >= 0 {
			p.DSN = noDSN() // the framework's arguments: not known
		}
		if p.Budget.State == FromParam {
			p.Budget = Budget{State: Unknown}
		}
		p.Budget = settle(p.Budget, p.DSN)
		if p.Command == "" {
			p.Command = name
		}
		s.add(&p)
	}
}

// A function literal stored in a framework's field (entrypoints.CommandField:
// cobra's RunE, an Action) is handed over the same way.

// commandAt names the innermost function literal, among the ancestors of
// the node being visited, that is stored in another module's field: "RunE
// at cli/server.go:30"; "" when there is none.
func (s *scanner) commandAt() string {
	if lit, field := entrypoints.CommandAt(s.c.pass, s.stack); lit != nil {
		return field.Name() + " at " + s.c.siteOf(lit.Pos())
	}
	return ""
}
