package retryafter

import (
	"fmt"
	"go/types"
	"path"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// A middleware that admits each call through a method of the user's and
// turns any error it returns into ResourceExhausted (go-grpc-middleware's
// ratelimit interceptors and their Limiter): the refusal is decided where
// that method returns its error, and only there can the delay be given, by
// sending the pushback trailer on the call's context. The package that
// declares the limiter need not import gRPC at all.

// limiterMethodOf returns the catalogued admission method that fn has the
// shape of: its name, its parameters and one error result.
func limiterMethodOf(fn *types.Func) *catalog.GRPCLimiterMethod {
	sig := fn.Signature()
	if sig.Recv() == nil || sig.Results().Len() != 1 || !types.Identical(sig.Results().At(0).Type(), types.Universe.Lookup("error").Type()) {
		return nil
	}
	for i, m := range catalog.GRPCLimiterMethods {
		if m.Method != fn.Name() || sig.Params().Len() != len(m.Params) {
			continue
		}
		same := true
		for j, p := range m.Params {
			same = same && catalog.TypeKey(types.Unalias(sig.Params().At(j).Type())) == p // x/net/context.Context is an alias
		}
		if same {
			return &catalog.GRPCLimiterMethods[i]
		}
	}
	return nil
}

// declaresLimiter reports whether the package declares an admission method
// of a shedding middleware.
func declaresLimiter(pass *analysis.Pass) bool {
	for _, obj := range pass.TypesInfo.Defs {
		if fn, ok := obj.(*types.Func); ok && limiterMethodOf(fn) != nil {
			return true
		}
	}
	return false
}

// checkLimiter reports each error an admission method returns on a path
// where it sent no pushback trailer.
func (c *checker) checkLimiter(fn *ssa.Function) {
	obj := funcObject(fn)
	if obj == nil || fn.Parent() != nil || len(fn.Blocks) == 0 || inTestFile(c.pass, fn) {
		return
	}
	m := limiterMethodOf(obj)
	if m == nil {
		return
	}
	pushback := guidesHere(mentionsPushback(fn))
	setIn := map[*ssa.BasicBlock]int{}
	for _, b := range fn.Blocks {
		setIn[b] = slices.IndexFunc(b.Instrs, pushback)
	}
	unsetOut := unsetAtExit(fn, setIn)
	for _, ret := range returnsOf(fn) {
		b := ret.Block()
		reached := b == fn.Blocks[0] || slices.ContainsFunc(b.Preds, func(p *ssa.BasicBlock) bool { return unsetOut[p] })
		if setIn[b] >= 0 || !reached || ssautil.IsNil(ret.Results[0]) || !ret.Pos().IsValid() || namesOtherStatus(ret.Results[0]) {
			continue
		}
		c.pass.Report(analysis.Diagnostic{
			Pos: ret.Pos(),
			Message: fmt.Sprintf("%s: %s refuses the call with an error, which the middleware calling %s.%s sends as gRPC ResourceExhausted without retry guidance; send the %s trailer (grpc.SetTrailer(ctx, …)) before returning it, so clients wait before retrying instead of retrying at once",
				Code, funcName(fn), path.Base(m.Interface), m.Method, catalog.GRPCPushbackKey),
		})
	}
}

// namesOtherStatus reports whether err is a gRPC status built with a
// constant code that refuses nothing for load (status.Error(codes.Internal,
// …), status.New(codes.Unauthenticated, …).Err()): the admission method
// says what went wrong, and waiting would not help, whatever code the
// middleware wraps it in (hatchet's limiter failing on a missing token).
func namesOtherStatus(err ssa.Value) bool {
	call, ok := err.(*ssa.Call)
	if !ok {
		return false
	}
	callee := call.Call.StaticCallee()
	if callee == nil || funcObject(callee) == nil {
		return false
	}
	obj := funcObject(callee)
	args := call.Call.Args
	key := catalog.Key(obj)
	if key == catalog.GRPCStatusErr && len(args) == 1 {
		return namesOtherStatus(args[0])
	}
	i, ok := catalog.GRPCStatusBuilders[key]
	if !ok || i >= len(args) {
		return false
	}
	code, ok := args[i].(*ssa.Const)
	return ok && code.Value != nil && catalog.TypeKey(code.Type()) == catalog.GRPCCodeType && shedCode(code, map[ssa.Value]bool{}) == ""
}
