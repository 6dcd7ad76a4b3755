package healthprobe

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/objectpath"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/netio"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// A probe that calls a method of the module's interface reaches what the
// implementation it runs reaches. Where the handler value is built, the
// type stored in the interface is often known (api.HealthAPI{DB: db} with
// db a *database.GormDatabase); failing that, the implementations in the
// module decide, and those are often declared in packages the probe's
// package cannot see (the store's drivers, which only main imports). This
// file carries such a call in facts until a package sees it resolved.

// callsThrough marks a function that reaches no pool or client this
// package can see, but calls methods of the module's interfaces: the first
// such calls, and how to find the implementation each runs.
type callsThrough struct{ Calls []throughCall }

type throughCall struct {
	Pkg, Obj string   // the interface method: its package and object path
	Method   string   // "(api.HealthDatabase).Ping"
	Path     []string // the functions from the function to the call
	// Param, when ≥ 0, says the interface value is the function's
	// parameter Param (the receiver counting as 0) or, with Field set,
	// that parameter's field: where the caller builds it, the type stored
	// there is the implementation.
	Param int
	Field string
}

func (*callsThrough) AFact() {}
func (f *callsThrough) String() string {
	var calls []string
	for _, t := range f.Calls {
		calls = append(calls, t.String())
	}
	return "callsThrough(" + strings.Join(calls, "; ") + ")"
}

func (t throughCall) String() string {
	return strings.Join(append(append([]string(nil), t.Path...), t.Method), " → ")
}

// maxThrough bounds the interface calls a fact carries.
const maxThrough = 8

// pendingProbes is what a package passes on to those that import it (a
// package sees the package facts of its direct imports only, so each
// forwards its imports'): the probes that call through an interface no
// implementation of which it sees reaching a pool (Probes), those of
// them it or a package it imports resolved and reported (Resolved), and
// the implementations of the module's interface methods declared in it or
// in the packages it imports (Impls), which a package that imports the
// probe's and the implementation's may not see as types.
type pendingProbes struct {
	Probes   []pendingProbe
	Resolved []string
	Impls    []carriedImpl
}

// carriedImpl is a method implementing an interface method (Method: its
// package path and object path) that reaches a resource, or calls through
// interfaces in turn.
type carriedImpl struct {
	Method  string
	Impl    string // "(*sqlite.DB).FindMigrationHistoryList"
	File    string
	Line    int
	Reach   *reachesShared
	Through []throughCall
}

// maxCarried bounds the implementations a package passes on.
const maxCarried = 1500

type pendingProbe struct {
	Kind           catalog.ProbeKind
	Route, Handler string
	// File and Line: the call in the probe (or its registration) that
	// leads on; RegFile and RegLine: the registration, if any.
	File    string
	Line    int
	RegFile string
	RegLine int
	// Recv is the probe method's receiver type (types.TypeString, no
	// pointer): a package that resolves the probe and builds a value of
	// that type reports there, the line that wires the checkers.
	Recv    string
	Through []throughCall
}

func (p pendingProbe) key() string { return p.File + ":" + strconv.Itoa(p.Line) }

func (*pendingProbes) AFact() {}
func (f *pendingProbes) String() string {
	var probes, impls []string
	for _, p := range f.Probes {
		for _, t := range p.Through {
			probes = append(probes, p.Handler+": "+t.String())
		}
	}
	for _, im := range f.Impls {
		impls = append(impls, im.Impl)
	}
	return fmt.Sprintf("pendingProbes(probes: %s; resolved %d; impls: %s)", strings.Join(probes, ", "), len(f.Resolved), strings.Join(impls, ", "))
}

// dispatchDepth bounds the interface calls followed one behind another
// (a server's IsReady calling its datastore's).
const dispatchDepth = 3

// siteCall is a call through an interface and where fn's call that leads
// to it starts.
type siteCall struct {
	throughCall
	site token.Pos
}

