package retryafter

import (
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/pkgscope"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// Error values that carry an HTTP status, mapped to the response by a
// framework's error handler: pocketbase's &router.ApiError{Status: 429},
// echo's &echo.HTTPError{Code: 503}, or a type whose status method says
// so (func (TooManyRequestsError) StatusCode() int { return 429 }). A
// constructor that fills the field from a parameter (NewApiError(status,
// …)) gets a ShedError fact with that parameter, and one that passes a 429
// to it (NewTooManyRequestsError) a fact with the status, so calls in other
// packages are judged. The error types themselves get a CarriesShed fact.

var errorType = types.Universe.Lookup("error").Type().Underlying().(*types.Interface)

// CarriesShed marks an error type whose status method (catalog.
// StatusMethods) returns a 429 or 503, Shed, or returns the field named
// Field, which then holds the status.
type CarriesShed struct {
	Shed  string
	Field string
}

// AFact marks CarriesShed as an analysis fact.
func (*CarriesShed) AFact() {}

func (f *CarriesShed) String() string {
	if f.Shed != "" {
		return "carriesShed(" + f.Shed + ")"
	}
	return "carriesShed(field " + f.Field + ")"
}

// exportCarriesShed learns the error types of this package whose status
// method returns a shed status or a field.
func (g *grpcChecker) exportCarriesShed(funcs []*ssa.Function) {
	for _, fn := range funcs {
		named := statusMethodOf(fn)
		if named == nil || named.Obj().Pkg() != g.pass.Pkg {
			continue
		}
		if f := statusMethodReturns(fn); f != nil {
			g.carries[named.Obj()] = f
			g.pass.ExportObjectFact(named.Obj(), f)
		}
	}
}

// statusMethodOf returns the error type of which fn is a status method:
// a method named in catalog.StatusMethods, with no parameters and one
// integer result.
func statusMethodOf(fn *ssa.Function) *types.Named {
	recv := fn.Signature.Recv()
	sig := fn.Signature
	if recv == nil || fn.Parent() != nil || sig.Params().Len() != 0 || sig.Results().Len() != 1 ||
		!slices.Contains(catalog.StatusMethods, fn.Name()) {
		return nil
	}
	if b, ok := sig.Results().At(0).Type().Underlying().(*types.Basic); !ok || b.Info()&types.IsInteger == 0 {
		return nil
	}
	named := ssautil.NamedOf(recv.Type())
	if named == nil || !types.Implements(types.NewPointer(named), errorType) {
		return nil
	}
	return named
}

// statusMethodReturns says what a status method returns on every path: one
// shed status, or one field of its receiver.
func statusMethodReturns(fn *ssa.Function) *CarriesShed {
	var out *CarriesShed
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok || len(ret.Results) != 1 {
			continue
		}
		var f CarriesShed
		if s := shedStatus(ret.Results[0], map[ssa.Value]bool{}); s != "" {
			f.Shed = "HTTP " + s
		} else if name := receiverField(fn, ret.Results[0]); name != "" {
			f.Field = name
		} else {
			return nil
		}
		if out != nil && *out != f {
			return nil
		}
		out = &f
	}
	return out
}

// receiverField returns the name of the receiver's field that v loads:
// e.code with a pointer receiver, e.code with a value receiver.
func receiverField(fn *ssa.Function, v ssa.Value) string {
	if len(fn.Params) == 0 {
		return ""
	}
	recv := fn.Params[0]
	switch v := v.(type) {
	case *ssa.UnOp:
		if fa, ok := v.X.(*ssa.FieldAddr); ok && fa.X == recv {
			return ssautil.FieldName(fa)
		}
	case *ssa.Field:
		if v.X == recv {
			if st, ok := v.X.Type().Underlying().(*types.Struct); ok {
				return st.Field(v.Field).Name()
			}
		}
	}
	return ""
}

