package healthprobe

import (
	"go/build"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/netio"
	"github.com/bhlint/bhlint/internal/pkgscope"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// callUse is the shared resource a call reaches, if any: a method of a
// pool or client type that needs a connection, a function of this package
// or another (by its fact) that reaches one, an interface method one of
// whose implementations in the visible packages does, or a call the
// network catalogue knows to go through a shared client (http.Get).
func (c *checker) callUse(fn *ssa.Function, common *ssa.CallCommon) *use {
	if u, direct := c.resourceCall(fn, common); direct {
		return u
	}
	if callee := common.StaticCallee(); callee != nil {
		if r := c.reachOf(callee); r != nil {
			return c.endAt(c.through(fn, r, common, funcName(callee)), ssautil.Origin(callee).Object())
		}
		if u := c.poolHandedThrough(fn, common, callee); u != nil {
			return u
		}
	} else if field, owner := funcField(common); field != nil {
		return c.fieldCallUse(fn, common, field, owner)
	} else if common.IsInvoke() {
		if u := c.accessorUse(fn, common); u != nil {
			return u
		}
		if concrete, known := c.storedTypes(common.Value); known {
			return c.invokeOn(fn, common, concrete)
		}
		for _, impl := range c.implementationsOf(common.Method) {
			if r := c.reachOfObj(impl); r != nil {
				return c.endAt(c.through(fn, r, common, netio.Name(impl)), impl)
			}
		}
		return c.poolBehindInterface(fn, common)
	}
	return nil
}

// poolHandedThrough: the callee calls a method of the module's interface
// on one of its parameters (by its callsThrough fact), and this call hands
// it a pool or client of the catalogue in that parameter: sqlc's queries
// generated with the handle as an argument (q.Health(ctx, a.pool), whose
// db DBTX runs db.Query), where the package declaring the interface may
// not even import the pool's.
func (c *checker) poolHandedThrough(fn *ssa.Function, common *ssa.CallCommon, callee *ssa.Function) *use {
	obj, ok := ssautil.Origin(callee).Object().(*types.Func)
	if !ok || obj.Pkg() == nil || obj.Pkg() == c.pass.Pkg {
		return nil
	}
	var fact callsThrough
	if !c.pass.ImportObjectFact(obj.Origin(), &fact) {
		return nil
	}
	for _, d := range fact.Calls {
		if d.Param < 0 || d.Field != "" {
			continue
		}
		mi, ok := argument(common, d.Param).(*ssa.MakeInterface)
		if !ok {
			continue
		}
		noun := catalog.ResourceNoun(mi.X.Type())
		if noun == "" {
			continue
		}
		m, _, _ := types.LookupFieldOrMethod(mi.X.Type(), true, nil, methodName(d.Method))
		impl, ok := m.(*types.Func)
		if !ok || catalog.ProbeInProcessMethods.Has(impl) {
			continue
		}
		name, param, own := c.resourceOf(fn, mi.X, noun)
		if own {
			return nil
		}
		return &use{reachesShared: reachesShared{Noun: noun, Resource: name, Call: netio.Name(impl), Param: param,
			Path: capPath(append([]string{funcName(callee)}, d.Path...))}, site: common.Pos()}
	}
	return nil
}

// methodName is the method's name in a throughCall's Method,
// "(sqlcv1.DBTX).Query".
func methodName(method string) string {
	if i := strings.LastIndexByte(method, '.'); i >= 0 {
		return method[i+1:]
	}
	return method
}

// storedTypes are the concrete types of the values this package stores in
// the field or variable an interface value was loaded from (known: every
// stored value's type is concrete): which implementations a call on it
// runs, without guessing among all that are visible.
func (c *checker) storedTypes(v ssa.Value) (out []types.Type, known bool) {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil, false
	}
	field, _ := varOf(load.X)
	// An exported one may be set by other packages too.
	if field == nil || field.Exported() || field.Pkg() != c.pass.Pkg || len(c.vars.stores[field]) == 0 {
		return nil, false
	}
	for _, val := range c.vars.stores[field] {
		mi, ok := val.(*ssa.MakeInterface)
		if !ok {
			return nil, false
		}
		out = append(out, mi.X.Type())
	}
	return out, true
}

