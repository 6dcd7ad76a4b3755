package retrystorm

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"math"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// retryPolicy is what a retry library's call was told by its options or
// the backoff value it was handed.
type retryPolicy struct {
	forever    bool      // UntilSucceeded, Attempts(0), a constant backoff nothing bounds
	constantAt token.Pos // what makes the delay constant (DelayType(FixedDelay), NewConstantBackOff), or NoPos
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
			if r, ok := catalog.BackoffRunners[catalog.Key(callee)]; ok {
				c.judgeBackoff(call, r)
				continue
			}
			if i, ok := catalog.RetryCountSetters[catalog.Key(callee)]; ok && i < len(call.Common().Args) {
				if countWithoutBound(call.Common().Args[i]) {
					c.reportPolicy(call, "every request the client sends", true, retryPolicy{forever: true})
				}
				continue
			}
			if catalog.RetryInterceptors.Has(callee) && len(call.Common().Args) > 0 {
				c.judgeInterceptor(call, policyOf(call.Common().Args[0]))
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

// countWithoutBound reports whether a retry count is a constant at or
// above the largest int32: no outage outlasts that many attempts, so the
// client retries until the request succeeds.
func countWithoutBound(v ssa.Value) bool {
	k, ok := v.(*ssa.Const)
	if !ok || k.Value == nil || k.Value.Kind() != constant.Int {
		return false
	}
	return constant.Compare(k.Value, token.GEQ, constant.MakeInt64(math.MaxInt32))
}

func (c *checker) judgePolicy(call *ssa.Call, retried ssa.Value, p retryPolicy) {
	var network []string
	if f := ssautil.FuncOf(retried); f != nil {
		network = c.net.FuncReaches(f)
	}
	what := "the function it is handed"
	if len(network) > 0 {
		what += " (a network call: → " + strings.Join(network, " → ") + ")"
	}
	c.reportPolicy(call, what, network != nil, p)
}

// judgeInterceptor judges a retrying client interceptor: what it retries
// is every RPC of its connection, a network call.
func (c *checker) judgeInterceptor(call *ssa.Call, p retryPolicy) {
	c.reportPolicy(call, "every RPC of the connection it is installed on", true, p)
}

// reportPolicy reports a policy that never gives up, or that waits a
// constant time between attempts at the network.
func (c *checker) reportPolicy(call *ssa.Call, what string, network bool, p retryPolicy) {
	var problems []string
	if p.forever {
		problems = append(problems, "with no bound on attempts")
	}
	if p.constantAt.IsValid() && network {
		problems = append(problems, "waiting a constant time between attempts with no backoff or jitter")
	}
	if len(problems) == 0 {
		return
	}
	d := analysis.Diagnostic{
		Pos: call.Pos(),
		Message: fmt.Sprintf("%s: this %s retries %s %s; bound the attempts (e.g. 3) and keep the library's "+
			"default delay, backoff with jitter, so callers do not retry in step", Code, calleeName(call), what, strings.Join(problems, ", ")),
	}
	if p.constantAt.IsValid() {
		d.Related = []analysis.RelatedInformation{{Pos: p.constantAt, Message: "the constant delay"}}
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
				p.constantAt = call.Pos()
			}
		}
		if made, ok := args[0].(*ssa.Call); ok { // WithBackoff(BackoffLinear(d))
			if maker := calleeFunc(made.Common()); maker != nil && catalog.RetryConstantDelays.Has(maker) {
				p.constantAt = call.Pos()
			}
		}
	}
}

// judgeBackoff judges a call of a BackoffRunner by the backoff value it is
// handed. A context the runner watches (go-retry's Do) is a way out, as a
// context check is in a loop; one that ends by itself (WithTimeout) makes
// a known, small number of attempts, so a constant delay is not reported
// either, as for a loop that gives up at a deadline.
func (c *checker) judgeBackoff(call *ssa.Call, r catalog.BackoffRunner) {
	args := call.Common().Args
	if r.Func >= len(args) {
		return
	}
	p := retryPolicy{forever: true, constantAt: call.Pos()}
	if !r.Constant {
		var known bool
		if r.Policy < 0 || r.Policy >= len(args) {
			return
		}
		if p, known = c.backoffPolicyOf(args[r.Policy], 0); !known {
			return
		}
	}
	if r.Context >= 0 && r.Context < len(args) {
		p = c.watches(p, args[r.Context])
	}
	c.judgePolicy(call, args[r.Func], p)
}

// maxBackoffDepth bounds the wrappers backoffPolicyOf looks through.
const maxBackoffDepth = 8

