package retryafter

import (
	"fmt"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// Framework middlewares that shed with a 429 of their own (echo's rate
// limiter): the registration is reported when the configuration leaves the
// default deny handler in place, which sends no Retry-After. A deny handler
// of the user's is a function taking the framework's context, judged like
// any handler.

func (c *checker) checkShedMiddlewares(fn *ssa.Function) {
	if inTestFile(c.pass, fn) {
		return
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			callee := call.Call.StaticCallee()
			if callee == nil || funcObject(callee) == nil {
				continue
			}
			mw, ok := catalog.ShedMiddlewares[catalog.Key(funcObject(callee))]
			if !ok || (mw.ConfigArg >= 0 && !defaultDeny(call.Call.Args, mw)) {
				continue
			}
			pos := c.callStart(call.Pos())
			if !pos.IsValid() {
				continue
			}
			which := "whose default " + mw.DenyField
			if mw.DenyField == "" {
				which = "which" // nothing to configure
			}
			c.pass.Report(analysis.Diagnostic{
				Pos: pos,
				Message: fmt.Sprintf("%s: %s registers %s, %s answers %s without Retry-After; %s, so clients wait before retrying instead of retrying at once",
					Code, funcName(fn), funcObject(callee).Name(), which, mw.Sends, mw.Fix),
			})
		}
	}
}

// defaultDeny reports whether the configuration passed to a shedding
// middleware is seen to leave its deny handler unset: a composite literal
// without the field, or a copy of the package's default configuration. A
// configuration built elsewhere is given the benefit of the doubt.
func defaultDeny(args []ssa.Value, mw catalog.ShedMiddleware) bool {
	if mw.ConfigArg >= len(args) {
		return false
	}
	load, ok := args[mw.ConfigArg].(*ssa.UnOp)
	if !ok {
		return false
	}
	alloc, ok := load.X.(*ssa.Alloc)
	if !ok {
		return false
	}
	for _, r := range ssautil.Referrers(alloc) {
		switch r := r.(type) {
		case *ssa.FieldAddr:
			if ssautil.FieldName(r) != mw.DenyField {
				continue
			}
			for _, rr := range ssautil.Referrers(r) {
				if st, ok := rr.(*ssa.Store); ok && st.Addr == r && !ssautil.IsNil(st.Val) {
					return false
				}
			}
		case *ssa.Store: // cfg := middleware.DefaultRateLimiterConfig
			if r.Addr != alloc {
				continue
			}
			if l, ok := r.Val.(*ssa.UnOp); !ok || !isDefaultConfig(l.X) {
				return false
			}
		case *ssa.Call, *ssa.Go, *ssa.Defer: // &cfg passed to code that may set the handler
			return false
		}
	}
	return true
}

// isDefaultConfig reports whether v is a package-level variable named as a
// framework's default configuration (DefaultRateLimiterConfig).
func isDefaultConfig(v ssa.Value) bool {
	g, ok := v.(*ssa.Global)
	return ok && g.Pkg != nil && g.Object() != nil && len(g.Name()) > 7 && g.Name()[:7] == "Default" &&
		catalog.ShedMiddlewarePackage(g.Pkg.Pkg.Path())
}
