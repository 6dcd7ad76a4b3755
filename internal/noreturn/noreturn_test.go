package noreturn_test

import (
	"go/types"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/bhlint/bhlint/internal/noreturn"
)

// The facts: functions that exit, panic or loop for ever on every path,
// through the package's other functions and imported ones' facts; and the
// look-alikes that return on some path, a literal's exit, a cycle of calls,
// a function value.
func TestFacts(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), noreturn.Analyzer, "exits", "callers")
}

// The result answers for imported functions as well as the package's own:
// the SSA builder asks it about every static callee.
func TestResultAnswersForImports(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), noreturn.Analyzer, "callers")
	for _, r := range results {
		if r.Pass.Pkg.Path() != "callers" {
			continue
		}
		res := r.Result.(*noreturn.Result)
		exits := importNamed(r.Pass, "exits")
		for name, want := range map[string]bool{"Fail": true, "Quit": true, "FailIf": false, "Later": false} {
			fn := exits.Scope().Lookup(name).(*types.Func)
			if got := res.NoReturn(fn); got != want {
				t.Errorf("NoReturn(exits.%s) = %t, want %t", name, got, want)
			}
		}
		stop := r.Pass.Pkg.Scope().Lookup("Stop").(*types.Func)
		if !res.NoReturn(stop) {
			t.Error("NoReturn(callers.Stop) = false, want true")
		}
		return
	}
	t.Fatal("no result for package callers")
}

func importNamed(pass *analysis.Pass, path string) *types.Package {
	for _, p := range pass.Pkg.Imports() {
		if p.Path() == path {
			return p
		}
	}
	panic("no import " + path)
}
