// Package entrypoints finds a program's entry points when no lanes are declared.
//
// Two workload classes are told apart: interactive work (request handlers
// registered with net/http, chi, gorilla/mux, echo, gin, httprouter, fastglue,
// pocketbase's router, and the methods of a gRPC service implementation)
// and background work (goroutines that loop for the life of the process:
// ticker and timer loops, queue consumers, receive loops, infinite loops,
// jobs handed to a scheduler, and message handlers handed to a broker's
// subscription; not the workers of one call, which
// receive from a channel the call makes and closes: callScoped). The frameworks are tables (frameworks.go): a new router
// is a row, not code.
//
// A registered handler is followed to what runs: a function, a closure, a
// method value, the methods of a boxed value, the handler a middleware
// wraps, what a factory returns, and what the package stores in one of its
// func fields when the registration loads one (a router struct whose
// fields its constructor fills from factories: r.HandlerFunc(c.Create)).
package entrypoints

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// Class is a workload class.
type Class string

// The workload classes.
const (
	Interactive Class = "interactive"
	Background  Class = "background"
)

// Entry is one entry point: a function that runs as a request handler or
// as a long-lived background loop.
type Entry struct {
	Func  *ssa.Function // the handler / loop body function that runs
	Class Class
	How   string    // e.g. "net/http handler registered with mux.HandleFunc", "ticker loop started by go s.run()"
	Pos   token.Pos // the registration or go statement
	// Parent is the function that holds the registration or go statement.
	Parent *ssa.Function
	// Route is the pattern a handler was registered for when the
	// registration names it with a constant ("/healthz", "GET /readyz"),
	// "" otherwise.
	Route string
	// PerMessage: a message handler a broker's client calls once for each
	// message it delivers (the consumers table): background work whose
	// every call is one more message, as a handler's is one more request.
	PerMessage bool
}

// Finder finds entry points. The zero value looks only at the package's
// own code; LoopOf lets it see through functions of other packages.
type Finder struct {
	// The package Find looks at, and its func fields' contents, indexed
	// when a handler is first loaded from one.
	pkg    *types.Package
	funcs  []*ssa.Function
	fields *ssautil.FieldCallees

	// LoopOf says how a function of another package (which has no SSA body
	// here) loops for the life of the process, "" if it does not or is
	// unknown: typically read from a fact its own package exported.
	LoopOf func(fn *types.Func) string
}

// Find returns the entry points that the package's functions register or start.
func Find(pkg *types.Package, funcs []*ssa.Function) []Entry {
	return (&Finder{}).Find(pkg, funcs)
}

// Find returns the entry points that funcs register or start.
func (f *Finder) Find(pkg *types.Package, funcs []*ssa.Function) []Entry {
	f.pkg, f.funcs, f.fields = pkg, funcs, nil
	var out []Entry
	seen := map[entryKey]bool{}
	add := func(e Entry) {
		if e.Func == nil || inFramework(e.Func) {
			return
		}
		k := entryKey{e.Func, e.Class, e.Pos}
		if !seen[k] {
			seen[k] = true
			out = append(out, e)
		}
	}
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch instr := instr.(type) {
				case *ssa.Go:
					f.goStatement(fn, instr, add)
				case *ssa.Call:
					f.call(fn, instr.Common(), add)
				case *ssa.Defer:
					// deferred registrations are not a thing
				case *ssa.Store:
					f.serverHandler(fn, instr, add)
				}
			}
		}
	}
	return out
}

type entryKey struct {
	fn    *ssa.Function
	class Class
	pos   token.Pos
}

func (f *Finder) goStatement(parent *ssa.Function, g *ssa.Go, add func(Entry)) {
	common := g.Common()
	if common.IsInvoke() {
		return
	}
	for _, target := range f.resolve(common.Value, 2) {
		if how := f.Loop(target); how != "" && !f.callScoped(parent, target, common.Value, common.Args) {
			add(Entry{Func: target, Class: Background, How: how + " started by go " + funcName(target), Pos: g.Pos(), Parent: parent})
		}
	}
}

