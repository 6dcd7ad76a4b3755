package retryafter

import (
	"go/constant"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// Response values. A handler framework that has handlers return their
// response, rather than write it (matrix-org/util's JSONResponse{Code,
// JSON, Headers}, which dendrite's rate limiter returns with Code 429),
// writes the status and the headers the value carries. Such a value is
// judged as an error value carrying a status is: a response type is a
// struct, declared in a package that reaches net/http, with an integer
// status field (catalog.StatusFields) and a headers field (a map keyed by
// header name: map[string]string, http.Header); built with a 429 or 503
// and returned with no Retry-After among its headers, it is reported where
// it is built.

// isResponseType reports whether t (or *t) is a response type.
func isResponseType(t types.Type) bool {
	st, ok := structOf(t)
	if !ok {
		if s, isStruct := t.Underlying().(*types.Struct); isStruct {
			st, ok = s, true
		}
	}
	if !ok {
		return false
	}
	status, headers := false, false
	for f := range st.Fields() {
		if basic, ok := f.Type().Underlying().(*types.Basic); ok && basic.Info()&types.IsInteger != 0 && slices.Contains(catalog.StatusFields, f.Name()) {
			status = true
		}
		if m, ok := f.Type().Underlying().(*types.Map); ok && strings.HasPrefix(f.Name(), "Header") && isStringKey(m.Key()) {
			headers = true
		}
	}
	return status && headers
}

func isStringKey(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.String
}

// returnsResponse reports whether fn's last result is a response type.
func returnsResponse(fn *ssa.Function) bool {
	res := fn.Signature.Results()
	return res.Len() > 0 && isResponseType(res.At(res.Len()-1).Type())
}

// setsRetryAfterHeader reports whether the response value alloc has a
// Retry-After among the headers stored in it: a map whose key, written
// where the map is made, is Retry-After in any spelling, or a headers
// field stored from somewhere the analysis does not follow (a parameter,
// a call's result), which may hold one.
func setsRetryAfterHeader(alloc *ssa.Alloc) bool {
	for _, r := range ssautil.Referrers(alloc) {
		fa, ok := r.(*ssa.FieldAddr)
		if !ok {
			continue
		}
		st, _ := structOf(fa.X.Type())
		if st == nil || !strings.HasPrefix(st.Field(fa.Field).Name(), "Header") {
			continue
		}
		for _, use := range ssautil.Referrers(fa) {
			if store, ok := use.(*ssa.Store); ok && store.Addr == fa && mayHoldRetryAfter(store.Val) {
				return true
			}
		}
	}
	return false
}

func mayHoldRetryAfter(v ssa.Value) bool {
	m, ok := v.(*ssa.MakeMap)
	if !ok {
		_, isConst := v.(*ssa.Const) // nil
		return !isConst
	}
	for _, r := range ssautil.Referrers(m) {
		if _, isStore := r.(*ssa.Store); isStore {
			continue // into the response's field
		}
		up, ok := r.(*ssa.MapUpdate)
		if !ok {
			return true // handed on: filled elsewhere
		}
		if k, ok := up.Key.(*ssa.Const); !ok || k.Value == nil || k.Value.Kind() != constant.String ||
			isRetryAfterKey(constant.StringVal(k.Value)) {
			return true
		}
	}
	return false
}