// invokeOn is the use a call through an interface reaches when the
// concrete types of the value are known: a pool or client itself, or a
// type whose method reaches one.
func (c *checker) invokeOn(fn *ssa.Function, common *ssa.CallCommon, concrete []types.Type) *use {
	m := common.Method
	for _, t := range concrete {
		obj, _, _ := types.LookupFieldOrMethod(t, true, m.Pkg(), m.Name())
		impl, ok := obj.(*types.Func)
		if !ok {
			continue
		}
		if noun := catalog.ResourceNoun(t); noun != "" {
			if catalog.ProbeInProcessMethods.Has(impl) {
				continue
			}
			name, param, own := c.resourceOf(fn, common.Value, noun)
			if own {
				continue
			}
			return &use{reachesShared: reachesShared{Noun: noun, Resource: name, Call: netio.Name(impl), Param: param}, at: common.Pos()}
		}
		if r := c.reachOfObj(impl); r != nil {
			return c.endAt(c.through(fn, r, common, netio.Name(impl)), impl)
		}
	}
	return nil
}

// poolBehindInterface: a call through the module's interface that a pool
// or client type implements itself (type Pinger interface{ Ping(ctx)
// error }, which *pgxpool.Pool satisfies): the value may be that pool.
func (c *checker) poolBehindInterface(fn *ssa.Function, common *ssa.CallCommon) *use {
	m := common.Method
	iface, ok := common.Value.Type().Underlying().(*types.Interface)
	if !ok || isLibraryPath(m.Pkg()) {
		return nil
	}
	for _, rt := range c.resourceTypes() {
		if !types.Implements(rt.typ, iface) {
			continue
		}
		obj, _, _ := types.LookupFieldOrMethod(rt.typ, true, m.Pkg(), m.Name())
		impl, ok := obj.(*types.Func)
		if !ok || catalog.ProbeInProcessMethods.Has(impl) {
			continue
		}
		name, param, own := c.resourceOf(fn, common.Value, rt.noun)
		if own {
			return nil
		}
		return &use{reachesShared: reachesShared{Noun: rt.noun, Resource: name, Call: netio.Name(impl), Param: param}, at: common.Pos()}
	}
	return nil
}

type resourceType struct {
	typ  types.Type
	noun string
}

// resourceTypes are the catalogue's pool and client types among the
// packages this one imports, directly or not.
func (c *checker) resourceTypes() []resourceType {
	if c.resTypes != nil {
		return *c.resTypes
	}
	var out []resourceType
	seen := map[*types.Package]bool{}
	var visit func(p *types.Package)
	visit = func(p *types.Package) {
		if seen[p] {
			return
		}
		seen[p] = true
		for _, imp := range p.Imports() {
			visit(imp)
		}
		if !catalog.InPackages(p.Path(), catalog.LanePackages) {
			return
		}
		for _, name := range p.Scope().Names() {
			tn, ok := p.Scope().Lookup(name).(*types.TypeName)
			if !ok || tn.IsAlias() {
				continue
			}
			for _, t := range []types.Type{tn.Type(), types.NewPointer(tn.Type())} {
				if noun, ok := catalog.ResourceTypes[catalog.TypeKey(t)]; ok && !types.IsInterface(t) {
					out = append(out, resourceType{t, noun})
				}
			}
		}
	}
	visit(c.pass.Pkg)
	c.resTypes = &out
	return out
}

// resourceCall: a method called on a pool or client value, or a
// catalogued network call through a shared client (a generated gRPC
// client's cc.Invoke, http.Get). direct says the call is one, whether or
// not it counts: statistics and settings answer from the process; a pool
// opened for the probe alone is its own.
func (c *checker) resourceCall(fn *ssa.Function, common *ssa.CallCommon) (u *use, direct bool) {
	method := calledMethod(common)
	if method == nil {
		return nil, false
	}
	recv, noun := resourceValue(ssautil.Receiver(common))
	if recv == nil {
		noun = networkNoun(method)
		if noun == "" {
			return nil, false
		}
		recv = ssautil.Receiver(common)
	}
	if catalog.ProbeInProcessMethods.Has(method) {
		return nil, true
	}
	u = &use{reachesShared: reachesShared{Noun: noun, Call: netio.Name(method), Param: -1}, at: common.Pos()}
	if recv == nil { // a package-level call: the package's default client
		u.Resource = catalog.ProbeDefaultClients[method.Pkg().Path()]
		return u, true
	}
	name, param, own := c.resourceOf(fn, recv, noun)
	if own {
		return nil, true
	}
	u.Resource, u.Param = name, param
	return u, true
}