func (f *Finder) call(parent *ssa.Function, common *ssa.CallCommon, add func(Entry)) {
	key, name := callKey(common)
	if key == "" {
		return
	}
	params := callParams(common)
	handlers := func(from int) []*ssa.Function {
		var fns []*ssa.Function
		for i := from; i < len(params); i++ {
			fns = append(fns, f.resolve(params[i], 3)...)
		}
		return fns
	}
	for _, table := range interactiveTables {
		if i, ok := table.calls[key]; ok {
			route := routeOf(params, i)
			for _, h := range handlers(i) {
				add(Entry{Func: h, Class: Interactive, How: table.framework + " handler registered with " + name, Pos: common.Pos(), Parent: parent, Route: route})
			}
			return
		}
	}
	if i, ok := goKitServers[key]; ok && i < len(params) {
		for _, h := range f.resolve(params[i], 3) {
			add(Entry{Func: h, Class: Interactive, How: "go-kit endpoint served by " + name, Pos: common.Pos(), Parent: parent})
		}
		return
	}
	if i, ok := grpcRegistrations[key]; ok {
		for _, h := range handlers(i) {
			add(Entry{Func: h, Class: Interactive, How: "gRPC method registered with " + name, Pos: common.Pos(), Parent: parent})
		}
		return
	}
	if iface, ok := grpcGenerated(common); ok {
		for _, h := range handlers(1) {
			add(Entry{Func: h, Class: Interactive, How: "gRPC method of " + iface, Pos: common.Pos(), Parent: parent})
		}
		return
	}
	if iface, ok := connectGenerated(common); ok {
		for _, h := range handlers(0) {
			add(Entry{Func: h, Class: Interactive, How: "Connect RPC method of " + iface, Pos: common.Pos(), Parent: parent})
		}
		return
	}
	if i, ok := goRunners[key]; ok {
		for _, target := range handlers(i) {
			if how := f.Loop(target); how != "" && (i >= len(params) || !f.callScoped(parent, target, params[i], nil)) {
				add(Entry{Func: target, Class: Background, How: how + " started by " + name, Pos: common.Pos(), Parent: parent})
			}
		}
		return
	}
	if i, ok := schedulers[key]; ok {
		for _, job := range handlers(i) {
			add(Entry{Func: job, Class: Background, How: "job scheduled with " + name, Pos: common.Pos(), Parent: parent})
		}
		return
	}
	if i, ok := consumers[key]; ok && i < len(params) {
		for _, h := range f.resolve(params[i], 3) {
			add(Entry{Func: h, Class: Background, How: "message handler subscribed with " + name, Pos: common.Pos(), Parent: parent, PerMessage: true})
		}
	}
}

// Registration recognises a call that registers request handlers with one
// of the routers of the tables (net/http, chi, gorilla/mux, echo, gin,
// httprouter, fastglue, pocketbase): the route it names ("" when not a constant) and
// the arguments that may be handlers, for passes that resolve handlers
// further than Find does (a handler returned by a factory).
func Registration(common *ssa.CallCommon) (route string, handlers []ssa.Value, ok bool) {
	key, _ := callKey(common)
	if key == "" {
		return "", nil, false
	}
	params := callParams(common)
	for _, table := range interactiveTables {
		if i, found := table.calls[key]; found {
			if i < len(params) {
				handlers = params[i:]
			}
			return routeOf(params, i), handlers, true
		}
	}
	return "", nil, false
}

// routeOf is the last constant string among a registration's parameters
// before its first handler: the path of mux.HandleFunc("/healthz", h),
// r.GET("/health", h), r.Method("GET", "/ready", h).
// A path built by concatenation ("GET "+cfg.Webroot+"readyz") is given
// with its constant parts and an ellipsis for each other one
// ("GET …readyz"): a prefix the operator configures does not change which
// route it is.
func routeOf(params []ssa.Value, handler int) string {
	for i := min(handler, len(params)) - 1; i >= 0; i-- {
		if route, ok := Path(params[i]); ok {
			return route
		}
	}
	return ""
}