// computeDispatch finds, to a fixed point, the functions of the package
// that reach no resource but call through the module's interfaces.
func (c *checker) computeDispatch() {
	for round := 0; round < 16; round++ {
		changed := false
		for _, fn := range c.funcs {
			if c.uses[fn] != nil {
				continue
			}
			calls := c.throughCalls(fn, nil)
			if len(calls) != len(c.ifaceCalls[fn]) {
				c.ifaceCalls[fn] = calls
				changed = true
			}
		}
		if !changed {
			return
		}
	}
}

func (c *checker) exportThrough() {
	for fn, calls := range c.ifaceCalls {
		if obj, ok := fn.Object().(*types.Func); ok && fn.Parent() == nil && len(calls) > 0 {
			f := &callsThrough{}
			for _, sc := range calls {
				f.Calls = append(f.Calls, sc.throughCall)
			}
			c.pass.ExportObjectFact(obj, f)
		}
	}
}

// throughCalls are the calls, by position, in fn's body that call through
// the module's interfaces (directly, or in a callee), up to maxThrough;
// calls skip rejects do not count.
func (c *checker) throughCalls(fn *ssa.Function, skip func(site token.Pos) bool) []siteCall {
	var out []siteCall
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			var common *ssa.CallCommon
			switch instr := instr.(type) {
			case *ssa.Call:
				common = instr.Common()
			case *ssa.Defer:
				common = instr.Common()
			case *ssa.Go:
				if !waitsFor(fn, instr) {
					continue
				}
				common = instr.Common()
			default:
				continue
			}
			calls := c.callThrough(fn, common)
			if len(calls) == 0 {
				continue
			}
			site := c.starts.Start(c.pass.Files, common.Pos())
			if skip != nil && skip(site) {
				continue
			}
			for _, t := range calls {
				out = append(out, siteCall{t, site})
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].site < out[j].site })
	if len(out) > maxThrough {
		out = out[:maxThrough]
	}
	return out
}

// callThrough: a call through the module's interface, or of a function
// that makes such calls.
func (c *checker) callThrough(fn *ssa.Function, common *ssa.CallCommon) []throughCall {
	if common.IsInvoke() {
		m := common.Method
		if isLibraryPath(m.Pkg()) {
			return nil
		}
		path, err := c.paths.For(m)
		if err != nil {
			return nil
		}
		param, field := interfaceOrigin(fn, common.Value)
		return []throughCall{{Pkg: m.Pkg().Path(), Obj: string(path), Method: netio.Name(m), Param: param, Field: field}}
	}
	callee := common.StaticCallee()
	if callee == nil {
		return nil
	}
	callee = ssautil.Origin(callee)
	var inner []throughCall
	if c.local[callee] {
		for _, sc := range c.ifaceCalls[callee] {
			inner = append(inner, sc.throughCall)
		}
	} else if obj, ok := callee.Object().(*types.Func); ok && obj.Pkg() != nil && obj.Pkg() != c.pass.Pkg {
		var fact callsThrough
		if c.pass.ImportObjectFact(obj.Origin(), &fact) {
			inner = fact.Calls
		}
	}
	var out []throughCall
	for _, d := range inner {
		t := d
		t.Path = capPath(append([]string{funcName(callee)}, d.Path...))
		t.Param, t.Field = -1, ""
		if d.Param < 0 {
			out = append(out, t)
			continue
		}
		if arg := argument(common, d.Param); arg != nil {
			param, field := interfaceOrigin(fn, arg)
			switch {
			case d.Field == "":
				t.Param, t.Field = param, field
			case field == "" && param >= 0:
				t.Param, t.Field = param, d.Field
			}
		}
		out = append(out, t)
	}
	return out
}

// interfaceOrigin: v is fn's parameter (or free variable), or a field of
// a parameter.
func interfaceOrigin(fn *ssa.Function, v ssa.Value) (param int, field string) {
	switch x := v.(type) {
	case *ssa.Parameter:
		return slices.Index(fn.Params, x), ""
	case *ssa.FreeVar:
		if i := slices.Index(fn.FreeVars, x); i >= 0 {
			return freeVarBase + i, ""
		}
	case *ssa.UnOp:
		if fa, ok := x.X.(*ssa.FieldAddr); ok && x.Op == token.MUL {
			if p, ok := fa.X.(*ssa.Parameter); ok {
				if f, _ := varOf(fa); f != nil {
					return slices.Index(fn.Params, p), f.Name()
				}
			}
		}
	case *ssa.Field:
		if p, ok := x.X.(*ssa.Parameter); ok {
			if f, _ := varOf(x); f != nil {
				return slices.Index(fn.Params, p), f.Name()
			}
		}
	}
	return -1, ""
}