// networkNoun: a catalogued network call of a package whose calls go
// through a shared client, and what that client is called.
func networkNoun(method *types.Func) string {
	if method.Pkg() == nil || !catalog.NetworkCalls.Has(method) {
		return ""
	}
	noun := catalog.ProbeNetworkClients[method.Pkg().Path()]
	if noun != "" && method.Signature().Recv() == nil && catalog.ProbeDefaultClients[method.Pkg().Path()] == "" {
		return "" // a package-level call of a package with no default client
	}
	return noun
}

func calledMethod(common *ssa.CallCommon) *types.Func {
	if common.IsInvoke() {
		return common.Method
	}
	if callee := common.StaticCallee(); callee != nil {
		obj, _ := ssautil.Origin(callee).Object().(*types.Func)
		return obj
	}
	return nil
}

// resourceValue is the pool or client a method is called on: the receiver,
// or the value whose embedded field it is (go-redis' commands are methods
// of an embedded cmdable, sqlx's of an embedded *sql.DB).
func resourceValue(v ssa.Value) (ssa.Value, string) {
	for depth := 0; v != nil && depth < 4; depth++ {
		if noun := catalog.ResourceNoun(v.Type()); noun != "" {
			return v, noun
		}
		switch x := v.(type) {
		case *ssa.UnOp:
			if fa, ok := x.X.(*ssa.FieldAddr); ok && x.Op == token.MUL && embedded(fa) {
				v = fa.X
				continue
			}
		case *ssa.Field:
			if embedded(x) {
				v = x.X
				continue
			}
		case *ssa.FieldAddr:
			if embedded(x) {
				v = x.X
				continue
			}
		}
		break
	}
	return nil, ""
}

func embedded(v ssa.Value) bool {
	f, _ := varOf(v)
	return f != nil && f.Embedded()
}

// reachOf is what a function reaches: this package's computation, or the
// fact of the package that declares it.
func (c *checker) reachOf(fn *ssa.Function) *reachesShared {
	fn = ssautil.Origin(fn)
	if c.local[fn] {
		c.rounds.Read(fn)
		if u := c.uses[fn]; u != nil {
			return &u.reachesShared
		}
		return nil
	}
	obj, ok := fn.Object().(*types.Func)
	if !ok {
		return nil
	}
	return c.reachOfObj(obj)
}

func (c *checker) reachOfObj(obj *types.Func) *reachesShared {
	obj = obj.Origin()
	if obj.Pkg() == c.pass.Pkg {
		if fn := c.byObj[obj]; fn != nil {
			return c.reachOf(fn)
		}
		return nil
	}
	var fact reachesShared
	if obj.Pkg() != nil && c.pass.ImportObjectFact(obj, &fact) {
		return &fact
	}
	return nil
}

// endAt records where a use through the callee ends: the resource's use
// when the callee is this package's, else the callee's declaration.
func (c *checker) endAt(u *use, callee types.Object) *use {
	if u == nil || callee == nil {
		return u
	}
	if fn := c.byObj[callee]; fn != nil {
		if cu := c.uses[fn]; cu != nil {
			u.at = cu.at
		}
		return u
	}
	u.decl = callee.Pos()
	return u
}

// through is a callee's use as seen from the caller: one more hop, and a
// resource the callee knew as a parameter named by the caller's argument.
func (c *checker) through(fn *ssa.Function, r *reachesShared, common *ssa.CallCommon, hop string) *use {
	u := &use{reachesShared: *r}
	u.SiteFile, u.SiteLine = "", 0 // the callee's call, not this function's
	u.Path = capPath(append([]string{hop}, r.Path...))
	u.Param = -1
	if mod := pkgscope.ModulePath(c.pass.Module); r.UseModule != "" && mod != "" && r.UseModule != mod {
		u.at = common.Pos() // this module's call into the one that uses it
	}
	if r.Param < 0 {
		return u
	}
	arg := argument(common, r.Param)
	if arg == nil {
		u.Resource = "the " + r.Noun + " passed to " + hop
		return u
	}
	name, param, own := c.resourceOf(fn, arg, r.Noun)
	if own {
		return nil
	}
	u.Resource, u.Param = name, param
	return u
}

// argument is the value a call passes as the callee's parameter i (the
// receiver counting as 0), or a closure's free variable.
func argument(common *ssa.CallCommon, i int) ssa.Value {
	if i >= freeVarBase {
		if mc, ok := common.Value.(*ssa.MakeClosure); ok && i-freeVarBase < len(mc.Bindings) {
			return mc.Bindings[i-freeVarBase]
		}
		return nil
	}
	args := common.Args
	if common.IsInvoke() {
		args = append([]ssa.Value{common.Value}, args...)
	}
	if i < len(args) {
		return args[i]
	}
	return nil
}

