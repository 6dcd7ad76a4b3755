package lazyssa

import (
	"flag"
	"fmt"
	"strconv"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// DefaultBudget is the most SSA instructions a function may have for the
// path-sensitive passes to analyse it. The largest function of the standard
// library has 2,778 (html's entity table; go/types' builtin has 2,308), so
// real code stays well below it; above it are machine-made functions, where
// walking every path from every acquisition could take minutes. See
// bench/ROBUSTNESS.md.
const DefaultBudget = 20000

// budgetFlag is the analyzer flag that sets the budget: -NAME.budget=N under
// go vet, -budget=N for bhlint.
const budgetFlag = "budget"

// Budgeted gives a, an analyzer that calls Fits, its -budget flag. It
// returns a.
func Budgeted(a *analysis.Analyzer) *analysis.Analyzer {
	a.Flags.Int(budgetFlag, DefaultBudget,
		"most SSA instructions in a function this analyzer analyses; larger ones are reported as skipped (0: no limit)")
	return a
}

// SkipCategory is the Category of the notice Fits reports: a function left
// unchecked is not a finding of the analyzer that skipped it, and carries
// none of the analyzers' codes. Drivers that know notices (the bhlint
// command, the LSP server) show it apart from the findings; go vet and
// golangci-lint, which do not, show it like a finding, so that a gate never
// passes code it did not check without saying so.
const SkipCategory = "skipped"

// Fits reports whether fn is small enough for the pass to analyse. If it is
// not, Fits reports a notice (SkipCategory) naming the function and the
// analyzer, so that a skipped function is seen rather than silently left
// unchecked; //bhlint:ignore with the analyzer's code on the function
// silences it. Ask it only of functions the pass would otherwise analyse,
// so that it reports nothing a user does not need. The second argument, the
// analyzer's diagnostic code, is not part of the notice.
func Fits(pass *analysis.Pass, _ string, fn *ssa.Function) bool {
	budget := budgetOf(pass.Analyzer)
	n := Size(fn)
	if budget <= 0 || n <= budget {
		return true
	}
	if fn.Pos().IsValid() {
		pass.Report(analysis.Diagnostic{
			Pos:      fn.Pos(),
			Category: SkipCategory,
			Message: fmt.Sprintf("skipped: function %s too large (%d instructions > budget %d): %s did not check it; "+
				"split it, or raise the budget with -budget=%d",
				fn.RelString(pass.Pkg), n, budget, pass.Analyzer.Name, n),
		})
	}
	return false
}

// HasLoop reports whether fn's control flow has a cycle: an edge to a block
// that dominates its source. It takes time linear in fn's size.
func HasLoop(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, s := range b.Succs {
			if s.Dominates(b) {
				return true
			}
		}
	}
	return false
}

// Size is the number of SSA instructions in fn's own body (not in the
// function literals it contains, which are functions of their own).
func Size(fn *ssa.Function) int {
	n := 0
	for _, b := range fn.Blocks {
		n += len(b.Instrs)
	}
	return n
}

func budgetOf(a *analysis.Analyzer) int {
	f := a.Flags.Lookup(budgetFlag)
	if f == nil {
		return DefaultBudget
	}
	if g, ok := f.Value.(flag.Getter); ok {
		if n, ok := g.Get().(int); ok {
			return n
		}
	}
	n, err := strconv.Atoi(f.Value.String())
	if err != nil {
		return DefaultBudget
	}
	return n
}
