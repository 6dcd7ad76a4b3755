package healthprobe

import (
	"go/constant"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/entrypoints"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// probe is a function a load balancer or orchestrator runs when it polls
// an instance: a handler registered for a probe's route, the gRPC health
// service's Check or Watch, or a check func registered with a health
// library.
type probe struct {
	fn    *ssa.Function
	kind  catalog.ProbeKind
	route string    // how users know it: `route "/healthz"`, `the gRPC health service`
	at    token.Pos // the registration, NoPos for the gRPC health service
	// bind resolves the probe function's parameter or free variable i to
	// the value the registration gave it and the function that holds it.
	bind binder
	// lib is a health library's own check built around a pool or client
	// (healthcheck.DatabasePingCheck(db, …)): the call, and the argument.
	lib    *ssa.Call
	libArg ssa.Value
	// elsewhere is what a handler whose body is in another package
	// reaches (its fact, or its factory's), and its name.
	elsewhere *reachesShared
	handler   string
}

type binder func(i int) (ssa.Value, *ssa.Function)

func noBind(int) (ssa.Value, *ssa.Function) { return nil, nil }

func (c *checker) findProbes() []probe {
	var out []probe
	for _, fn := range c.funcs {
		out = append(out, c.grpcHealth(fn)...)
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch x := instr.(type) {
				case *ssa.Call:
					out = append(out, c.routeProbes(fn, x.Common())...)
					out = append(out, c.libraryProbes(fn, x)...)
				case *ssa.MapUpdate:
					out = append(out, c.checkMapProbes(fn, x)...)
				}
			}
		}
	}
	return out
}

// ---- routes ----

// probeKind says whether a route is a probe's: its path's last segment is
// a probe's name (ProbePaths), or the whole path is (ProbeTopLevelPaths),
// which needs the prefix of the group it is registered on to be known.
func probeKind(route string, prefixKnown bool) catalog.ProbeKind {
	if i := strings.LastIndexByte(route, ' '); i >= 0 {
		route = route[i+1:] // "GET /healthz"
	}
	route = strings.TrimSuffix(strings.TrimSuffix(strings.ToLower(route), "{$}"), "/")
	segments := strings.Split(strings.TrimPrefix(route, "/"), "/")
	last := segments[len(segments)-1]
	if i := strings.LastIndex(last, entrypoints.Elided); i >= 0 {
		// "GET "+cfg.Webroot+"readyz": a configured prefix, then the
		// probe's name; where the path starts is not known.
		last, prefixKnown = last[i+len(entrypoints.Elided):], false
	}
	if k, ok := catalog.ProbePaths[last]; ok {
		return k
	}
	if k, ok := catalog.ProbeTopLevelPaths[last]; ok && len(segments) == 1 && prefixKnown {
		return k
	}
	return ""
}

func (c *checker) routeProbes(parent *ssa.Function, common *ssa.CallCommon) []probe {
	route, handlers, ok := entrypoints.Registration(common)
	if !ok {
		route, handlers, ok = builderRoute(common)
	}
	if !ok {
		route, handlers, ok = ownRouterRoute(common)
	}
	if !ok {
		return nil
	}
	prefix, known := routePrefix(common)
	if !strings.HasPrefix(route, "/") && strings.Contains(route, " /") {
		method, path, _ := strings.Cut(route, " ")
		route = method + " " + prefix + path
	} else {
		route = prefix + route
	}
	kind := probeKind(route, known)
	if kind == "" {
		return nil
	}
	var out []probe
	for _, h := range handlers {
		for _, t := range c.resolve(parent, h, noBind, 3) {
			out = append(out, probeOf(t, kind, "route "+strconv.Quote(route), common.Pos()))
		}
	}
	return out
}