func capPath(path []string) []string {
	if len(path) > maxPath {
		return append(path[:1:1], path[len(path)-maxPath+1:]...)
	}
	return path
}

// ---- naming the resource ----

// resourceOf names the pool or client v is, as the user wrote it: the
// package variable or field it was loaded from, the parameter it came in
// by (param ≥ 0), or the call that returned it. own says the resource is
// the probe's own (opened for it alone): it is no shared failure domain.
func (c *checker) resourceOf(fn *ssa.Function, v ssa.Value, noun string) (name string, param int, own bool) {
	for depth := 0; depth < 8 && v != nil; depth++ {
		switch x := v.(type) {
		case *ssa.MakeInterface:
			v = x.X
			continue
		case *ssa.ChangeType:
			v = x.X
			continue
		case *ssa.ChangeInterface:
			v = x.X
			continue
		case *ssa.Convert:
			v = x.X
			continue
		case *ssa.TypeAssert:
			v = x.X
			continue
		case *ssa.Extract:
			v = x.Tuple
			continue
		case *ssa.Phi:
			v = x.Edges[0]
			continue
		case *ssa.FieldAddr:
			if embedded(x) {
				v = x.X
				continue
			}
		case *ssa.UnOp:
			if x.Op == token.MUL {
				if fv, ok := x.X.(*ssa.FreeVar); ok && slices.Contains(fn.FreeVars, fv) {
					// A captured variable's cell.
					return "", freeVarBase + slices.Index(fn.FreeVars, fv), false
				}
				if fa, ok := x.X.(*ssa.FieldAddr); ok && embedded(fa) {
					v = fa.X
					continue
				}
				if obj, owner := varOf(x.X); obj != nil {
					return varName(obj, owner), -1, c.ownVar(obj)
				}
				if alloc, ok := x.X.(*ssa.Alloc); ok {
					v = storedIn(alloc)
					continue
				}
			}
		case *ssa.Field:
			if embedded(x) {
				v = x.X
				continue
			}
			if obj, owner := varOf(x); obj != nil {
				return varName(obj, owner), -1, c.ownVar(obj)
			}
		case *ssa.Parameter:
			if i := slices.Index(fn.Params, x); i >= 0 {
				return "", i, false
			}
		case *ssa.FreeVar:
			if i := slices.Index(fn.FreeVars, x); i >= 0 {
				return "", freeVarBase + i, false
			}
		case *ssa.Call:
			if recv, _ := resourceValue(ssautil.Receiver(x.Common())); recv != nil {
				v = recv // a view of the pool it is called on: gorm's db.DB(), db.WithContext(ctx)
				continue
			}
			if callee := x.Common().StaticCallee(); callee != nil {
				if r := c.accessorOf(callee); r != nil {
					return r.Resource, -1, false // handed out, not opened: storage.DB()
				}
			}
			return "the " + noun + " returned by " + callName(x.Common()), -1, c.createdForProbe(fn, x)
		}
		break
	}
	return "a " + noun + " of " + funcName(fn), -1, false
}

// storedIn is what was stored in a local variable's cell (a variable a
// closure captures lives in one).
func storedIn(alloc *ssa.Alloc) ssa.Value {
	for _, ref := range ssautil.Referrers(alloc) {
		if st, ok := ref.(*ssa.Store); ok && st.Addr == alloc {
			return st.Val
		}
	}
	return nil
}

// varOf is the package variable or field an address or field read
// denotes, and the struct type that owns a field.
func varOf(v ssa.Value) (*types.Var, types.Type) {
	switch x := v.(type) {
	case *ssa.Global:
		obj, _ := x.Object().(*types.Var)
		return obj, nil
	case *ssa.FieldAddr:
		ptr, ok := x.X.Type().Underlying().(*types.Pointer)
		if !ok {
			return nil, nil
		}
		return fieldOf(ptr.Elem(), x.Field), ptr.Elem()
	case *ssa.Field:
		return fieldOf(x.X.Type(), x.Field), x.X.Type()
	}
	return nil, nil
}

// fieldOf is field i of the struct type t, as declared (not instantiated).
func fieldOf(t types.Type, i int) *types.Var {
	if f := ssautil.StructField(t, i); f != nil {
		return f.Origin()
	}
	return nil
}