// Path reads a registration's argument as a route: a constant string, or a
// concatenation that ends in one.
func Path(v ssa.Value) (string, bool) {
	if c, ok := v.(*ssa.Const); ok && c.Value != nil && c.Value.Kind() == constant.String {
		return constant.StringVal(c.Value), true
	}
	return concatenated(v)
}

// Elided stands, in a route, for a part of a concatenated path that is not
// a constant.
const Elided = "…"

// concatenated renders a string concatenation whose last operand is a
// constant (the route's last segment is known), with Elided for the parts
// that are not constants.
func concatenated(v ssa.Value) (string, bool) {
	sum, ok := v.(*ssa.BinOp)
	if !ok || sum.Op != token.ADD {
		return "", false
	}
	if tail, ok := sum.Y.(*ssa.Const); !ok || tail.Value == nil || tail.Value.Kind() != constant.String {
		return "", false
	}
	return strings.ReplaceAll(rendered(sum), Elided+Elided, Elided), true
}

func rendered(v ssa.Value) string {
	switch x := v.(type) {
	case *ssa.Const:
		if x.Value != nil && x.Value.Kind() == constant.String {
			return constant.StringVal(x.Value)
		}
	case *ssa.BinOp:
		if x.Op == token.ADD {
			return rendered(x.X) + rendered(x.Y)
		}
	}
	return Elided
}

// serverHandler finds http.Server{Handler: h} and srv.Handler = h.
func (f *Finder) serverHandler(parent *ssa.Function, st *ssa.Store, add func(Entry)) {
	fa, ok := st.Addr.(*ssa.FieldAddr)
	if !ok {
		return
	}
	ptr, ok := fa.X.Type().Underlying().(*types.Pointer)
	if !ok {
		return
	}
	named, ok := types.Unalias(ptr.Elem()).(*types.Named)
	if !ok || named.Obj().Pkg() == nil {
		return
	}
	typeName := named.Obj().Pkg().Path() + "." + named.Obj().Name()
	field, ok := serverHandlerFields[typeName]
	st2, isStruct := named.Underlying().(*types.Struct)
	if !ok || !isStruct || fa.Field >= st2.NumFields() || st2.Field(fa.Field).Name() != field {
		return
	}
	for _, h := range f.resolve(st.Val, 3) {
		add(Entry{Func: h, Class: Interactive, How: "net/http handler of " + named.Obj().Pkg().Name() + "." + named.Obj().Name() + "{" + field + "}", Pos: st.Pos(), Parent: parent})
	}
}

// grpcGenerated recognises protoc-gen-go-grpc's RegisterXxxServer(s,
// srv XxxServer): a package-level function of that name whose second
// parameter is an interface.
func grpcGenerated(common *ssa.CallCommon) (string, bool) {
	callee := common.StaticCallee()
	if callee == nil || callee.Signature.Recv() != nil || callee.Parent() != nil {
		return "", false
	}
	name := callee.Name()
	if !strings.HasPrefix(name, "Register") || !strings.HasSuffix(name, "Server") || callee.Signature.Params().Len() != 2 {
		return "", false
	}
	t := callee.Signature.Params().At(1).Type()
	named, ok := types.Unalias(t).(*types.Named)
	if !ok || !types.IsInterface(t) || named.Obj().Pkg() == nil {
		return "", false
	}
	return named.Obj().Pkg().Name() + "." + named.Obj().Name(), true
}