// ---- resolving ----

// candidate is an implementation a call through an interface may run.
type candidate struct {
	name    string
	reach   *reachesShared
	through []throughCall
	fn      *types.Func // nil for one carried by facts
	decl    token.Pos
	// others are the other implementations that reach a pool: the probe
	// runs whichever the program wires, often each of them in turn (a
	// health server looping over its checkers), so the finding names all.
	others []otherReach
}

// otherReach is another implementation of the interface method that
// reaches a pool, and where it uses it.
type otherReach struct {
	name string
	at   token.Pos
}

// maxOthers bounds the other implementations a finding names.
const maxOthers = 8

// resolveThrough is the resource a call through the interface reaches,
// and the implementation that reaches it: the implementation stored where
// the probe's value is built (bound, when known), else the first
// implementation in the module that reaches one, named in the path.
func (c *checker) resolveThrough(d throughCall, bound []types.Type, depth int) (*reachesShared, *candidate) {
	if depth == 0 {
		return nil, nil
	}
	m := c.interfaceMethod(d)
	var cands []candidate
	if bound != nil {
		if m == nil {
			return nil, nil
		}
		for _, t := range bound {
			if cand, ok := c.typeCandidate(t, m, d); ok {
				cands = append(cands, cand)
			}
		}
	} else {
		cands = c.candidates(d, m)
	}
	// The implementation that reaches a pool most directly, and the first
	// by name among those: a store's drivers each ping their database in
	// one call, where a cloud driver's chain wanders into its metadata
	// client.
	var best *reachesShared
	var bestCand candidate
	reaching := map[int]*reachesShared{}
	for i, cand := range cands {
		r := cand.reach
		for _, next := range cand.through {
			if r != nil {
				break
			}
			r, _ = c.resolveThrough(next, nil, depth-1)
		}
		if r == nil {
			continue
		}
		reaching[i] = r
		if best == nil || len(r.Path) < len(best.Path) {
			best, bestCand = r, cand
		}
	}
	if best != nil {
		r, cand := best, bestCand
		cand.others = c.otherReaches(cands, reaching, best)
		out := *r
		out.Path = capPath(append(append(slices.Clone(d.Path), d.Method, cand.name), r.Path...))
		if cand.name == r.Call { // a pool or client's own method
			out.Path = capPath(append(slices.Clone(d.Path), d.Method))
		}
		if out.Param >= 0 {
			out.Resource = "the " + r.Noun + " " + cand.name + " is given"
			out.Param = -1
		}
		return &out, &cand
	}
	return nil, nil
}

// otherReaches are the implementations other than best's that reach a
// pool, in the candidates' order, each at its own call that leads to the
// pool (the line a fix changes, which a package of the module records
// even when the pool's use is in a library), else at the use, else at its
// declaration.
func (c *checker) otherReaches(cands []candidate, reaching map[int]*reachesShared, best *reachesShared) []otherReach {
	var out []otherReach
	for i, cand := range cands {
		r := reaching[i]
		if r == nil || r == best || len(out) == maxOthers {
			continue
		}
		at := c.posOf(r.SiteFile, r.SiteLine)
		if !at.IsValid() {
			at = c.posOf(r.UseFile, r.UseLine)
		}
		if own, ok := c.localUse(cand); ok {
			at = own
		}
		if !at.IsValid() {
			at = cand.decl
		}
		if at.IsValid() {
			out = append(out, otherReach{name: cand.name, at: at})
		}
	}
	return out
}

