package retryafter

import (
	"fmt"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/ssautil"
)

// A status decided in one function and written by another: a function
// returns the response status as a value (CompileAndPublish(…) (*Item, int,
// error) returning http.StatusTooManyRequests when the build limit is
// reached) and the handler that called it writes that result
// (HandleError(c, code, err)). The refusal is decided at the return, so it
// is reported there when the callee is in the handler's package; a callee of
// another package is known by its ReturnsShedStatus fact, and the write is
// reported, naming it.

// ReturnsShedStatus marks a function whose integer result Result is a 429
// or 503 on some return, Shed; OnError when every such return also returns
// a non-nil error as the last result.
type ReturnsShedStatus struct {
	Result  int
	Shed    string
	OnError bool
}

// AFact marks ReturnsShedStatus as an analysis fact.
func (*ReturnsShedStatus) AFact() {}

func (f *ReturnsShedStatus) String() string {
	return fmt.Sprintf("returnsShedStatus(result %d: %s)", f.Result, f.Shed)
}

// shedReturn is a return of a shed status as a function's result.
type shedReturn struct {
	pos    token.Pos // the return statement, NoPos for a callee of another package
	status string
	callee *ssa.Function
}

// shedReturns returns where the callee of call returns a shed status as its
// result index, which the caller writes in block write. A callee that sets
// Retry-After itself returns nothing here, and a shed returned with an
// error is left out where the write is reached only when the call's error
// was nil (code, err := f(); if err != nil {…; return}; c.JSON(code, …)).
func (c *checker) shedReturns(call *ssa.Call, index int, write *ssa.BasicBlock) []shedReturn {
	errNil := reachedOnNilError(call, write)
	callee := call.Call.StaticCallee()
	if callee == nil {
		return nil
	}
	callee = origin(callee)
	if obj := funcObject(callee); obj != nil && obj.Pkg() != nil && obj.Pkg() != c.pass.Pkg {
		var f ReturnsShedStatus
		if c.pass.ImportObjectFact(obj, &f) && f.Result == index && !(errNil && f.OnError) {
			return []shedReturn{{status: f.Shed, callee: callee}}
		}
		return nil
	}
	if c.setsRetryAfter(callee) {
		return nil
	}
	var out []shedReturn
	for _, ret := range returnsOf(callee) {
		if index >= len(ret.Results) || !isInteger(ret.Results[index].Type()) {
			return nil
		}
		if errNil && returnsError(callee) && !ssautil.IsNil(ret.Results[len(ret.Results)-1]) {
			continue
		}
		if s := shedStatus(ret.Results[index], map[ssa.Value]bool{}); s != "" && ret.Pos().IsValid() {
			out = append(out, shedReturn{pos: ret.Pos(), status: s, callee: callee})
		}
	}
	return out
}

// exportReturnsShed exports fn's ReturnsShedStatus fact: the first integer
// result that some return sets to a shed status constant. An error type's
// status method is not one: the error carries the status (CarriesShed).
func (c *checker) exportReturnsShed(fn *ssa.Function, obj *types.Func) {
	if fn.Parent() != nil || len(fn.Blocks) == 0 || statusMethodOf(fn) != nil || c.setsRetryAfter(fn) {
		return
	}
	var fact *ReturnsShedStatus
	for _, ret := range returnsOf(fn) {
		for i, v := range ret.Results {
			if !isInteger(v.Type()) || fact != nil && fact.Result != i {
				continue
			}
			if s := shedStatus(v, map[ssa.Value]bool{}); s != "" {
				onError := returnsError(fn) && !ssautil.IsNil(ret.Results[len(ret.Results)-1])
				if fact == nil {
					fact = &ReturnsShedStatus{Result: i, Shed: s, OnError: true}
				}
				fact.OnError = fact.OnError && onError
				break
			}
		}
	}
	if fact != nil {
		c.pass.ExportObjectFact(obj, fact)
	}
}

// reachedOnNilError reports whether block b is reached only on the branch
// where call's error result (its last) is nil.
func reachedOnNilError(call *ssa.Call, b *ssa.BasicBlock) bool {
	for n := b; n != nil; n = n.Idom() {
		if len(n.Preds) != 1 {
			continue
		}
		p := n.Preds[0]
		cond, ok := p.Instrs[len(p.Instrs)-1].(*ssa.If)
		if !ok || len(p.Succs) != 2 || p.Succs[0] == p.Succs[1] {
			continue
		}
		cmp, ok := cond.Cond.(*ssa.BinOp)
		if !ok || !comparesErrorWithNil(cmp, call) {
			continue
		}
		if (cmp.Op == token.NEQ) == (p.Succs[1] == n) {
			return true
		}
	}
	return false
}

// comparesErrorWithNil reports whether cmp is err != nil or err == nil for
// call's last result.
func comparesErrorWithNil(cmp *ssa.BinOp, call *ssa.Call) bool {
	if cmp.Op != token.NEQ && cmp.Op != token.EQL {
		return false
	}
	isErr := func(v ssa.Value) bool {
		ex, ok := v.(*ssa.Extract)
		return ok && ex.Tuple == call && ex.Index == call.Call.Signature().Results().Len()-1
	}
	return isErr(cmp.X) && ssautil.IsNil(cmp.Y) || isErr(cmp.Y) && ssautil.IsNil(cmp.X)
}

func returnsOf(fn *ssa.Function) []*ssa.Return {
	var out []*ssa.Return
	for _, b := range fn.Blocks {
		if len(b.Instrs) == 0 {
			continue
		}
		if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
			out = append(out, ret)
		}
	}
	return out
}

func isInteger(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

// statusResult returns the call and result index whose value a write
// writes, when the status is a call's result (code, err := decide(…)).
func statusResult(status ssa.Value) (*ssa.Call, int, bool) {
	switch v := status.(type) {
	case *ssa.Call: // status := decide(…)
		return v, 0, v.Call.Signature().Results().Len() == 1
	case *ssa.Extract:
		call, ok := v.Tuple.(*ssa.Call)
		return call, v.Index, ok
	}
	return nil, 0, false
}

// reportShedReturns reports a status decided in a callee and written by
// handler fn: at each return of the shed in this package, or at the write
// for a callee of another package.
func (c *checker) reportShedReturns(fn *ssa.Function, w statusWrite, set string) {
	write := c.callStart(w.call.Pos())
	for _, r := range w.returns {
		pos := r.pos
		related := []analysis.RelatedInformation{{Pos: write, Message: "the status is written here"}}
		if !pos.IsValid() {
			pos, related = write, nil
		}
		if !pos.IsValid() || c.reportedAt[pos] {
			continue
		}
		c.reportedAt[pos] = true
		c.pass.Report(analysis.Diagnostic{
			Pos: pos,
			Message: fmt.Sprintf("%s: %s returns %s as the status that %s writes on a path where Retry-After was not set; set %s before writing it, so clients wait before retrying instead of retrying at once",
				Code, funcName(r.callee), r.status, handlerName(fn), set),
			Related: related,
		})
	}
}