// connectGenerated recognises protoc-gen-connect-go's
// NewXxxHandler(svc XxxHandler, opts ...connect.HandlerOption) (string,
// http.Handler): a package-level function of that name whose first
// parameter is an interface and whose options are Connect's handler
// options. Every method of the service it is handed serves an RPC.
func connectGenerated(common *ssa.CallCommon) (string, bool) {
	callee := common.StaticCallee()
	if callee == nil || callee.Signature.Recv() != nil || callee.Parent() != nil {
		return "", false
	}
	name, params := callee.Name(), callee.Signature.Params()
	if !strings.HasPrefix(name, "New") || !strings.HasSuffix(name, "Handler") || params.Len() != 2 || !callee.Signature.Variadic() {
		return "", false
	}
	opts, ok := params.At(1).Type().(*types.Slice)
	if !ok || !slices.Contains(catalog.ConnectHandlerOptions, catalog.TypeKey(opts.Elem())) {
		return "", false
	}
	t := params.At(0).Type()
	named, ok := types.Unalias(t).(*types.Named)
	if !ok || !types.IsInterface(t) || named.Obj().Pkg() == nil {
		return "", false
	}
	return named.Obj().Pkg().Name() + "." + named.Obj().Name(), true
}

// callKey is the catalogue key of a call's callee, and a short name for
// messages ("ServeMux.HandleFunc", "http.HandleFunc").
func callKey(common *ssa.CallCommon) (key, name string) {
	var obj *types.Func
	if common.IsInvoke() {
		obj = common.Method
	} else if callee := common.StaticCallee(); callee != nil {
		obj, _ = ssautil.Origin(callee).Object().(*types.Func)
	}
	if obj == nil || obj.Pkg() == nil {
		return "", ""
	}
	return catalog.Key(obj), shortFuncName(obj)
}

func shortFuncName(obj *types.Func) string {
	if recv := obj.Signature().Recv(); recv != nil {
		t := recv.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if named, ok := types.Unalias(t).(*types.Named); ok {
			return named.Obj().Name() + "." + obj.Name()
		}
		return obj.Name()
	}
	return obj.Pkg().Name() + "." + obj.Name()
}

// callParams are a call's arguments without the receiver of a static
// method call, so that table indexes count parameters only.
func callParams(common *ssa.CallCommon) []ssa.Value {
	if !common.IsInvoke() {
		if callee := common.StaticCallee(); callee != nil && callee.Signature.Recv() != nil && len(common.Args) > 0 {
			return common.Args[1:]
		}
	}
	return common.Args
}

// resolve returns the functions a handler or goroutine value runs: a
// function, a closure, a method value, the methods of a value boxed into
// an interface (ServeHTTP of an http.Handler, the methods of a gRPC
// service), through conversions, variadic slices, phis and, to a small
// depth, middleware calls that wrap a handler (mw(h)).
func (f *Finder) resolve(v ssa.Value, depth int) []*ssa.Function {
	if v == nil || depth < 0 {
		return nil
	}
	switch v := v.(type) {
	case *ssa.Function:
		return []*ssa.Function{declared(v)}
	case *ssa.MakeClosure:
		if fn, ok := v.Fn.(*ssa.Function); ok {
			return []*ssa.Function{declared(fn)}
		}
	case *ssa.MakeInterface:
		if _, isFunc := v.X.Type().Underlying().(*types.Signature); isFunc {
			return f.resolve(v.X, depth)
		}
		return interfaceMethods(v.X.Type(), v.Type(), v.Parent().Prog)
	case *ssa.ChangeType:
		return f.resolve(v.X, depth)
	case *ssa.Convert:
		return f.resolve(v.X, depth)
	case *ssa.ChangeInterface:
		return f.resolve(v.X, depth)
	case *ssa.Slice:
		return f.resolve(v.X, depth)
	case *ssa.Alloc:
		var out []*ssa.Function
		for _, elem := range ssautil.StoredElements(v) {
			out = append(out, f.resolve(elem, depth-1)...)
		}
		return out
	case *ssa.Phi:
		var out []*ssa.Function
		for _, e := range v.Edges {
			out = append(out, f.resolve(e, depth-1)...)
		}
		return out
	case *ssa.UnOp, *ssa.Field:
		// A handler kept in one of the package's func fields (paygate's
		// HandlerFunc(c.CreateUserTransfer), filled by a factory in its
		// constructor): what the package stores there.
		fns, _ := f.fieldFuncs().OfValue(v)
		return fns
	case *ssa.Call:
		// A middleware wrapping a handler: what runs is the handler.
		var out []*ssa.Function
		for _, arg := range callParams(v.Common()) {
			if isHandlerValue(arg.Type()) {
				out = append(out, f.resolve(arg, depth-1)...)
			}
		}
		// A factory returning the handler (EndpointStatuses(cfg) returning
		// func(c *fiber.Ctx) error {…}): what runs is what it returns.
		if callee := v.Common().StaticCallee(); callee != nil && len(out) == 0 {
			if _, isFunc := v.Type().Underlying().(*types.Signature); isFunc {
				for _, b := range callee.Blocks {
					if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && len(ret.Results) == 1 {
						out = append(out, f.resolve(ret.Results[0], depth-1)...)
					}
				}
			}
		}
		return out
	}
	return nil
}