// typeCandidate is type t's method implementing m: a pool or client's
// own, or what it reaches or calls through.
func (c *checker) typeCandidate(t types.Type, m *types.Func, d throughCall) (candidate, bool) {
	obj, _, _ := types.LookupFieldOrMethod(t, true, m.Pkg(), m.Name())
	impl, ok := obj.(*types.Func)
	if !ok || impl == m {
		return candidate{}, false
	}
	cand := candidate{name: netio.Name(impl), fn: impl, decl: impl.Pos()}
	if noun := catalog.ResourceNoun(t); noun != "" {
		if catalog.ProbeInProcessMethods.Has(impl) {
			return candidate{}, false
		}
		cand.reach = &reachesShared{Noun: noun, Resource: "the " + noun + " behind " + d.Method, Call: cand.name, Param: -1}
		return cand, true
	}
	cand.reach = c.reachOfObj(impl)
	cand.through = c.throughOf(impl)
	return cand, cand.reach != nil || len(cand.through) > 0
}

// candidates are the module's implementations of the interface method: of
// the types this package sees, and carried by the facts of its imports,
// in name order.
func (c *checker) candidates(d throughCall, m *types.Func) []candidate {
	byName := map[string]candidate{}
	if m != nil {
		for _, t := range c.implementingTypes(m) {
			if cand, ok := c.typeCandidate(t, m, d); ok {
				byName[cand.name] = cand
			}
		}
	}
	for _, im := range c.carried()[d.Pkg+"."+d.Obj] {
		if _, ok := byName[im.Impl]; !ok {
			byName[im.Impl] = candidate{name: im.Impl, reach: im.Reach, through: im.Through, decl: c.posOf(im.File, im.Line)}
		}
	}
	var out []candidate
	for _, cand := range byName {
		out = append(out, cand)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// throughOf is an implementation's own calls through interfaces: this
// package's computation or its fact.
func (c *checker) throughOf(obj *types.Func) []throughCall {
	obj = obj.Origin()
	if obj.Pkg() == c.pass.Pkg {
		var out []throughCall
		for _, sc := range c.ifaceCalls[c.byObj[obj]] {
			out = append(out, sc.throughCall)
		}
		return out
	}
	var fact callsThrough
	if obj.Pkg() != nil && c.pass.ImportObjectFact(obj, &fact) {
		return fact.Calls
	}
	return nil
}

// resolvedUse is the use a probe's call through an interface reaches, if
// this package sees the implementation: the one stored where the probe's
// value is built, else any of the module's. known says the implementation
// was the one stored there: what it does not reach, no other package will
// find.
func (c *checker) resolvedUse(p probe, call throughCall) (u *use, known bool) {
	var bound []types.Type
	if call.Param >= 0 {
		v, _ := p.bind(call.Param)
		bound = boundTypes(v, call.Field)
	}
	r, cand := c.resolveThrough(call, bound, dispatchDepth)
	if r == nil {
		return nil, bound != nil
	}
	u = &use{reachesShared: *r, decl: cand.decl, others: cand.others}
	if at, ok := c.localUse(*cand); ok {
		u.at, u.decl = at, token.NoPos
	}
	return u, true
}

// localUse is where an implementation of this package uses the pool it
// reaches; ok is false for one of another package or that uses none itself.
func (c *checker) localUse(cand candidate) (at token.Pos, ok bool) {
	if cand.fn == nil {
		return token.NoPos, false
	}
	if fn := c.byObj[cand.fn]; fn != nil && c.uses[fn] != nil {
		return c.uses[fn].at, true
	}
	return token.NoPos, false
}

// ---- probes resolved in a package that imports theirs ----

// pend records a probe whose calls through interfaces this package could
// not resolve, for the packages that import it.
func (c *checker) pend(p probe, handler string, site token.Pos, calls []throughCall) {
	c.pending.Probes = append(c.pending.Probes, c.pendingOf(p, handler, site, calls))
}

// pendingOf is the probe as another package knows it: its call at site,
// its registration, and the calls through interfaces left to resolve.
func (c *checker) pendingOf(p probe, handler string, site token.Pos, calls []throughCall) pendingProbe {
	pos := c.pass.Fset.Position(site)
	pp := pendingProbe{Kind: p.kind, Route: p.route, Handler: handler, File: pos.Filename, Line: pos.Line, Recv: recvType(p.fn), Through: calls}
	if p.at.IsValid() {
		reg := c.pass.Fset.Position(p.at)
		pp.RegFile, pp.RegLine = reg.Filename, reg.Line
	}
	return pp
}

// resolvePending reports the pending probes of the packages this one
// imports that it resolves (it sees an implementation that reaches a
// pool), unless a package between reported them, and passes on the rest,
// with its own and the implementations it knows.
func (c *checker) resolvePending() {
	done := map[string]bool{}
	var deps []*pendingProbes
	for _, f := range c.depFacts() {
		deps = append(deps, f)
		for _, k := range f.Resolved {
			done[k] = true
		}
	}
	for k := range done {
		c.pending.Resolved = append(c.pending.Resolved, k)
	}
	// A test harness (a package that imports testing) builds the service
	// for its tests: what it wires carries no load balancer's probe.
	harness := slices.ContainsFunc(c.pass.Pkg.Imports(), func(p *types.Package) bool { return p.Path() == "testing" })
	for _, f := range deps {
		for _, pp := range f.Probes {
			if done[pp.key()] {
				continue
			}
			done[pp.key()] = true
			if harness || !c.resolveProbe(pp) {
				c.pending.Probes = append(c.pending.Probes, pp)
			}
		}
	}
	c.pending.Impls = append(c.pending.Impls, c.ownImpls()...)
	calledThrough := c.calledThrough()
	for _, f := range c.depFacts() {
		for _, im := range f.Impls {
			if c.inModule(im.Method) || calledThrough[im.Method] {
				c.pending.Impls = append(c.pending.Impls, im)
			}
		}
	}
	c.pending.Impls = uniqueImpls(c.pending.Impls)
	sort.Slice(c.pending.Impls, func(i, j int) bool {
		a, b := c.pending.Impls[i], c.pending.Impls[j]
		return a.Method+a.Impl < b.Method+b.Impl
	})
	if len(c.pending.Impls) > maxCarried {
		c.pending.Impls = c.pending.Impls[:maxCarried]
	}
	sort.Strings(c.pending.Resolved)
	if len(c.pending.Probes) > 0 || len(c.pending.Resolved) > 0 || len(c.pending.Impls) > 0 {
		c.pass.ExportPackageFact(&c.pending)
	}
}

// resolveProbe reports a pending probe of another package if one of its
// calls through an interface resolves here.
func (c *checker) resolveProbe(pp pendingProbe) bool {
	for _, call := range pp.Through {
		r, cand := c.resolveThrough(call, nil, dispatchDepth)
		if r == nil {
			continue
		}
		// The finding is in this package's files, where it builds the
		// probe's value, else at its package clause; related information
		// points at the probe.
		p := probe{kind: pp.Kind, route: pp.Route, at: c.posOf(pp.RegFile, pp.RegLine)}
		site := c.wiringOf(pp.Recv)
		if !site.IsValid() {
			site = c.packagePos()
		}
		u := &use{reachesShared: *r, site: site, decl: cand.decl, probeCall: c.posOf(pp.File, pp.Line), others: cand.others}
		c.report(p, u, pp.Handler)
		c.pending.Resolved = append(c.pending.Resolved, pp.key())
		return true
	}
	return false
}

// recvType is the probe method's receiver type without its pointer, ""
// for a function.
func recvType(fn *ssa.Function) string {
	if fn == nil || fn.Signature.Recv() == nil {
		return ""
	}
	return typeName(fn.Signature.Recv().Type())
}

// typeName is the path-qualified name of the named type t is or points
// to, "" for another type.
func typeName(t types.Type) string {
	if named := ssautil.NamedOf(t); named != nil {
		return types.TypeString(named, nil)
	}
	return ""
}

// wiringOf is the first statement of this package, outside tests, that
// builds a value of the named type (a composite literal, or a call
// returning one): where the program wires the probe and its checkers.
func (c *checker) wiringOf(typ string) token.Pos {
	if typ == "" {
		return token.NoPos
	}
	best := token.NoPos
	for _, fn := range c.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				v, ok := instr.(ssa.Value)
				if !ok || !builds(v, typ) {
					continue
				}
				pos := c.starts.Start(c.pass.Files, v.Pos())
				if pos.IsValid() && (!best.IsValid() || pos < best) {
					best = pos
				}
			}
		}
	}
	return best
}

