package retryafter

import (
	"fmt"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/ssautil"
)

// A rate limiter that refuses a request sets Retry-After itself and then
// calls the handler its user gave it for refusals (go-chi/httprate:
// w.Header().Set("Retry-After", …) and then l.onRequestLimit(w, r), the
// handler httprate.WithLimitHandler(h) stored). The user's handler writes
// the 429 on a writer that carries the header already: what bounds it is
// the caller that set the header, in another module. Two steps, in the
// limiter's package: a func-typed field that is called with a
// ResponseWriter only where Retry-After is set on every path before the
// call; and a function that stores its parameter into such a field,
// directly or through the option closure it returns. Those functions get
// HandsAfterRetryAfter, and a handler passed to one of them at those
// parameters is not checked.

// HandsAfterRetryAfter marks a function whose parameters Params are
// handlers that the package calls only after setting Retry-After on the
// writer it passes them.
type HandsAfterRetryAfter struct{ Params []int }

// AFact marks HandsAfterRetryAfter as an analysis fact.
func (*HandsAfterRetryAfter) AFact() {}

func (f *HandsAfterRetryAfter) String() string {
	return fmt.Sprintf("handsAfterRetryAfter%v", f.Params)
}

// exportHandsAfterRetryAfter exports HandsAfterRetryAfter for the package's
// functions that store a parameter into a field called only after
// Retry-After is set.
func (c *checker) exportHandsAfterRetryAfter(funcs []*ssa.Function) {
	fields := c.fieldsCalledAfterRetryAfter(funcs)
	if len(fields) == 0 {
		return
	}
	for _, fn := range funcs {
		obj := funcObject(fn)
		if obj == nil || fn.Parent() != nil {
			continue
		}
		var params []int
		for _, p := range storedParams(fn, fields) {
			if !slices.Contains(params, p) {
				params = append(params, p)
			}
		}
		if len(params) > 0 {
			slices.Sort(params)
			c.pass.ExportObjectFact(obj, &HandsAfterRetryAfter{Params: params})
		}
	}
}

// fieldsCalledAfterRetryAfter are the func-typed fields the package calls
// with a ResponseWriter, every such call made where Retry-After was set on
// every path before it.
func (c *checker) fieldsCalledAfterRetryAfter(funcs []*ssa.Function) map[*types.Var]bool {
	after := map[*types.Var]bool{}
	unset := map[*types.Var]bool{}
	for _, fn := range funcs {
		if len(fn.Blocks) == 0 {
			continue
		}
		h := c.headerPathsOf(fn)
		for _, b := range fn.Blocks {
			for i, instr := range b.Instrs {
				call, ok := instr.(*ssa.Call)
				if !ok || !slices.ContainsFunc(call.Call.Args, func(a ssa.Value) bool { return isResponseWriter(a.Type()) }) {
					continue
				}
				field := loadedField(call.Call.Value)
				if field == nil {
					continue
				}
				if h.setBefore(b, i) {
					after[field] = true
				} else {
					unset[field] = true
				}
			}
		}
	}
	for f := range unset {
		delete(after, f)
	}
	return after
}

// loadedField is the struct field whose value v loads (l.onRequestLimit),
// or nil.
func loadedField(v ssa.Value) *types.Var {
	load, ok := v.(*ssa.UnOp)
	if !ok {
		return nil
	}
	fa, ok := load.X.(*ssa.FieldAddr)
	if !ok {
		return nil
	}
	return fieldOf(fa)
}

func fieldOf(fa *ssa.FieldAddr) *types.Var {
	ptr, ok := fa.X.Type().Underlying().(*types.Pointer)
	if !ok {
		return nil // a type parameter's pointer
	}
	return ssautil.StructField(ptr.Elem(), fa.Field)
}

// storedParams are the indexes of fn's parameters (its receiver not
// counted) that fn, or a closure it makes (an option: return func(rl
// *rateLimiter) { rl.onRequestLimit = h }), stores into one of fields.
func storedParams(fn *ssa.Function, fields map[*types.Var]bool) []int {
	recv := 0
	if fn.Signature.Recv() != nil {
		recv = 1
	}
	var out []int
	var walk func(f *ssa.Function)
	walk = func(f *ssa.Function) {
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok {
					continue
				}
				fa, ok := st.Addr.(*ssa.FieldAddr)
				if !ok || !fields[fieldOf(fa)] {
					continue
				}
				if p, ok := ssautil.CapturedValue(f, st.Val).(*ssa.Parameter); ok && p.Parent() == fn {
					out = append(out, slices.Index(fn.Params, p)-recv)
				}
			}
		}
		for _, anon := range f.AnonFuncs {
			walk(anon)
		}
	}
	walk(fn)
	return out
}

// handedAfterRetryAfter are the functions of this package passed, at a
// call, as a parameter that the callee's HandsAfterRetryAfter lists.
func (c *checker) handedAfterRetryAfter(funcs []*ssa.Function) map[*ssa.Function]bool {
	out := map[*ssa.Function]bool{}
	for _, fn := range funcs {
		for common := range ssautil.WaitedCalls(fn) {
			callee := common.StaticCallee()
			if callee == nil {
				continue
			}
			obj := funcObject(callee)
			var fact HandsAfterRetryAfter
			if obj == nil || !c.pass.ImportObjectFact(obj, &fact) {
				continue
			}
			args := common.Args[recvArgs(obj):]
			for _, p := range fact.Params {
				if p < len(args) {
					if f := ssautil.FuncOf(args[p]); f != nil {
						out[f] = true
					}
				}
			}
		}
	}
	return out
}