// isHandlerValue: a func value or an interface value, what a middleware
// takes as the handler it wraps.
func isHandlerValue(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Signature, *types.Interface:
		return true
	}
	return false
}

// interfaceMethods returns the methods of the concrete type that implement
// the interface (every exported method when the interface is empty, as
// grpc's RegisterService takes any).
func interfaceMethods(concrete, iface types.Type, prog *ssa.Program) []*ssa.Function {
	it, ok := iface.Underlying().(*types.Interface)
	if !ok || prog == nil || types.IsInterface(concrete) {
		return nil
	}
	mset := prog.MethodSets.MethodSet(concrete)
	var out []*ssa.Function
	for i := 0; i < mset.Len(); i++ {
		sel := mset.At(i)
		m := sel.Obj()
		if !m.Exported() {
			continue
		}
		if it.NumMethods() > 0 && !declares(it, m.Name()) {
			continue
		}
		if fn := methodValue(prog, sel); fn != nil {
			out = append(out, declared(fn))
		}
	}
	return out
}

func declares(it *types.Interface, name string) bool {
	for i := 0; i < it.NumMethods(); i++ {
		if it.Method(i).Name() == name {
			return true
		}
	}
	return false
}

func methodValue(prog *ssa.Program, sel *types.Selection) (fn *ssa.Function) {
	defer func() {
		if recover() != nil {
			fn = nil // a generic or abstract method: nothing to run
		}
	}()
	return prog.MethodValue(sel)
}

// declared steps from a synthetic wrapper (a bound method value, a method
// promoted through a pointer or an embedded field) to the method it calls.
func declared(fn *ssa.Function) *ssa.Function {
	if fn.Synthetic == "" {
		return fn
	}
	obj, ok := fn.Object().(*types.Func)
	if !ok {
		return fn
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if call, ok := instr.(ssa.CallInstruction); ok {
				if callee := call.Common().StaticCallee(); callee != nil && callee.Object() == obj {
					return declared(callee)
				}
			}
		}
	}
	return fn
}

func funcName(fn *ssa.Function) string {
	if obj, ok := fn.Object().(*types.Func); ok && obj.Pkg() != nil {
		return shortFuncName(obj) + "()"
	}
	if fn.Parent() != nil {
		return "func literal in " + funcName(fn.Parent())
	}
	return fn.Name() + "()"
}

// inFramework reports whether fn is a framework's own code.
func inFramework(fn *ssa.Function) bool {
	if fn.Pkg == nil && fn.Object() == nil {
		return false
	}
	var path string
	if fn.Pkg != nil {
		path = fn.Pkg.Pkg.Path()
	} else if fn.Object().Pkg() != nil {
		path = fn.Object().Pkg().Path()
	}
	return catalog.InPackages(path, frameworkPackages)
}

// fieldFuncs indexes what the package stores in its func fields, once per
// Find.
func (f *Finder) fieldFuncs() *ssautil.FieldCallees {
	if f.fields == nil {
		f.fields = ssautil.NewFieldCallees(f.pkg, f.funcs)
	}
	return f.fields
}
