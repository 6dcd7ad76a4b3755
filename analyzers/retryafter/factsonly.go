package retryafter

import (
	"go/constant"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"

	"github.com/bhlint/bhlint/internal/catalog"
)

// A dependency analysed only for its facts (go vet's VetxOnly) needs no SSA
// unless it declares something an importer can learn from: a function that
// takes a ResponseWriter, an http.Header or a framework's context
// (SetsRetryAfter, WritesStatus), or a handler function
// (HandsAfterRetryAfter), a status method on an error type
// (CarriesShed), or code that can build a shed error — a gRPC status
// builder, a catalogued shed constructor or error type, an error type with an
// integer status field, or a function, variable or type that already carries
// one of this analyzer's facts (ShedError, CarriesShed). mayExportFacts
// answers from the type information alone, so that a package like an SDK
// client, which reaches net/http but declares none of these, is left before
// its SSA is built.

// mayExportFacts reports whether the package may export a fact.
func mayExportFacts(pass *analysis.Pass) bool {
	takesInterface := false
	for _, obj := range pass.TypesInfo.Defs {
		fn, ok := obj.(*types.Func)
		if ok && (takesWriterSig(fn.Signature()) || isStatusMethodSig(fn) || takesHandlerSig(fn.Signature())) {
			return true
		}
		takesInterface = takesInterface || ok && takesInterfaceSig(fn.Signature())
	}
	seen := map[types.Object]bool{}
	for _, obj := range pass.TypesInfo.Uses {
		if seen[obj] || obj.Pkg() == nil {
			continue
		}
		seen[obj] = true
		if usesShedSource(pass, obj) || takesInterface && namesFrameworkContext(obj) || isShedStatusConst(obj) {
			return true
		}
	}
	return false
}

// takesHandlerSig reports whether a parameter is a handler function (an
// option that stores a limiter's refusal handler: HandsAfterRetryAfter).
func takesHandlerSig(sig *types.Signature) bool {
	for v := range sig.Params().Variables() {
		if hs, ok := v.Type().Underlying().(*types.Signature); ok && takesWriterSig(hs) {
			return true
		}
	}
	return false
}

// takesInterfaceSig reports whether a parameter has an interface type: one
// that may be a framework's context recovered inside (recoveredFramework).
func takesInterfaceSig(sig *types.Signature) bool {
	for v := range sig.Params().Variables() {
		if types.IsInterface(v.Type()) {
			return true
		}
	}
	return false
}

// namesFrameworkContext reports whether obj is a framework's request context
// type (gin.Context, echo.Context), which a function may assert to.
func namesFrameworkContext(obj types.Object) bool {
	tn, ok := obj.(*types.TypeName)
	if !ok {
		return false
	}
	return catalog.FrameworkOfContext(catalog.TypeKey(tn.Type())) != nil ||
		catalog.FrameworkOfContext(catalog.TypeKey(types.NewPointer(tn.Type()))) != nil
}

// takesWriterSig is takesWriter by the signature: a parameter that is a
// ResponseWriter, an http.Header or a framework's request context.
func takesWriterSig(sig *types.Signature) bool {
	for v := range sig.Params().Variables() {
		t := v.Type()
		if isResponseWriter(t) || isHeader(t) || catalog.FrameworkOfContext(catalog.TypeKey(t)) != nil {
			return true
		}
	}
	return false
}

// isStatusMethodSig is statusMethodOf by the signature.
func isStatusMethodSig(fn *types.Func) bool {
	sig := fn.Signature()
	if sig.Recv() == nil || sig.Params().Len() != 0 || sig.Results().Len() != 1 || !slices.Contains(catalog.StatusMethods, fn.Name()) {
		return false
	}
	b, ok := sig.Results().At(0).Type().Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

// usesShedSource reports whether a use of obj can make this package build a
// shed error, or pass one on from another package's facts.
func usesShedSource(pass *analysis.Pass, obj types.Object) bool {
	switch obj := obj.(type) {
	case *types.Func:
		obj = obj.Origin()
		key := catalog.Key(obj)
		if _, ok := catalog.GRPCStatusBuilders[key]; ok {
			return true
		}
		if catalog.GRPCShedConstructors[key] != "" {
			return true
		}
		return obj.Pkg() != pass.Pkg && pass.ImportObjectFact(obj, new(ShedError))
	case *types.Var:
		return !obj.IsField() && obj.Pkg() != pass.Pkg && obj.Parent() == obj.Pkg().Scope() && pass.ImportObjectFact(obj, new(ShedError))
	case *types.TypeName:
		named, ok := types.Unalias(obj.Type()).(*types.Named)
		if !ok {
			return false
		}
		if catalog.GRPCShedErrorTypes[catalog.TypeKey(types.NewPointer(named))] != "" {
			return true
		}
		if obj.Pkg() != pass.Pkg && pass.ImportObjectFact(named.Origin().Obj(), new(CarriesShed)) {
			return true
		}
		return hasStatusField(named)
	}
	return false
}

// hasStatusField reports whether named is an error type with an integer
// field named as a status (catalog.StatusFields).
func hasStatusField(named *types.Named) bool {
	st, ok := named.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for f := range st.Fields() {
		b, ok := f.Type().Underlying().(*types.Basic)
		if ok && b.Info()&types.IsInteger != 0 && slices.Contains(catalog.StatusFields, f.Name()) {
			return types.Implements(types.NewPointer(named), errorType)
		}
	}
	return false
}

// isShedStatusConst reports whether obj is net/http's 429 or 503 constant,
// which a function may return as its status result (ReturnsShedStatus).
func isShedStatusConst(obj types.Object) bool {
	k, ok := obj.(*types.Const)
	if !ok || obj.Pkg().Path() != "net/http" || k.Val().Kind() != constant.Int {
		return false
	}
	n, ok := constant.Int64Val(k.Val())
	return ok && catalog.ShedStatuses[n] != ""
}