// builderRoute recognises a route builder of the project's own, whose path
// and handler are given to different calls of one chain (authn-server's
// route.Get("/health").SecuredWith(route.Unsecured()).Handle(h)): a
// method call handed a net/http handler, on a value a chain of at most
// four calls made from a call with a constant path ("/…").
func builderRoute(common *ssa.CallCommon) (route string, handlers []ssa.Value, ok bool) {
	if common.IsInvoke() || common.Signature().Recv() == nil || len(common.Args) < 2 {
		return "", nil, false
	}
	for _, a := range common.Args[1:] {
		if isHTTPHandler(a.Type()) {
			handlers = append(handlers, a)
		}
	}
	if len(handlers) == 0 {
		return "", nil, false
	}
	v := common.Args[0]
	for range 4 {
		if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
			v = load.X // a value receiver's copy: route.Get(…).SecuredWith on a *Route
		}
		call, isCall := v.(*ssa.Call)
		if !isCall || call.Call.IsInvoke() {
			return "", nil, false
		}
		for _, a := range call.Call.Args {
			if k, isConst := a.(*ssa.Const); isConst && k.Value != nil && k.Value.Kind() == constant.String &&
				strings.HasPrefix(constant.StringVal(k.Value), "/") {
				return constant.StringVal(k.Value), handlers, true
			}
		}
		if call.Call.Signature().Recv() == nil || len(call.Call.Args) == 0 {
			return "", nil, false
		}
		v = call.Call.Args[0]
	}
	return "", nil, false
}

// routerVerbs name the methods of a router that register a route.
var routerVerbs = map[string]bool{
	"Get": true, "Head": true, "Post": true, "Put": true, "Patch": true, "Delete": true, "Options": true,
	"Any": true, "Method": true, "Methods": true, "Handle": true, "HandleFunc": true,
}

// ownRouterRoute recognises a project's own router (gitea's
// modules/web.Router: routes.Get("/api/healthz", healthcheck.Check)): a
// method named for what it routes (routerVerbs) on a type that is itself a
// net/http handler (it serves the routes it is given), handed a path (a
// constant "/…", or a concatenation ending in one) and, after it, the
// handlers, whatever their static type (gitea's are ...any).
func ownRouterRoute(common *ssa.CallCommon) (route string, handlers []ssa.Value, ok bool) {
	callee := common.StaticCallee()
	if callee == nil || callee.Signature.Recv() == nil || !routerVerbs[callee.Name()] || len(common.Args) < 3 ||
		!isHTTPHandler(callee.Signature.Recv().Type()) {
		return "", nil, false
	}
	params := common.Args[1:]
	for i, p := range params[:len(params)-1] {
		if route, ok := entrypoints.Path(p); ok && (strings.HasPrefix(route, "/") || strings.HasPrefix(route, entrypoints.Elided)) {
			return route, params[i+1:], true
		}
	}
	return "", nil, false
}

// isHTTPHandler reports whether t is a net/http handler: it has ServeHTTP,
// or is a func(http.ResponseWriter, *http.Request).
func isHTTPHandler(t types.Type) bool {
	if sig, ok := t.Underlying().(*types.Signature); ok {
		return sig.Params().Len() == 2 && isNetHTTP(sig.Params().At(0).Type(), "ResponseWriter") &&
			isNetHTTP(sig.Params().At(1).Type(), "Request")
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, "ServeHTTP")
	fn, ok := obj.(*types.Func)
	return ok && fn.Signature().Params().Len() == 2
}

// isNetHTTP reports whether t is net/http's type name, or a pointer to it.
func isNetHTTP(t types.Type, name string) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := types.Unalias(t).(*types.Named)
	return ok && named.Obj().Pkg() != nil && named.Obj().Pkg().Path() == "net/http" && named.Obj().Name() == name
}

// routePrefix is the path prefix of the group a registration is made on
// (r.Group("/api").GET("/ping", h): "/api"), and whether it is known: the
// router is one this function makes, or a group of one (a router passed
// in as a parameter or kept in a field may be anyone's group).
func routePrefix(common *ssa.CallCommon) (prefix string, known bool) {
	v := ssautil.Receiver(common)
	if v == nil {
		return "", true // net/http's package-level mux
	}
	for depth := 0; depth < 8; depth++ {
		if catalog.ProbeRootRouters[catalog.TypeKey(v.Type())] {
			return prefix, true
		}
		switch x := v.(type) {
		case *ssa.FieldAddr:
			if !embedded(x) {
				return prefix, false
			}
			v = x.X // gin's Engine embeds its root RouterGroup
		case *ssa.MakeInterface:
			v = x.X
		case *ssa.ChangeInterface:
			v = x.X
		case *ssa.Call:
			m := calledMethod(x.Common())
			if m == nil {
				return prefix, false
			}
			args := x.Common().Args
			if !x.Common().IsInvoke() && m.Signature().Recv() != nil && len(args) > 0 {
				args = args[1:]
			}
			switch {
			case m.Name() == "Group" && len(args) > 0:
				c, ok := args[0].(*ssa.Const)
				if !ok || c.Value == nil || c.Value.Kind() != constant.String {
					return prefix, false
				}
				prefix = strings.TrimSuffix(constant.StringVal(c.Value), "/") + prefix
			case m.Name() == "With" || m.Name() == "Use":
				// chi's r.With(mw): the same prefix.
			case m.Signature().Recv() == nil:
				return prefix, true // a router made here: gin.New(), http.NewServeMux()
			default:
				return prefix, false
			}
			v = ssautil.Receiver(x.Common())
		case *ssa.Parameter:
			// chi's r.Route("/health", func(r chi.Router) {…}): the
			// closure's router is the group.
			pattern, outer, ok := subrouterOf(x)
			if !ok {
				return prefix, false
			}
			prefix = strings.TrimSuffix(pattern, "/") + prefix
			v = outer
		default:
			return prefix, false
		}
	}
	return prefix, false
}