// builds: v is a new value of the named type, or a call's result of it.
func builds(v ssa.Value, typ string) bool {
	switch v.(type) {
	case *ssa.Alloc, *ssa.Call:
		return typeName(v.Type()) == typ
	}
	return false
}

// A package passes on its own implementations, its module's, and another
// module's only for the interface methods its own functions or pending
// probes call through (and those the implementations call through in
// turn): what its importers can reach through it. An importer that calls
// another of that module's interfaces itself imports its package, whose
// facts it reads, or finds the implementation beside the interface
// (implementingTypes). Forwarded by every package of every module that
// imports them, a client library's hundreds of implementations were most
// of each package's facts, decoded again from every import.

// inModule reports whether an interface method, by its carried key
// (package path, dot, object path), is declared in this package's module.
// Outside a module (GOPATH) every method is.
func (c *checker) inModule(method string) bool {
	mod := c.pass.Module
	if mod == nil || mod.Path == "" {
		return true
	}
	return method == mod.Path || strings.HasPrefix(method, mod.Path+"/") || strings.HasPrefix(method, mod.Path+".")
}

// calledThrough are the carried keys of the interface methods this
// package's functions and pending probes call through, and, closed over
// the implementations this package knows, those these call through.
func (c *checker) calledThrough() map[string]bool {
	out := map[string]bool{}
	var queue []string
	add := func(t throughCall) {
		if k := t.Pkg + "." + t.Obj; !out[k] {
			out[k] = true
			queue = append(queue, k)
		}
	}
	for _, calls := range c.ifaceCalls {
		for _, sc := range calls {
			add(sc.throughCall)
		}
	}
	for _, p := range c.pending.Probes {
		for _, t := range p.Through {
			add(t)
		}
	}
	carried := c.carried()
	for len(queue) > 0 {
		k := queue[0]
		queue = queue[1:]
		for _, im := range carried[k] {
			for _, t := range im.Through {
				add(t)
			}
		}
	}
	return out
}

