package retryafter

import (
	"fmt"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/catalog"
)

// A helper that answers for an error it is passed (errutil.HTTPError(ctx,
// w, err)) and picks the 429 or 503 from that error's identity —
// errors.Is(err, ctxlock.ErrQueueFull), err == ErrBusy, errors.As(err,
// &limitErr), a type switch, a predicate of the error alone — writes the
// shed only for the errors that can be that one; most of its callers pass
// errors that never are (a parse error, a permission error). The shed is
// decided in the helper, and the header belongs beside its write: it is
// reported there, once, and the helper exports no WritesStatus fact for that
// write, so no call of it is reported for it.

// writeGuard describes the test of fn's error parameter that the shed
// status of w is written under ("its error is ctxlock.ErrQueueFull"), or
// returns "". A status chosen in a variable (status = 429 under the test,
// written after the branches join) is guarded when every edge of the
// written phi that brings a shed comes from a guarded block.
func writeGuard(fn *ssa.Function, w statusWrite) string {
	if w.call == nil || w.returns != nil {
		return ""
	}
	b := w.call.Block()
	phi, ok := w.status.(*ssa.Phi)
	if !ok || phi.Block() != b {
		return errorIdentityGuard(fn, b)
	}
	guard := ""
	for k, e := range phi.Edges {
		if shedStatus(e, map[ssa.Value]bool{}) == "" {
			continue
		}
		g := errorIdentityGuard(fn, b.Preds[k])
		if g == "" {
			return ""
		}
		guard = g
	}
	return guard
}

// errorIdentityGuard describes the test of fn's error parameter whose
// passing is the only way to reach b, or returns "". It walks b's
// dominators and looks at each branch entered through one edge only.
func errorIdentityGuard(fn *ssa.Function, b *ssa.BasicBlock) string {
	for n := b; n != nil; n = n.Idom() {
		if len(n.Preds) != 1 {
			continue
		}
		p := n.Preds[0]
		cond, ok := p.Instrs[len(p.Instrs)-1].(*ssa.If)
		if !ok || len(p.Succs) != 2 || p.Succs[0] == p.Succs[1] {
			continue
		}
		if what := identityTest(fn, cond.Cond, p.Succs[0] == n); what != "" {
			return what
		}
	}
	return ""
}

// identityTest describes what cond's being taken (true) or not (false)
// says of the identity of fn's error parameter, when it says the error is
// one particular error, type or class; "" otherwise (the false edge of
// errors.Is says only what the error is not).
func identityTest(fn *ssa.Function, cond ssa.Value, taken bool) string {
	switch c := cond.(type) {
	case *ssa.UnOp:
		if c.Op == token.NOT {
			return identityTest(fn, c.X, !taken)
		}
	case *ssa.BinOp:
		if (c.Op != token.EQL && c.Op != token.NEQ) || taken != (c.Op == token.EQL) {
			return ""
		}
		for _, pair := range [2][2]ssa.Value{{c.X, c.Y}, {c.Y, c.X}} {
			if fromErrorParam(fn, pair[0], map[ssa.Value]bool{}) {
				if name := sentinelName(pair[1]); name != "" {
					return "its error is " + name
				}
			}
		}
	case *ssa.Extract: // e, ok := err.(*LimitError); a type switch's case
		ta, ok := c.Tuple.(*ssa.TypeAssert)
		if ok && taken && c.Index == 1 && fromErrorParam(fn, ta.X, map[ssa.Value]bool{}) {
			return "its error is a " + typeName(ta.AssertedType)
		}
	case *ssa.Call:
		if taken {
			return errorPredicate(fn, c)
		}
	}
	return ""
}

