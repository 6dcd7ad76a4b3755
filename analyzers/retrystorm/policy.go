package retrystorm

import (
	"fmt"
	"go/constant"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// retryPolicy is what a retry library's call was told by its options.
type retryPolicy struct {
	forever  bool                // UntilSucceeded, or Attempts(0)
	constant ssa.CallInstruction // the option that makes the delay constant (DelayType(FixedDelay)), or nil
}

// checkPolicies judges the calls of a retry library in fn as checkLoops
// judges a loop: the library runs the loop, its options say how. A policy
// that never gives up, or that waits a constant time between attempts at a
// function that reaches the network, is reported at the call. Options the
// analysis cannot read (a slice from elsewhere, a delay function of the
// program's own) are taken to bound and to back off.
func (c *checker) checkPolicies(fn *ssa.Function) {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			callee := calleeFunc(call.Common())
			if callee == nil {
				continue
			}
			i, ok := catalog.RetryRunners[catalog.Key(callee)]
			if !ok || i+1 >= len(call.Common().Args) {
				continue
			}
			c.judgePolicy(call, call.Common().Args[i], policyOf(call.Common().Args[i+1]))
		}
	}
}

func (c *checker) judgePolicy(call *ssa.Call, retried ssa.Value, p retryPolicy) {
	var network []string
	if f := ssautil.FuncOf(retried); f != nil {
		network = c.net.FuncReaches(f)
	}
	var problems []string
	if p.forever {
		problems = append(problems, "with no bound on attempts")
	}
	if p.constant != nil && network != nil {
		problems = append(problems, "waiting a constant time between attempts with no backoff or jitter")
	}
	if len(problems) == 0 {
		return
	}
	reaches := ""
	if len(network) > 0 {
		reaches = " (a network call: → " + strings.Join(network, " → ") + ")"
	}
	d := analysis.Diagnostic{
		Pos: call.Pos(),
		Message: fmt.Sprintf("%s: this %s retries the function it is handed%s %s; bound the attempts (e.g. 3) and keep the library's "+
			"default delay, exponential backoff with jitter, so callers do not retry in step", Code, calleeName(call), reaches, strings.Join(problems, ", ")),
	}
	if p.constant != nil {
		d.Related = []analysis.RelatedInformation{{Pos: p.constant.Pos(), Message: "the constant delay"}}
	}
	c.pass.Report(d)
}

func calleeName(call *ssa.Call) string {
	if fn := calleeFunc(call.Common()); fn != nil && fn.Pkg() != nil {
		return fn.Pkg().Name() + "." + fn.Name() + " call"
	}
	return "call"
}

// policyOf reads the options handed to a retry call: the variadic slice,
// written out at the call or built by append into a local slice.
func policyOf(opts ssa.Value) retryPolicy {
	var p retryPolicy
	seen := map[ssa.Value]bool{}
	var walk func(v ssa.Value)
	walk = func(v ssa.Value) {
		if v == nil || seen[v] {
			return
		}
		seen[v] = true
		switch v := v.(type) {
		case *ssa.Slice:
			walk(v.X)
		case *ssa.Alloc:
			for _, opt := range ssautil.StoredElements(v) {
				p.add(opt)
			}
		case *ssa.Phi:
			for _, e := range v.Edges {
				walk(e)
			}
		case *ssa.Call:
			if b, ok := v.Common().Value.(*ssa.Builtin); ok && b.Name() == "append" {
				for _, a := range v.Common().Args {
					walk(a)
				}
			}
		}
	}
	walk(opts)
	return p
}

// add records what one option sets.
func (p *retryPolicy) add(opt ssa.Value) {
	call, ok := opt.(*ssa.Call)
	if !ok {
		return
	}
	fn := calleeFunc(call.Common())
	if fn == nil {
		return
	}
	args := call.Common().Args
	switch {
	case catalog.RetryForeverOptions.Has(fn):
		p.forever = true
	case catalog.RetryAttemptOptions.Has(fn) && len(args) == 1:
		if k, ok := args[0].(*ssa.Const); ok && k.Value != nil && k.Value.Kind() == constant.Int && constant.Sign(k.Value) == 0 {
			p.forever = true
		}
	case catalog.RetryDelayTypeOptions.Has(fn) && len(args) == 1:
		if f := ssautil.FuncOf(args[0]); f != nil {
			if obj, ok := f.Object().(*types.Func); ok && catalog.RetryConstantDelays.Has(obj) {
				p.constant = call
			}
		}
	}
}