// subrouterOf: a closure's router parameter, when the closure is handed to
// a Route(pattern, fn) or Group(fn) call of the router it is made beside:
// the pattern ("" for a group) and that router.
func subrouterOf(p *ssa.Parameter) (pattern string, router ssa.Value, ok bool) {
	fn := p.Parent()
	if fn == nil || fn.Parent() == nil || len(fn.Params) != 1 || fn.Params[0] != p {
		return "", nil, false
	}
	for _, b := range fn.Parent().Blocks {
		for _, instr := range b.Instrs {
			mc, isClosure := instr.(*ssa.MakeClosure)
			if !isClosure || mc.Fn != fn {
				continue
			}
			for _, ref := range ssautil.Referrers(mc) {
				call, isCall := ref.(ssa.CallInstruction)
				if !isCall {
					continue
				}
				m := calledMethod(call.Common())
				args := call.Common().Args
				if !call.Common().IsInvoke() && len(args) > 0 {
					args = args[1:]
				}
				switch {
				case m != nil && m.Name() == "Group" && len(args) == 1:
					return "", ssautil.Receiver(call.Common()), true
				case m != nil && m.Name() == "Route" && len(args) == 2:
					if c, isConst := args[0].(*ssa.Const); isConst && c.Value != nil && c.Value.Kind() == constant.String {
						return constant.StringVal(c.Value), ssautil.Receiver(call.Common()), true
					}
				}
			}
		}
	}
	return "", nil, false
}

type target struct {
	fn   *ssa.Function
	bind binder
	// elsewhere, handler: a closure another package's factory returns,
	// known by the factory's fact.
	elsewhere *reachesShared
	handler   string
}

// probeOf makes a probe of a resolved handler.
func probeOf(t target, kind catalog.ProbeKind, route string, at token.Pos) probe {
	return probe{fn: t.fn, kind: kind, route: route, at: at, bind: t.bind, elsewhere: t.elsewhere, handler: t.handler}
}

// resolve returns the functions a handler value runs, with how their
// parameters and free variables are bound where the value is made: a
// function, a closure, a method value, a handler type's ServeHTTP, the
// handlers in a variadic slice, and the closures a factory of this package
// returns (healthz(db) returning func(w, r)).
func (c *checker) resolve(fn *ssa.Function, v ssa.Value, outer binder, depth int) []target {
	if v == nil || depth < 0 {
		return nil
	}
	switch x := v.(type) {
	case *ssa.Function:
		return []target{{fn: x, bind: noBind}}
	case *ssa.MakeClosure:
		f, _ := x.Fn.(*ssa.Function)
		if f == nil {
			return nil
		}
		bind := c.closureBinder(fn, x, outer)
		if f.Synthetic != "" && len(x.Bindings) == 1 {
			// A method value: the method, its receiver the binding.
			if m := boundMethod(f); m != nil {
				return []target{{fn: m, bind: func(i int) (ssa.Value, *ssa.Function) {
					if i == 0 {
						return bind(freeVarBase)
					}
					return nil, nil
				}}}
			}
		}
		return []target{{fn: f, bind: bind}}
	case *ssa.MakeInterface:
		if _, isFunc := x.X.Type().Underlying().(*types.Signature); isFunc {
			return c.resolve(fn, x.X, outer, depth)
		}
		if m := serveHTTP(fn.Prog, x.X.Type()); m != nil {
			recv := x.X
			return []target{{fn: m, bind: func(i int) (ssa.Value, *ssa.Function) {
				if i == 0 {
					return recv, fn
				}
				return nil, nil
			}}}
		}
	case *ssa.ChangeType:
		return c.resolve(fn, x.X, outer, depth)
	case *ssa.Convert:
		return c.resolve(fn, x.X, outer, depth)
	case *ssa.Slice:
		return c.resolve(fn, x.X, outer, depth)
	case *ssa.Alloc:
		var out []target
		for _, elem := range ssautil.StoredElements(x) {
			out = append(out, c.resolve(fn, elem, outer, depth-1)...)
		}
		return out
	case *ssa.Call:
		return c.factoryResults(fn, x, outer, depth-1)
	}
	return nil
}

