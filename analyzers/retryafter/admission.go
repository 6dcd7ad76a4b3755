package retryafter

import (
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// Refusal codes (catalog.GRPCRefusalCodes: Unavailable) are a shed only
// where the server refused the call itself for lack of capacity: the block
// that builds the status is reached only when an admission check failed —
// it is dominated by the failing edge of a branch on one. Unavailable built
// anywhere else reports a failure (a database error, a shard moving, the
// server draining, a downstream Unavailable passed on) and is left alone.

// isRefusalCode reports whether code ("gRPC Unavailable") is a shed only
// after a failed admission check.
func isRefusalCode(code string) bool {
	name, ok := strings.CutPrefix(code, "gRPC ")
	if !ok {
		return false
	}
	for _, c := range catalog.GRPCRefusalCodes {
		if c == name {
			return true
		}
	}
	return false
}

// refusalNote is the part of a message that names the failed admission check.
func refusalNote(refusal string) string {
	if refusal == "" {
		return ""
	}
	return " (a refusal for lack of capacity: " + refusal + ")"
}

// failedAdmission returns the admission check whose failure is the only way
// to reach b, described for a message, or "". It walks b's dominators and
// looks at each branch entered through one edge only.
func failedAdmission(b *ssa.BasicBlock) string {
	for n := b; n != nil; n = n.Idom() {
		if len(n.Preds) != 1 {
			continue
		}
		p := n.Preds[0]
		ifInstr, ok := p.Instrs[len(p.Instrs)-1].(*ssa.If)
		if !ok || len(p.Succs) != 2 || p.Succs[0] == p.Succs[1] {
			continue
		}
		if why := refusedWhen(ifInstr.Cond, p.Succs[0] == n); why != "" {
			return why
		}
	}
	return ""
}

// refusedWhen describes the admission check that cond's being taken (true)
// or not (false) means failed, or returns "".
func refusedWhen(cond ssa.Value, taken bool) string {
	switch c := cond.(type) {
	case *ssa.UnOp:
		if c.Op == token.NOT {
			return refusedWhen(c.X, !taken)
		}
	case *ssa.Call:
		if name := grantCall(c); name != "" && !taken {
			return name + " returned false"
		}
		if name := rejectionMatch(c); name != "" && taken {
			return "the error is " + name
		}
	case *ssa.BinOp:
		return refusedCompare(c, taken)
	}
	return ""
}

// grantCall names the admission grant (catalog.AdmissionGrants) that call
// makes, or returns "".
func grantCall(call *ssa.Call) string {
	if fn := calledFunc(call.Common()); fn != nil && catalog.AdmissionGrants.Has(fn) {
		return shortName(fn)
	}
	return ""
}

// calledFunc is the function or interface method a call invokes.
func calledFunc(common *ssa.CallCommon) *types.Func {
	if common.IsInvoke() {
		return common.Method
	}
	if callee := common.StaticCallee(); callee != nil {
		return funcObject(callee)
	}
	return nil
}

// shortName is "Limiter.Allow" for a method, "pkg.F" for a function.
func shortName(fn *types.Func) string {
	if recv := fn.Signature().Recv(); recv != nil {
		if named := ssautil.NamedOf(recv.Type()); named != nil {
			return named.Obj().Name() + "." + fn.Name()
		}
	}
	if fn.Pkg() != nil {
		return fn.Pkg().Name() + "." + fn.Name()
	}
	return fn.Name()
}

// rejectionMatch names the runtime's rejection (catalog.AdmissionRejections)
// that errors.Is(err, ErrFull) tests for, or returns "".
func rejectionMatch(call *ssa.Call) string {
	fn := calledFunc(call.Common())
	args := call.Call.Args
	if fn == nil || catalog.Key(fn) != "errors.Is" || len(args) != 2 {
		return ""
	}
	return rejectionSentinel(args[1])
}

// rejectionSentinel names the catalogued rejection error v loads, or "".
func rejectionSentinel(v ssa.Value) string {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return ""
	}
	glob, ok := load.X.(*ssa.Global)
	if !ok {
		return ""
	}
	obj := glob.Object()
	if obj == nil || obj.Pkg() == nil || !catalog.AdmissionRejections[obj.Pkg().Path()+"."+obj.Name()] {
		return ""
	}
	return obj.Pkg().Name() + "." + obj.Name()
}