// depFacts are the pendingProbes facts of the direct imports.
func (c *checker) depFacts() []*pendingProbes {
	var out []*pendingProbes
	for _, pf := range c.pass.AllPackageFacts() {
		if f, ok := pf.Fact.(*pendingProbes); ok && pf.Package != c.pass.Pkg {
			out = append(out, f)
		}
	}
	return out
}

// carried are the implementations this package knows by interface method
// key: its own, and those its imports pass on.
func (c *checker) carried() map[string][]carriedImpl {
	if c.carriedImpls != nil {
		return c.carriedImpls
	}
	all := c.ownImpls()
	for _, f := range c.depFacts() {
		all = append(all, f.Impls...)
	}
	c.carriedImpls = map[string][]carriedImpl{}
	for _, im := range uniqueImpls(all) {
		c.carriedImpls[im.Method] = append(c.carriedImpls[im.Method], im)
	}
	return c.carriedImpls
}

// uniqueImpls drops the repeats of an implementation (by interface method
// and implementing method), keeping the first.
func uniqueImpls(impls []carriedImpl) []carriedImpl {
	seen := map[[2]string]bool{}
	out := impls[:0:0]
	for _, im := range impls {
		if k := [2]string{im.Method, im.Impl}; !seen[k] {
			seen[k] = true
			out = append(out, im)
		}
	}
	return out
}

// ownImpls: the methods of this package's types that implement a method
// of the module's interfaces and reach a resource or call through an
// interface.
func (c *checker) ownImpls() []carriedImpl {
	if c.ownCarried == nil {
		own := c.computeOwnImpls()
		c.ownCarried = &own
	}
	return *c.ownCarried
}

