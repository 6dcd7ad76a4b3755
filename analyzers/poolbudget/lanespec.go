package poolbudget

import (
	"fmt"
	"go/ast"
	"go/types"

	"github.com/bhlint/bhlint/internal/catalog"
)

// laneLimit marks a lane type's Spec method that returns a LaneSpec with a
// constant MaxConcurrent: how many calls the lane's executor runs at once,
// in each process.
type laneLimit struct{ MaxConcurrent int }

func (*laneLimit) AFact()           {}
func (f *laneLimit) String() string { return fmt.Sprintf("laneLimit(%d)", f.MaxConcurrent) }

// specLimit is the MaxConcurrent a Spec method returns, when every return
// of its body is a literal with the same constant one.
func (c *checker) specLimit(fd *ast.FuncDecl) (int, bool) {
	if fd.Recv == nil || fd.Name.Name != catalog.LaneSpecMethod || fd.Body == nil {
		return 0, false
	}
	n, found, ok := 0, false, true
	ast.Inspect(fd.Body, func(x ast.Node) bool {
		if _, lit := x.(*ast.FuncLit); lit || !ok {
			return false
		}
		ret, isRet := x.(*ast.ReturnStmt)
		if !isRet {
			return true
		}
		lit := compositeLit(ast.Unparen(singleResult(ret)))
		if lit == nil {
			ok = false
			return false
		}
		v, isConst := constInt(c.pass.TypesInfo, fieldsOf(lit)[catalog.LaneSpecLimit])
		if !isConst || found && v != n {
			ok = false
			return false
		}
		n, found = v, true
		return true
	})
	return n, found && ok
}

func singleResult(ret *ast.ReturnStmt) ast.Expr {
	if len(ret.Results) != 1 {
		return nil
	}
	return ret.Results[0]
}

// laneLimitOf is the budget an executor of lane type lane has: its Spec's
// MaxConcurrent, from this package's code or from a fact.
func (c *checker) laneLimitOf(lane *types.Named) Budget {
	obj, _, _ := types.LookupFieldOrMethod(lane, true, lane.Obj().Pkg(), catalog.LaneSpecMethod)
	fn, ok := obj.(*types.Func)
	if !ok {
		return Budget{State: Unknown}
	}
	if fn.Pkg() == c.pass.Pkg {
		if fd := c.decls[fn]; fd != nil {
			if n, ok := c.specLimit(fd); ok {
				return budgetOf(n, catalog.UnsetRequired)
			}
		}
		return Budget{State: Unknown}
	}
	var f laneLimit
	if c.pass.ImportObjectFact(fn, &f) {
		return budgetOf(f.MaxConcurrent, catalog.UnsetRequired)
	}
	return Budget{State: Unknown}
}

// exportLaneLimits exports the MaxConcurrent of this package's lane types,
// for the executors main creates.
func (c *checker) exportLaneLimits() {
	for fn, fd := range c.decls {
		if n, ok := c.specLimit(fd); ok {
			c.pass.ExportObjectFact(fn, &laneLimit{MaxConcurrent: n})
		}
	}
}