// closureBinder binds a closure's free variable i (numbered from
// freeVarBase) to its binding where the closure is made; a binding that is
// the maker's own parameter or free variable is bound further out.
func (c *checker) closureBinder(fn *ssa.Function, mc *ssa.MakeClosure, outer binder) binder {
	return func(i int) (ssa.Value, *ssa.Function) {
		if i < freeVarBase || i-freeVarBase >= len(mc.Bindings) {
			return nil, nil
		}
		b := mc.Bindings[i-freeVarBase]
		if alloc, ok := b.(*ssa.Alloc); ok {
			if stored := storedIn(alloc); stored != nil {
				b = stored
			}
		}
		return bindFurther(fn, b, outer)
	}
}

func bindFurther(fn *ssa.Function, v ssa.Value, outer binder) (ssa.Value, *ssa.Function) {
	switch x := v.(type) {
	case *ssa.Parameter:
		for i, p := range fn.Params {
			if p == x {
				if ov, of := outer(i); ov != nil {
					return ov, of
				}
			}
		}
	case *ssa.FreeVar:
		for i, fv := range fn.FreeVars {
			if fv == x {
				if ov, of := outer(freeVarBase + i); ov != nil {
					return ov, of
				}
			}
		}
	}
	return v, fn
}

// factoryResults: the handlers a call returns (a factory of this package
// returning a closure), and the handlers a middleware call wraps.
func (c *checker) factoryResults(fn *ssa.Function, call *ssa.Call, outer binder, depth int) []target {
	var out []target
	args := call.Common().Args
	callBind := func(i int) (ssa.Value, *ssa.Function) {
		if i < len(args) {
			return bindFurther(fn, args[i], outer)
		}
		return nil, nil
	}
	if f := c.importedFactory(call.Common()); f != nil {
		out = append(out, target{bind: callBind, elsewhere: &f.Use, handler: f.Handler})
	}
	if callee := call.Common().StaticCallee(); callee != nil && c.local[callee] {
		// The factory's parameter i is the call's argument i.
		for _, b := range callee.Blocks {
			if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && len(ret.Results) > 0 {
				out = append(out, c.resolve(callee, ret.Results[0], callBind, depth)...)
			}
		}
	}
	for _, arg := range args {
		switch arg.Type().Underlying().(type) {
		case *types.Signature, *types.Interface:
			out = append(out, c.resolve(fn, arg, outer, depth)...)
		}
	}
	return out
}

// boundMethod is the method a bound method value's wrapper calls.
func boundMethod(wrapper *ssa.Function) *ssa.Function {
	for _, b := range wrapper.Blocks {
		for _, instr := range b.Instrs {
			if call, ok := instr.(ssa.CallInstruction); ok {
				if callee := call.Common().StaticCallee(); callee != nil {
					return callee
				}
			}
		}
	}
	return nil
}

// serveHTTP is the ServeHTTP method of a handler type.
func serveHTTP(prog *ssa.Program, t types.Type) *ssa.Function {
	if prog == nil || types.IsInterface(t) {
		return nil
	}
	sel := prog.MethodSets.MethodSet(t).Lookup(nil, "ServeHTTP")
	if sel == nil {
		return nil
	}
	return methodValue(prog, sel)
}

func methodValue(prog *ssa.Program, sel *types.Selection) (fn *ssa.Function) {
	defer func() {
		if recover() != nil {
			fn = nil // a generic or abstract method: nothing to run
		}
	}()
	return prog.MethodValue(sel)
}

// ---- the gRPC health service ----

// grpcHealth: Check and Watch of a type implementing the gRPC health
// service (grpc_health_v1.HealthServer): they take its request.
func (c *checker) grpcHealth(fn *ssa.Function) []probe {
	obj, ok := fn.Object().(*types.Func)
	if !ok || fn.Signature.Recv() == nil || (obj.Name() != "Check" && obj.Name() != "Watch") {
		return nil
	}
	params := fn.Signature.Params()
	for i := 0; i < params.Len(); i++ {
		if catalog.TypeKey(params.At(i).Type()) == catalog.GRPCHealthRequestType {
			return []probe{{fn: fn, kind: catalog.Health, route: "the gRPC health service's " + obj.Name(), bind: noBind}}
		}
	}
	return nil
}

