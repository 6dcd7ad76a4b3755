// Package ssautil holds the small SSA and position helpers that several
// bhlint analyzers need, so each does not keep its own copy.
package ssautil

import (
	"go/ast"
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// Origin returns the generic function an instantiation was made from, or fn
// itself: facts and tables are keyed on the origin.
func Origin(fn *ssa.Function) *ssa.Function {
	if o := fn.Origin(); o != nil {
		return o
	}
	return fn
}

// CallStarts maps the Lparen position SSA records for a call to the start
// of the call expression, where a user expects a finding. The zero value is
// ready; the map is built on first use.
type CallStarts struct {
	starts map[token.Pos]token.Pos
}

// Start returns the start of the call whose Lparen is at lparen, or lparen
// when no call of files has it.
func (c *CallStarts) Start(files []*ast.File, lparen token.Pos) token.Pos {
	if c.starts == nil {
		c.starts = map[token.Pos]token.Pos{}
		for _, f := range files {
			ast.Inspect(f, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok {
					c.starts[call.Lparen] = call.Pos()
				}
				return true
			})
		}
	}
	if start, ok := c.starts[lparen]; ok {
		return start
	}
	return lparen
}