// errorPredicate describes a call that tests fn's error parameter alone:
// errors.Is(err, ErrQueueFull), errors.As(err, &target), or a function of
// the error (and constants or package variables) returning a bool.
func errorPredicate(fn *ssa.Function, call *ssa.Call) string {
	callee := calledFunc(call.Common())
	args := call.Call.Args
	if callee == nil || call.Call.IsInvoke() || len(args) == 0 || !fromErrorParam(fn, args[0], map[ssa.Value]bool{}) {
		return ""
	}
	switch catalog.Key(callee) {
	case "errors.Is":
		if name := sentinelName(args[1]); name != "" {
			return "its error is " + name
		}
		return ""
	case "errors.As":
		if mi, ok := args[1].(*ssa.MakeInterface); ok {
			if ptr, ok := mi.X.Type().Underlying().(*types.Pointer); ok {
				return "its error is a " + typeName(ptr.Elem())
			}
		}
		return ""
	}
	for _, a := range args[1:] {
		if _, isConst := a.(*ssa.Const); !isConst && sentinelName(a) == "" {
			return ""
		}
	}
	return "its error passes " + shortName(callee)
}

// fromErrorParam reports whether v is fn's error parameter, or an error
// computed from it alone: converted, or mapped by a call that takes it
// (err = MapDBError(err)), which is taken to keep the identities it does
// not know.
func fromErrorParam(fn *ssa.Function, v ssa.Value, seen map[ssa.Value]bool) bool {
	if seen[v] {
		return false
	}
	seen[v] = true
	switch v := v.(type) {
	case *ssa.Parameter:
		return v.Parent() == fn && types.IsInterface(v.Type()) && types.Implements(v.Type(), errorType)
	case *ssa.ChangeInterface:
		return fromErrorParam(fn, v.X, seen)
	case *ssa.MakeInterface:
		return fromErrorParam(fn, v.X, seen)
	case *ssa.Call:
		res := v.Call.Signature().Results()
		if v.Call.StaticCallee() == nil || res.Len() != 1 || !types.Implements(res.At(0).Type(), errorType) {
			return false
		}
		for _, a := range v.Call.Args {
			if fromErrorParam(fn, a, seen) {
				return true
			}
		}
	}
	return false
}

// takesError reports whether fn has an error parameter, the only kind
// whose identity can guard a write (fromErrorParam).
func takesError(fn *ssa.Function) bool {
	for _, p := range fn.Params {
		if types.IsInterface(p.Type()) && types.Implements(p.Type(), errorType) {
			return true
		}
	}
	return false
}

// sentinelName names the package-level variable v loads (ctxlock.ErrQueueFull),
// or returns "".
func sentinelName(v ssa.Value) string {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return ""
	}
	glob, ok := load.X.(*ssa.Global)
	if !ok || glob.Object() == nil || glob.Object().Pkg() == nil {
		return ""
	}
	return glob.Object().Pkg().Name() + "." + glob.Name()
}

func typeName(t types.Type) string {
	return types.TypeString(t, func(p *types.Package) string { return p.Name() })
}

// checkErrorHelper reports the sheds that fn, a helper that takes the
// ResponseWriter but is not a handler, writes under a test of its error
// parameter's identity: they are its decision, not its callers'.
func (c *checker) checkErrorHelper(fn *ssa.Function) {
	if isProbe(fn) || inTestFile(c.pass, fn) {
		return
	}
	c.eachUnsetWrite(fn, func(w statusWrite, status string) {
		if status == "" {
			return
		}
		guard := writeGuard(fn, w)
		if guard == "" {
			return
		}
		pos := c.callStart(w.call.Pos())
		if !pos.IsValid() {
			return
		}
		c.pass.Report(analysis.Diagnostic{
			Pos: pos,
			Message: fmt.Sprintf("%s: %s writes %s when %s, on a path where Retry-After was not set; set w.Header().Set(\"Retry-After\", \"5\") before writing it, so clients wait before retrying instead of retrying at once (the helper chooses the status from the error, so its calls are not reported)",
				Code, funcName(fn), status, guard),
			SuggestedFixes: c.retryAfterFix(pos),
		})
	})
}