// httpErrorType reports whether the error type t (or *t) is declared in a
// package that reaches net/http. Its status is an HTTP status only if some
// HTTP response can be written from it: an SMTP server's
// &smtp.SMTPError{Code: 503} (a reply code, "bad sequence of commands")
// has the shape of echo's &echo.HTTPError{Code: 503}, and the package that
// declares it never reaches an HTTP response.
func (g *grpcChecker) httpErrorType(t types.Type) bool {
	named := ssautil.NamedOf(t)
	if named == nil || named.Obj().Pkg() == nil {
		return false
	}
	pkg := named.Obj().Pkg()
	reaches, ok := g.httpPkgs[pkg]
	if !ok {
		reaches = pkgscope.Reaches(pkg, []string{"net/http"})
		g.httpPkgs[pkg] = reaches
	}
	return reaches
}

// carriesShed returns the CarriesShed fact of the error type t (or *t).
func (g *grpcChecker) carriesShed(t types.Type) *CarriesShed {
	named := ssautil.NamedOf(t)
	if named == nil || named.Obj().Pkg() == nil {
		return nil
	}
	obj := named.Origin().Obj()
	if f, ok := g.carries[obj]; ok {
		return f
	}
	var fact *CarriesShed
	if obj.Pkg() != g.pass.Pkg {
		var f CarriesShed
		if g.pass.ImportObjectFact(obj, &f) {
			fact = &f
		}
	}
	g.carries[obj] = fact
	return fact
}

// statusFieldSheds returns the shed an allocated error value carries: a
// 429 or 503, or fn's parameter, stored in its status field, or the shed
// its type's status method returns.
func (g *grpcChecker) statusFieldSheds(fn *ssa.Function, alloc *ssa.Alloc) []shed {
	response := !types.Implements(alloc.Type(), errorType) && isResponseType(alloc.Type())
	if !types.Implements(alloc.Type(), errorType) && !response || !g.httpErrorType(alloc.Type()) ||
		response && setsRetryAfterHeader(alloc) {
		return nil
	}
	carries := g.carriesShed(alloc.Type())
	if carries != nil && carries.Shed != "" {
		return []shed{{site: alloc.Pos(), code: carries.Shed, param: -1}}
	}
	for _, r := range ssautil.Referrers(alloc) {
		fa, ok := r.(*ssa.FieldAddr)
		if !ok || !isStatusField(fa, carries) {
			continue
		}
		for _, r := range ssautil.Referrers(fa) {
			if st, ok := r.(*ssa.Store); ok && st.Addr == fa {
				if sheds := g.codeSheds(fn, st.Val, alloc.Pos()); len(sheds) > 0 {
					for i := range sheds {
						sheds[i].response = response
					}
					return sheds
				}
			}
		}
	}
	return nil
}

// valueSheds returns the shed an error value that is not a pointer carries
// by its type's status method: return TooManyRequestsError{}.
func (g *grpcChecker) valueSheds(mi *ssa.MakeInterface) []shed {
	if _, isPtr := mi.X.Type().Underlying().(*types.Pointer); isPtr || !g.httpErrorType(mi.X.Type()) {
		return nil
	}
	if f := g.carriesShed(mi.X.Type()); f != nil && f.Shed != "" {
		site := mi.Pos()
		if load, ok := mi.X.(*ssa.UnOp); ok && !site.IsValid() {
			site = load.X.Pos() // the composite literal
		}
		return []shed{{site: site, code: f.Shed, param: -1}}
	}
	return nil
}

// isStatusField reports whether fa addresses an integer field that names
// the response status (catalog.StatusFields), or the field the type's status
// method returns.
func isStatusField(fa *ssa.FieldAddr, carries *CarriesShed) bool {
	st, ok := structOf(fa.X.Type())
	if !ok {
		return false
	}
	f := st.Field(fa.Field)
	basic, ok := f.Type().Underlying().(*types.Basic)
	if !ok || basic.Info()&types.IsInteger == 0 {
		return false
	}
	return slices.Contains(catalog.StatusFields, f.Name()) || (carries != nil && carries.Field == f.Name())
}

// structOf returns the struct a pointer points to.
func structOf(t types.Type) (*types.Struct, bool) {
	ptr, ok := t.Underlying().(*types.Pointer)
	if !ok {
		return nil, false
	}
	st, ok := ptr.Elem().Underlying().(*types.Struct)
	return st, ok
}
