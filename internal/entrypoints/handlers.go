package entrypoints

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Handlers returns the request handlers among funcs that no router of the
// tables registers: a function that takes a request and its response (a
// response writer and an *http.Request, or a framework's context that
// carries both) and that no function of funcs calls directly. Such a function
// is called only through a value, by a router bhlint does not know (a
// project's own fluent builder, a table of routes, a handler a factory
// returns), so it runs once per request wherever it is written. A function
// that takes a request and is called directly (a helper a handler passes
// its request to) runs inside the handler that calls it, and is left to it.
func Handlers(funcs []*ssa.Function) []Entry {
	called := map[*ssa.Function]bool{}
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if call, ok := instr.(ssa.CallInstruction); ok {
					if callee := call.Common().StaticCallee(); callee != nil {
						called[declared(callee)] = true
					}
				}
			}
		}
	}
	var out []Entry
	for _, fn := range funcs {
		if called[declared(fn)] || inFramework(fn) || fn.Synthetic != "" || !answersRequest(fn.Signature) {
			continue
		}
		out = append(out, Entry{Func: fn, Class: Interactive, How: "takes a request: " + funcName(fn), Pos: fn.Pos(), Parent: fn.Parent()})
	}
	return out
}

// answersRequest reports whether sig takes a request and the means to
// answer it: a response writer and an *http.Request, or a framework's
// context that carries both. A function handed only the request (an error
// reporter, a helper that reads a header) is called by a handler, not
// registered as one.
func answersRequest(sig *types.Signature) bool {
	var req, resp bool
	for i := range sig.Params().Len() {
		t := sig.Params().At(i).Type()
		if isNamedType(t, "net/http", "Request") {
			req = true
		} else if isResponseWriter(t) {
			resp = true
		} else if CarriesRequest(t) {
			return true
		}
	}
	return req && resp
}

// CarriesRequest reports whether a parameter of type t brings the function
// an incoming request: an *http.Request, or a framework's request context
// that holds both the request and its response writer (gin's *Context, a
// struct with both fields, embedded or not; echo's Context, an interface
// with a method for each), or the request context of a server not built on
// net/http, or a framework's type that hands one out (fasthttp's
// RequestCtx; fiber's Ctx, fastglue's Request: carriesServerContext).
func CarriesRequest(t types.Type) bool {
	if isNamedType(t, "net/http", "Request") || carriesServerContext(t) {
		return true
	}
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	var req, resp bool
	switch u := named.Underlying().(type) {
	case *types.Struct:
		req, resp = structCarries(u, 0)
	case *types.Interface:
		for i := range u.NumMethods() {
			sig := u.Method(i).Signature()
			if sig.Params().Len() != 0 || sig.Results().Len() != 1 {
				continue
			}
			r := sig.Results().At(0).Type()
			req = req || isNamedType(r, "net/http", "Request")
			resp = resp || isResponseWriter(r)
		}
	}
	return req && resp
}

func structCarries(st *types.Struct, depth int) (req, resp bool) {
	for i := range st.NumFields() {
		f := st.Field(i)
		req = req || isNamedType(f.Type(), "net/http", "Request")
		resp = resp || isResponseWriter(f.Type())
		if f.Embedded() && depth < 2 {
			t := f.Type()
			if p, ok := t.(*types.Pointer); ok {
				t = p.Elem()
			}
			if inner, ok := t.Underlying().(*types.Struct); ok {
				r, w := structCarries(inner, depth+1)
				req, resp = req || r, resp || w
			}
		}
	}
	return req, resp
}

// serverContexts are the request contexts of HTTP servers not built on
// net/http: each holds one incoming request and its response (fasthttp's
// RequestCtx, which fiber and fastglue hand their handlers inside their own
// types). A client's request and response types are not among them: a
// function handed fasthttp's Request and Response sends a request.
var serverContexts = [][2]string{{"github.com/valyala/fasthttp", "RequestCtx"}}

// carriesServerContext reports whether t is a server's request context or
// hands one out: a field (fastglue's Request.RequestCtx) or a method with
// no parameters that returns it (fiber v2's Ctx.Context(), v3's
// Ctx.RequestCtx()): the framework's context of one request.
func carriesServerContext(t types.Type) bool {
	if isServerContext(t) {
		return true
	}
	if _, isPtr := t.(*types.Pointer); !isPtr && !types.IsInterface(t) {
		t = types.NewPointer(t) // a method of the pointer's method set counts too
	}
	mset := types.NewMethodSet(t)
	for i := range mset.Len() {
		sig, ok := mset.At(i).Type().(*types.Signature)
		if ok && sig.Params().Len() == 0 && sig.Results().Len() == 1 && isServerContext(sig.Results().At(0).Type()) {
			return true
		}
	}
	if st, ok := derefStruct(t); ok {
		for f := range st.Fields() {
			if isServerContext(f.Type()) {
				return true
			}
		}
	}
	return false
}

func isServerContext(t types.Type) bool {
	for _, sc := range serverContexts {
		if isNamedType(t, sc[0], sc[1]) {
			return true
		}
	}
	return false
}

func derefStruct(t types.Type) (*types.Struct, bool) {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	return st, ok
}

// isResponseWriter reports whether t is net/http's ResponseWriter or a type
// with its methods (gin's ResponseWriter, echo's *Response).
func isResponseWriter(t types.Type) bool {
	if isNamedType(t, "net/http", "ResponseWriter") {
		return true
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, "WriteHeader")
	fn, ok := obj.(*types.Func)
	if !ok {
		return false
	}
	h, _, _ := types.LookupFieldOrMethod(t, true, nil, "Header")
	_, ok = h.(*types.Func)
	return ok && fn.Signature().Params().Len() == 1
}

// isNamedType reports whether t, or what it points to, is the named type
// path.name.
func isNamedType(t types.Type, path, name string) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == path && n.Obj().Name() == name
}