// ---- health libraries ----

// libraryProbes: the check funcs a health library's registration takes
// (ProbeChecks), and its own checks built around a pool
// (ProbeCheckMakers).
func (c *checker) libraryProbes(parent *ssa.Function, call *ssa.Call) []probe {
	m := calledMethod(call.Common())
	if m == nil {
		return nil
	}
	row, ok := catalog.ProbeChecks[catalog.Key(m)]
	if !ok {
		return nil
	}
	params := call.Common().Args
	if !call.Common().IsInvoke() && m.Signature().Recv() != nil && len(params) > 0 {
		params = params[1:]
	}
	if row.Arg >= len(params) {
		return nil
	}
	name := "the " + string(row.Kind) + " check registered with " + callName(call.Common())
	var out []probe
	for _, v := range checkValues(params[row.Arg], row.Field) {
		if maker, arg := checkMaker(v); maker != nil {
			out = append(out, probe{fn: parent, kind: row.Kind, route: name, at: call.Pos(), lib: maker, libArg: arg, bind: noBind})
			continue
		}
		for _, t := range c.resolve(parent, v, noBind, 2) {
			out = append(out, probeOf(t, row.Kind, name, call.Pos()))
		}
	}
	return out
}

// checkValues are the check funcs an argument holds: itself, or the
// values stored into the named field of the struct (or of each struct of
// the variadic slice) passed.
func checkValues(arg ssa.Value, field string) []ssa.Value {
	if field == "" {
		return []ssa.Value{arg}
	}
	var addrs []ssa.Value
	switch x := arg.(type) {
	case *ssa.UnOp: // a struct literal: *alloc
		addrs = append(addrs, x.X)
	case *ssa.Slice: // variadic: the array's elements
		for _, ref := range ssautil.Referrers(x.X) {
			ia, ok := ref.(*ssa.IndexAddr)
			if !ok {
				continue
			}
			addrs = append(addrs, ia)
			for _, st := range ssautil.Referrers(ia) {
				// An element built apart and copied in: *ia = *lit.
				if store, ok := st.(*ssa.Store); ok && store.Addr == ia {
					if load, ok := store.Val.(*ssa.UnOp); ok {
						addrs = append(addrs, load.X)
					}
				}
			}
		}
	}
	var out []ssa.Value
	for _, addr := range addrs {
		for _, ref := range ssautil.Referrers(addr) {
			fa, ok := ref.(*ssa.FieldAddr)
			if !ok {
				continue
			}
			if v, _ := varOf(fa); v == nil || v.Name() != field {
				continue
			}
			for _, st := range ssautil.Referrers(fa) {
				if store, ok := st.(*ssa.Store); ok && store.Addr == fa {
					out = append(out, store.Val)
				}
			}
		}
	}
	return out
}

// checkMaker recognises a library's own check (ProbeCheckMakers) and the
// argument it is built around. A wrapper that runs a check in the
// background (heptiolabs' Async) is neither: its result is a cached status.
func checkMaker(v ssa.Value) (*ssa.Call, ssa.Value) {
	call, ok := v.(*ssa.Call)
	if !ok {
		return nil, nil
	}
	m := calledMethod(call.Common())
	if m == nil {
		return nil, nil
	}
	row, ok := catalog.ProbeCheckMakers[catalog.Key(m)]
	if !ok || row.Arg >= len(call.Common().Args) {
		return nil, nil
	}
	return call, call.Common().Args[row.Arg]
}

// checkMapProbes: check funcs stored into a health library's map of
// checks (ory's healthx.ReadyCheckers{"db": f}).
func (c *checker) checkMapProbes(parent *ssa.Function, up *ssa.MapUpdate) []probe {
	kind, ok := catalog.ProbeCheckMaps[catalog.TypeKey(up.Map.Type())]
	if !ok {
		return nil
	}
	name := "the " + string(kind) + " check"
	if k, ok := up.Key.(*ssa.Const); ok && k.Value != nil {
		name += " " + k.Value.ExactString()
	}
	var out []probe
	for _, t := range c.resolve(parent, up.Value, noBind, 2) {
		out = append(out, probeOf(t, kind, name, up.Pos()))
	}
	return out
}