// refusedCompare handles the comparisons that are admission checks: a
// rate limiter's Wait error tested against nil, an error compared with a
// runtime's rejection, an in-flight count or a bounded channel's length
// compared with a limit, and the index of a non-blocking select that sends
// (its default branch: the channel was full).
func refusedCompare(c *ssa.BinOp, taken bool) string {
	switch c.Op {
	case token.EQL, token.NEQ:
		failedIfEqual := taken == (c.Op == token.EQL)
		for _, pair := range [2][2]ssa.Value{{c.X, c.Y}, {c.Y, c.X}} {
			x, y := pair[0], pair[1]
			if name := waitCall(x); name != "" && isNilConst(y) && !failedIfEqual {
				return name + " failed"
			}
			if name := rejectionSentinel(y); name != "" && failedIfEqual {
				return "the error is " + name
			}
			if sel := sendSelect(x); sel != nil && !failedIfEqual && isLastState(sel, y) {
				return "the select's default branch: the channel send would block"
			}
		}
	case token.GTR, token.GEQ, token.LSS, token.LEQ:
		over := c.Op == token.GTR || c.Op == token.GEQ // X over Y when taken
		if name := counter(c.X); name != "" && taken == over {
			return name + " is at its limit"
		}
		if name := counter(c.Y); name != "" && taken != over {
			return name + " is at its limit"
		}
	}
	return ""
}

// waitCall names the admission wait (catalog.AdmissionWaits) whose error v
// is, or returns "".
func waitCall(v ssa.Value) string {
	var call *ssa.Call
	switch v := v.(type) {
	case *ssa.Call:
		call = v
	case *ssa.Extract:
		call, _ = v.Tuple.(*ssa.Call)
	}
	if call == nil {
		return ""
	}
	if fn := calledFunc(call.Common()); fn != nil && catalog.AdmissionWaits.Has(fn) {
		return shortName(fn)
	}
	return ""
}

func isNilConst(v ssa.Value) bool {
	k, ok := v.(*ssa.Const)
	return ok && k.IsNil()
}

// sendSelect returns the non-blocking select with a send among its cases
// whose chosen index v is.
func sendSelect(v ssa.Value) *ssa.Select {
	ex, ok := v.(*ssa.Extract)
	if !ok || ex.Index != 0 {
		return nil
	}
	sel, ok := ex.Tuple.(*ssa.Select)
	if !ok || sel.Blocking || !slices.ContainsFunc(sel.States, func(s *ssa.SelectState) bool { return s.Dir == types.SendOnly }) {
		return nil
	}
	return sel
}

// isLastState reports whether v is the index of sel's last case: the branch
// taken when it is not that either is the default.
func isLastState(sel *ssa.Select, v ssa.Value) bool {
	k, ok := v.(*ssa.Const)
	return ok && k.Value != nil && k.Int64() == int64(len(sel.States)-1)
}

// counter names the in-flight count v holds, or returns "": the result of an
// atomic add (atomic.AddInt64(&n, 1), n.Add(1)), an atomic or plain load of a
// field or variable named for work under way (catalog.InflightWords), or the
// length of a channel.
func counter(v ssa.Value) string {
	switch v := v.(type) {
	case *ssa.Convert:
		return counter(v.X)
	case *ssa.Call:
		common := v.Common()
		if b, ok := common.Value.(*ssa.Builtin); ok && b.Name() == "len" && len(common.Args) == 1 {
			if _, isChan := common.Args[0].Type().Underlying().(*types.Chan); isChan {
				return "the channel's length"
			}
			return ""
		}
		fn := calledFunc(common)
		if fn == nil || !catalog.AtomicCounters.Has(fn) || len(common.Args) == 0 {
			return ""
		}
		name := addressName(common.Args[0])
		if strings.Contains(fn.Name(), "Add") {
			if name == "" {
				name = "the counter"
			}
			return name
		}
		if inflightName(name) {
			return name
		}
	case *ssa.UnOp:
		if name := addressName(v.X); v.Op == token.MUL && inflightName(name) {
			return name
		}
	}
	return ""
}

// addressName is the name of the field or package variable addr points to.
func addressName(addr ssa.Value) string {
	switch a := addr.(type) {
	case *ssa.FieldAddr:
		return ssautil.FieldName(a)
	case *ssa.Global:
		return a.Name()
	}
	return ""
}

func inflightName(name string) bool {
	name = strings.ToLower(name)
	return name != "" && slices.ContainsFunc(catalog.InflightWords, func(w string) bool { return strings.Contains(name, w) })
}