func (c *checker) computeOwnImpls() []carriedImpl {
	reaching := false
	for fn := range c.ifaceCalls {
		reaching = reaching || fn.Signature.Recv() != nil
	}
	for fn := range c.uses {
		reaching = reaching || fn.Signature.Recv() != nil
	}
	if !reaching {
		return nil
	}
	byName := c.interfacesByMethod()
	var out []carriedImpl
	for named := range ssautil.ConcreteTypes(c.pass.Pkg) {
		for i := 0; i < named.NumMethods(); i++ {
			impl := named.Method(i)
			fn := c.byObj[impl]
			if fn == nil || c.uses[fn] == nil && len(c.ifaceCalls[fn]) == 0 {
				continue
			}
			for _, iface := range byName[impl.Name()] {
				m := ssautil.Implementation(named, iface.Underlying().(*types.Interface), methodOf(iface, impl.Name()))
				if m != impl {
					continue
				}
				path, err := c.paths.For(methodOf(iface, impl.Name()))
				if err != nil {
					continue
				}
				pos := c.pass.Fset.Position(impl.Pos())
				im := carriedImpl{Method: iface.Obj().Pkg().Path() + "." + string(path), Impl: netio.Name(impl), File: pos.Filename, Line: pos.Line}
				if u := c.uses[fn]; u != nil {
					r := u.reachesShared
					im.Reach = &r
				} else {
					for _, sc := range c.ifaceCalls[fn] {
						im.Through = append(im.Through, sc.throughCall)
					}
				}
				out = append(out, im)
			}
		}
	}
	return out
}

// interfacesByMethod indexes the module's named interfaces this package
// sees by their methods' names.
func (c *checker) interfacesByMethod() map[string][]*types.Named {
	out := map[string][]*types.Named{}
	for _, pkg := range c.modulePackages() {
		for _, name := range pkg.Scope().Names() {
			tn, ok := pkg.Scope().Lookup(name).(*types.TypeName)
			if !ok || tn.IsAlias() {
				continue
			}
			named, ok := tn.Type().(*types.Named)
			if !ok || named.TypeParams().Len() > 0 || !types.IsInterface(named) {
				continue
			}
			it := named.Underlying().(*types.Interface)
			for i := 0; i < it.NumMethods(); i++ {
				out[it.Method(i).Name()] = append(out[it.Method(i).Name()], named)
			}
		}
	}
	return out
}

func methodOf(iface *types.Named, name string) *types.Func {
	it := iface.Underlying().(*types.Interface)
	for i := 0; i < it.NumMethods(); i++ {
		if it.Method(i).Name() == name {
			return it.Method(i)
		}
	}
	return nil
}

// packagePos is the package clause of the package's first file.
func (c *checker) packagePos() token.Pos {
	if len(c.pass.Files) == 0 {
		return token.NoPos
	}
	return c.pass.Files[0].Package
}

// posOf is ssautil.LinePos in this pass's file set.
func (c *checker) posOf(file string, line int) token.Pos {
	return ssautil.LinePos(c.pass.Fset, file, line)
}

// boundTypes are the concrete types stored, where the probe's value is
// built, in the interface a call through it runs: the binding v itself, or
// its field (a struct literal's, api.HealthAPI{DB: db}). nil: not known.
func boundTypes(v ssa.Value, field string) []types.Type {
	if v == nil {
		return nil
	}
	var vals []ssa.Value
	if field == "" {
		vals = []ssa.Value{v}
	} else {
		if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
			v = load.X // a struct value copied from its variable
		}
		for _, ref := range ssautil.Referrers(v) {
			fa, ok := ref.(*ssa.FieldAddr)
			if !ok {
				continue
			}
			if f, _ := varOf(fa); f == nil || f.Name() != field {
				continue
			}
			for _, st := range ssautil.Referrers(fa) {
				if store, ok := st.(*ssa.Store); ok && store.Addr == fa {
					vals = append(vals, store.Val)
				}
			}
		}
	}
	var out []types.Type
	for _, val := range vals {
		mi, ok := val.(*ssa.MakeInterface)
		if !ok {
			return nil
		}
		out = append(out, mi.X.Type())
	}
	return out
}

