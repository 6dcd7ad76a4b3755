package retrystorm

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/ssautil"
)

// errorStatusRetry returns the call whose response status cond compares
// with an HTTP error status (resp.StatusCode == 503, resty's
// resp.StatusCode() == 429), the index of the successor taken when it
// matches, and the status: a loop that goes round on that branch sends the failed request
// again, whether or not the call also returns an error (it returns the
// transport's failure; the server's refusal comes back as a status). 404 is
// left out: a loop that waits for a resource to appear polls for it, it
// does not repeat a failure.
func errorStatusRetry(cond ssa.Value) (*ssa.Call, int, int64) {
	status, n, op := comparedWithInt(cond)
	if status == nil || n < 400 || n > 599 || n == 404 {
		return nil, 0, 0
	}
	call := statusOfResult(status)
	if call == nil {
		return nil, 0, 0
	}
	if op == token.EQL {
		return call, 0, n
	}
	return call, 1, n
}

// when says on what the loop goes round: the call's failure, or the
// server's refusal.
func (r *retry) when() string {
	if r.refusal != 0 {
		return fmt.Sprintf("when the server answers %d", r.refusal)
	}
	return "when it fails"
}

// comparedWithInt splits x == n or x != n, n an integer constant on either
// side; x is nil for any other condition.
func comparedWithInt(cond ssa.Value) (ssa.Value, int64, token.Token) {
	bin, ok := cond.(*ssa.BinOp)
	if !ok || bin.Op != token.EQL && bin.Op != token.NEQ {
		return nil, 0, 0
	}
	x, k := bin.X, bin.Y
	if _, isConst := x.(*ssa.Const); isConst {
		x, k = k, x
	}
	kc, ok := k.(*ssa.Const)
	if !ok || kc.Value == nil || kc.Value.Kind() != constant.Int {
		return nil, 0, 0
	}
	n, exact := constant.Int64Val(kc.Value)
	if !exact {
		return nil, 0, 0
	}
	return x, n, bin.Op
}

// statusOfResult is the call whose response v reads a status from — a field
// named StatusCode, or an accessor method of that name (resty, fasthttp) —
// or nil. The response is the call's first result, or its one result.
func statusOfResult(v ssa.Value) *ssa.Call {
	var resp ssa.Value
	switch s := v.(type) {
	case *ssa.UnOp:
		fa, ok := s.X.(*ssa.FieldAddr)
		if !ok || s.Op != token.MUL || ssautil.FieldName(fa) != "StatusCode" {
			return nil
		}
		resp = fa.X
	case *ssa.Call:
		callee := s.Common().StaticCallee()
		if callee == nil || callee.Signature.Recv() == nil || callee.Name() != "StatusCode" || len(s.Common().Args) != 1 {
			return nil
		}
		resp = s.Common().Args[0]
	default:
		return nil
	}
	return responseCall(resp)
}

// responseCall is the call that returned the response v: v is its first
// result, or its one result, kept in a variable or not.
func responseCall(v ssa.Value) *ssa.Call {
	if alloc, ok := v.(*ssa.Alloc); ok {
		v = ssautil.StoredOnce(alloc)
	}
	switch r := v.(type) {
	case *ssa.Extract:
		if call, ok := r.Tuple.(*ssa.Call); ok && r.Index == 0 {
			return call
		}
	case *ssa.Call:
		return r
	}
	return nil
}

// isResultAccessor reports a method of the call's result that takes nothing
// and answers a number, a flag or a string (resp.StatusCode(),
// resp.IsError()): it reads the outcome the call already has, it does not
// decide anything of its own.
func isResultAccessor(common *ssa.CallCommon) bool {
	callee := common.StaticCallee()
	if callee == nil || callee.Signature.Recv() == nil || callee.Signature.Params().Len() != 0 || callee.Signature.Results().Len() != 1 {
		return false
	}
	basic, ok := callee.Signature.Results().At(0).Type().Underlying().(*types.Basic)
	return ok && basic.Info()&(types.IsInteger|types.IsBoolean|types.IsString) != 0
}
