package retryafter

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// Error values that carry an HTTP status, mapped to the response by a
// framework's error handler: pocketbase's &router.ApiError{Status: 429},
// echo's &echo.HTTPError{Code: 503}. A constructor that fills the field
// from a parameter (NewApiError(status, …)) gets a ShedError fact with that
// parameter, and one that passes a 429 to it (NewTooManyRequestsError) a
// fact with the status, so calls in other packages are judged.

var errorType = types.Universe.Lookup("error").Type().Underlying().(*types.Interface)

// statusFieldSheds returns the shed an allocated error value carries: a
// 429 or 503, or fn's parameter, stored in its status field.
func (g *grpcChecker) statusFieldSheds(fn *ssa.Function, alloc *ssa.Alloc) []shed {
	if !types.Implements(alloc.Type(), errorType) {
		return nil
	}
	for _, r := range ssautil.Referrers(alloc) {
		fa, ok := r.(*ssa.FieldAddr)
		if !ok || !isStatusField(fa) {
			continue
		}
		for _, r := range ssautil.Referrers(fa) {
			if st, ok := r.(*ssa.Store); ok && st.Addr == fa {
				if sheds := g.codeSheds(fn, st.Val, alloc.Pos()); len(sheds) > 0 {
					return sheds
				}
			}
		}
	}
	return nil
}

// isStatusField reports whether fa addresses an integer field that names
// the response status (catalog.StatusFields).
func isStatusField(fa *ssa.FieldAddr) bool {
	st, ok := fa.X.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Struct)
	if !ok {
		return false
	}
	f := st.Field(fa.Field)
	basic, ok := f.Type().Underlying().(*types.Basic)
	if !ok || basic.Info()&types.IsInteger == 0 {
		return false
	}
	for _, name := range catalog.StatusFields {
		if f.Name() == name {
			return true
		}
	}
	return false
}