// interfaceMethod looks the interface method up among the packages this
// one imports, directly or not.
func (c *checker) interfaceMethod(d throughCall) *types.Func {
	pkg := c.importedPackages()[d.Pkg]
	if pkg == nil {
		return nil
	}
	obj, err := objectpath.Object(pkg, objectpath.Path(d.Obj))
	if err != nil {
		return nil
	}
	m, _ := obj.(*types.Func)
	return m
}

// importedPackages are this package and those it imports, directly or
// not, by path.
func (c *checker) importedPackages() map[string]*types.Package {
	if c.imported != nil {
		return c.imported
	}
	c.imported = map[string]*types.Package{}
	var visit func(p *types.Package)
	visit = func(p *types.Package) {
		if c.imported[p.Path()] != nil {
			return
		}
		c.imported[p.Path()] = p
		for _, imp := range p.Imports() {
			visit(imp)
		}
	}
	visit(c.pass.Pkg)
	return c.imported
}

// modulePackages are the packages of this one's module it sees (itself and
// its imports, directly or not), in path order: where the module's
// implementations of its interfaces are. Outside a module (GOPATH), every
// package but the standard library and the catalogue's libraries.
func (c *checker) modulePackages() []*types.Package {
	if c.module != nil {
		return *c.module
	}
	prefix := ""
	if mod := c.pass.Module; mod != nil {
		prefix = mod.Path
	}
	var out []*types.Package
	for path, p := range c.importedPackages() {
		if isLibraryPath(p) || catalog.IsTestSupport(path) {
			continue
		}
		if prefix != "" && path != prefix && !strings.HasPrefix(path, prefix+"/") {
			continue
		}
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path() < out[j].Path() })
	c.module = &out
	return out
}

// implementingTypes are the named types of the module's visible packages
// (and pointers to them) that implement the interface of method m.
func (c *checker) implementingTypes(m *types.Func) []types.Type {
	recv := m.Signature().Recv()
	if recv == nil {
		return nil
	}
	iface, ok := recv.Type().Underlying().(*types.Interface)
	if !ok || iface.NumMethods() == 0 {
		return nil
	}
	var out []types.Type
	pkgs := c.modulePackages()
	if own := m.Pkg(); own != nil && !slices.Contains(pkgs, own) {
		// An implementation declared beside its interface (a client
		// library's service types), found with it.
		pkgs = append(slices.Clip(pkgs), own)
	}
	for _, pkg := range pkgs {
		for named := range ssautil.ConcreteTypes(pkg) {
			for _, t := range []types.Type{named, types.NewPointer(named)} {
				if types.Implements(t, iface) {
					out = append(out, t)
					break
				}
			}
		}
	}
	return out
}

// firstThroughUse: a probe whose body reaches no resource this package
// sees, but calls through the module's interfaces: the first call whose
// implementation reaches one, at its site; or, if none does here, the
// probe waits for a package that sees more implementations.
func (c *checker) firstThroughUse(p probe, skip func(site token.Pos) bool) *use {
	var open []throughCall
	calls := c.throughCalls(p.fn, skip)
	for _, sc := range calls {
		u, known := c.resolvedUse(p, sc.throughCall)
		if u != nil {
			u.site = sc.site
			return u
		}
		if !known {
			open = append(open, sc.throughCall)
		}
	}
	if len(open) > 0 {
		c.pend(p, funcName(p.fn), calls[0].site, open)
	}
	return nil
}

// throughUse: the same for a handler whose body is in another package, by
// its fact, at the registration.
func (c *checker) throughUse(p probe, handler string, site token.Pos, calls []throughCall) *use {
	var open []throughCall
	for _, call := range calls {
		u, known := c.resolvedUse(p, call)
		if u != nil {
			u.site = site
			return u
		}
		if !known {
			open = append(open, call)
		}
	}
	if len(open) > 0 {
		c.pend(p, handler, site, open)
	}
	return nil
}
