package entrypoints_test

import (
	"fmt"
	"go/types"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/entrypoints"
)

// reporter reports every entry point at its registration or go statement,
// as "class: how: function".
var reporter = &analysis.Analyzer{
	Name:     "entrypoints",
	Doc:      "reports entry points, for tests",
	Requires: []*analysis.Analyzer{buildssa.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		funcs := pass.ResultOf[buildssa.Analyzer].(*buildssa.SSA).SrcFuncs
		for _, e := range entrypoints.Find(pass.Pkg, funcs) {
			pass.Reportf(e.Pos, "%s: %s: %s", e.Class, e.How, name(e.Func))
		}
		return nil, nil
	},
}

func name(fn *ssa.Function) string {
	if obj, ok := fn.Object().(*types.Func); ok {
		return obj.FullName()
	}
	if fn.Parent() != nil {
		return "func literal in " + name(fn.Parent())
	}
	return fmt.Sprint(fn)
}

func TestFind(t *testing.T) {
	// The pocketbase router package registers its own dispatcher with
	// net/http: a framework's, not an entry point (no want there).
	analysistest.Run(t, analysistest.TestData(), reporter, "app", "github.com/pocketbase/pocketbase/tools/router")
}

// handlers reports the request handlers Handlers finds, at the function.
var handlers = &analysis.Analyzer{
	Name:     "handlers",
	Doc:      "reports unregistered request handlers, for tests",
	Requires: []*analysis.Analyzer{buildssa.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		funcs := pass.ResultOf[buildssa.Analyzer].(*buildssa.SSA).SrcFuncs
		for _, e := range entrypoints.Handlers(funcs) {
			pass.Reportf(e.Pos, "%s: %s", e.Class, e.How)
		}
		return nil, nil
	},
}

// TestHandlers: a function that takes a request and its response and that
// nothing calls directly is a handler wherever it is written (a factory's
// closure, a method of the project's own router type); one called by
// another handler, and one handed only the request, are not.
func TestHandlers(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), handlers, "ownroutes")
}