// backoffPolicyOf reads a backoff value: one a constant constructor or
// literal made (NewConstantBackOff(d), &backoff.ConstantBackOff{…}), through
// the catalogue's wrappers (WithMaxRetries bounds it, WithJitter makes it
// vary, WithMaxDuration gives up at a deadline). It reports false for a
// value it cannot read (an exponential policy, a parameter, a field): that
// is taken to bound and to back off.
func (c *checker) backoffPolicyOf(v ssa.Value, depth int) (retryPolicy, bool) {
	if depth > maxBackoffDepth {
		return retryPolicy{}, false
	}
	// SameValue: a constant backoff handed on as a BackOff, or WithContext's
	// BackOffContext handed on as one.
	switch v := ssautil.SameValue(v).(type) {
	case *ssa.UnOp:
		if alloc, ok := v.X.(*ssa.Alloc); ok && v.Op == token.MUL {
			if stored := ssautil.StoredOnce(alloc); stored != nil {
				return c.backoffPolicyOf(stored, depth+1)
			}
		}
	case *ssa.Alloc:
		if catalog.ConstantBackoffTypes[catalog.TypeKey(v.Type())] {
			return retryPolicy{forever: true, constantAt: v.Pos()}, true
		}
	case *ssa.Call:
		return c.wrappedPolicy(v, depth)
	}
	return retryPolicy{}, false
}

// wrappedPolicy reads a call that makes a backoff value: a constant
// constructor, or a wrapper of another value.
func (c *checker) wrappedPolicy(call *ssa.Call, depth int) (retryPolicy, bool) {
	fn := calleeFunc(call.Common())
	if fn == nil {
		return retryPolicy{}, false
	}
	if catalog.ConstantBackoffs.Has(fn) {
		return retryPolicy{forever: true, constantAt: call.Pos()}, true
	}
	w, ok := catalog.BackoffWrappers[catalog.Key(fn)]
	args := call.Common().Args
	if !ok || w.Arg >= len(args) {
		return retryPolicy{}, false
	}
	p, known := c.backoffPolicyOf(args[w.Arg], depth+1)
	if !known {
		return p, false
	}
	switch {
	case w.Bounds:
		p.forever = false
	case w.Deadline:
		p = retryPolicy{}
	case w.Jitter:
		p.constantAt = token.NoPos
	}
	if w.Context >= 0 && w.Context < len(args) {
		p = c.watches(p, args[w.Context])
	}
	return p, true
}

// watches is p run under ctx: it ends when ctx does, and when ctx ends by
// itself the delay no longer matters.
func (c *checker) watches(p retryPolicy, ctx ssa.Value) retryPolicy {
	p.forever = false
	if c.carriesDeadline(ctx, 0) {
		p.constantAt = token.NoPos
	}
	return p
}

// checkPolicyStructs judges the retry policies written as struct literals
// (catalog.RetryPolicyStructs: watermill's middleware.Retry{…}). A literal
// whose growth factor is at most 1 and whose jitter is 0, with no deadline
// set, retries in step: reported at the literal. A field set from
// something other than a constant (configuration) is taken to back off.
func (c *checker) checkPolicyStructs() {
	for _, f := range c.pass.Files {
		if strings.HasSuffix(c.pass.Fset.Position(f.Pos()).Filename, "_test.go") {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok {
				return true
			}
			spec, ok := catalog.RetryPolicyStructs[catalog.TypeKey(c.pass.TypesInfo.TypeOf(lit))]
			if ok && c.stepsInLockstep(lit, spec) {
				c.pass.Report(analysis.Diagnostic{
					Pos: lit.Pos(),
					Message: fmt.Sprintf("%s: this %s retries %s waiting a constant time between attempts with no backoff or jitter "+
						"(%s %s, %s %s); set %s above 1 and %s above 0 (e.g. 2 and 0.5), so instances do not retry in step",
						Code, types.TypeString(c.pass.TypesInfo.TypeOf(lit), types.RelativeTo(nil)), spec.Retried,
						spec.Growth, c.fieldText(lit, spec.Growth), spec.Jitter, c.fieldText(lit, spec.Jitter), spec.Growth, spec.Jitter),
				})
			}
			return true
		})
	}
}

// stepsInLockstep reports whether lit sets no growth above 1, no jitter and
// no deadline, each by a constant or by leaving it out.
func (c *checker) stepsInLockstep(lit *ast.CompositeLit, spec catalog.RetryPolicyStruct) bool {
	if len(lit.Elts) > 0 {
		if _, keyed := lit.Elts[0].(*ast.KeyValueExpr); !keyed {
			return false // fields by position: not read
		}
	}
	atMost := func(field string, limit float64) bool {
		e := fieldValue(lit, field)
		if e == nil {
			return true // the zero value
		}
		tv, ok := c.pass.TypesInfo.Types[e]
		if !ok || tv.Value == nil {
			return false
		}
		f, _ := constant.Float64Val(constant.ToFloat(tv.Value))
		return f <= limit
	}
	return atMost(spec.Growth, 1) && atMost(spec.Jitter, 0) && atMost(spec.Deadline, 0)
}

// fieldText is how lit sets field, for the message: "unset" when it does not.
func (c *checker) fieldText(lit *ast.CompositeLit, field string) string {
	e := fieldValue(lit, field)
	if e == nil {
		return "unset"
	}
	return "= " + types.ExprString(e)
}

// fieldValue is the expression lit gives field by name, or nil.
func fieldValue(lit *ast.CompositeLit, field string) ast.Expr {
	for _, elt := range lit.Elts {
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok && id.Name == field {
				return kv.Value
			}
		}
	}
	return nil
}