// varName: "pools.Main" for a package variable, "Store.db" for a field.
func varName(v *types.Var, owner types.Type) string {
	if !v.IsField() {
		if v.Pkg() == nil {
			return v.Name()
		}
		return v.Pkg().Name() + "." + v.Name()
	}
	if named, ok := types.Unalias(owner).(*types.Named); ok {
		return named.Obj().Name() + "." + v.Name()
	}
	return v.Name()
}

func callName(common *ssa.CallCommon) string {
	if m := calledMethod(common); m != nil {
		return netio.Name(m)
	}
	return "a call"
}

// funcName names a function for messages and paths: "(*api.Server).Health",
// "store.Ping", "the func literal in main".
func funcName(fn *ssa.Function) string {
	if obj, ok := ssautil.Origin(fn).Object().(*types.Func); ok {
		return netio.Name(obj)
	}
	if parent := fn.Parent(); parent != nil {
		return "the func literal in " + strings.TrimPrefix(funcName(parent), "the func literal in ")
	}
	return fn.Name()
}

// ---- interface calls ----

// implementationsOf returns the methods implementing the interface method
// m among the named types of the packages visible here (this package, the
// interface's, and the imports): the module's implementations a probe's
// call through an interface may run. Interfaces of one shape share the
// answer: generated code asserts to a literal interface{ Validate() error }
// at every call site, each a type of its own, and asking each of them
// again took most of a protobuf package's analysis.
func (c *checker) implementationsOf(m *types.Func) []*types.Func {
	recv := m.Signature().Recv()
	iface, ok := recv.Type().Underlying().(*types.Interface)
	if !ok || iface.NumMethods() == 0 || isLibraryPath(m.Pkg()) {
		return nil
	}
	key := m.Pkg().Path() + " " + m.Name() + " " + types.TypeString(iface, nil)
	if impls, ok := c.impls[key]; ok {
		return impls
	}
	var out []*types.Func
	for _, pkg := range c.visiblePackages(m.Pkg()) {
		for _, named := range c.typesWithMethod(pkg, m.Name()) {
			if impl := ssautil.Implementation(named, iface, m); impl != nil && !slices.Contains(out, impl) {
				out = append(out, impl)
			}
		}
	}
	c.impls[key] = out
	return out
}

// typesWithMethod is pkg's concrete, non-generic named types whose method
// set (of the pointer, promoted methods included) has a method called
// name: the only ones that can implement an interface with that method.
// The index is built once per package, on first use.
func (c *checker) typesWithMethod(pkg *types.Package, name string) []*types.Named {
	index, ok := c.methodOwners[pkg]
	if !ok {
		index = map[string][]*types.Named{}
		for named := range ssautil.ConcreteTypes(pkg) {
			ms := types.NewMethodSet(types.NewPointer(named))
			for i := range ms.Len() {
				method := ms.At(i).Obj().Name()
				index[method] = append(index[method], named)
			}
		}
		c.methodOwners[pkg] = index
	}
	return index[name]
}

func (c *checker) visiblePackages(ifacePkg *types.Package) []*types.Package {
	pkgs := []*types.Package{c.pass.Pkg}
	if ifacePkg != nil && ifacePkg != c.pass.Pkg {
		pkgs = append(pkgs, ifacePkg)
	}
	for _, p := range c.pass.Pkg.Imports() {
		if !slices.Contains(pkgs, p) && !isLibraryPath(p) {
			pkgs = append(pkgs, p)
		}
	}
	return pkgs
}

// isLibraryPath: the standard library and the catalogue's libraries
// declare interfaces for everyone (io.Reader, redis.Cmdable): a call
// through one is not resolved to the program's types.
func isLibraryPath(p *types.Package) bool {
	if p == nil {
		return true
	}
	return isStd(p.Path()) || catalog.InPackages(p.Path(), catalog.LanePackages) || catalog.InPackages(p.Path(), catalog.ProbePackages)
}

var stdDirs sync.Map // import path → bool

// isStd reports whether an import path is a package of the standard
// library: a directory of GOROOT/src.
func isStd(path string) bool {
	if v, ok := stdDirs.Load(path); ok {
		return v.(bool)
	}
	fi, err := os.Stat(filepath.Join(build.Default.GOROOT, "src", filepath.FromSlash(path)))
	std := err == nil && fi.IsDir()
	stdDirs.Store(path, std)
	return std
}
