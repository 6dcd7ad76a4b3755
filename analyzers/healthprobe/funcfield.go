package healthprobe

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/ssautil"
)

// A probe that calls a func-typed field (m.IsHealthy(ctx)) runs whatever
// function was stored there: it reaches what those functions reach. The
// functions this package stores are followed at the call (callUse); an
// exported field may be filled in another package (main builds
// serverutil.Main{IsHealthy: store.Ping}), which this package cannot see:
// the field carries probeField, and the package that stores a function
// reaching a shared pool in it is told, and reports at the store.

// probeField marks an exported func-typed field a probe calls: which probe,
// its call of the field and its registration (Through is empty).
type probeField struct{ Probe pendingProbe }

func (*probeField) AFact() {}
func (f *probeField) String() string {
	return "probeField(" + string(f.Probe.Kind) + " " + f.Probe.Handler + " " + f.Probe.Route + ")"
}

// fieldReaches marks an exported func-typed field that this package
// fills with a function reaching a shared pool or client, named where it is
// stored (authn-server's NewApp: App{DbCheck: func() bool { return
// db.Ping() == nil }}): a probe in a package that imports this one and
// calls the field (app.DbCheck()) reaches it.
type fieldReaches struct{ Reach reachesShared }

func (*fieldReaches) AFact()           {}
func (f *fieldReaches) String() string { return "fieldReaches(" + f.Reach.String() + ")" }

// exportFieldReaches exports fieldReaches for the exported func-typed
// fields of this package a function stored here reaches a shared resource
// through.
func (c *checker) exportFieldReaches() {
	for field, vals := range c.vars.stores {
		if !field.IsField() || !field.Exported() || field.Pkg() != c.pass.Pkg {
			continue
		}
		if _, ok := field.Type().Underlying().(*types.Signature); !ok {
			continue
		}
		if u := c.firstStoredUse(vals, token.NoPos, ""); u != nil {
			c.pass.ExportObjectFact(field, &fieldReaches{u.reachesShared})
		}
	}
}

// funcField is the func-typed field a call's function value is loaded
// from (m.IsHealthy(ctx)), or nil.
func funcField(common *ssa.CallCommon) (*types.Var, types.Type) {
	if common.IsInvoke() || common.StaticCallee() != nil {
		return nil, nil
	}
	v := common.Value
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		v = load.X
	}
	field, owner := varOf(v)
	if field == nil || !field.IsField() {
		return nil, nil
	}
	if _, ok := field.Type().Underlying().(*types.Signature); !ok {
		return nil, nil
	}
	return field, owner
}

// fieldCallUse: a call through a func-typed field reaches what the
// functions this package stores in that field reach (the first that does).
func (c *checker) fieldCallUse(fn *ssa.Function, common *ssa.CallCommon, field *types.Var, owner types.Type) *use {
	hop := varName(field, owner)
	if u := c.firstStoredUse(c.vars.stores[field], common.Pos(), hop); u != nil {
		return u
	}
	var fact fieldReaches
	if field.Pkg() != c.pass.Pkg && c.pass.ImportObjectFact(field, &fact) {
		u := &use{reachesShared: fact.Reach, at: common.Pos()}
		u.Path = capPath(append([]string{hop}, fact.Reach.Path...))
		return u
	}
	return nil
}

// firstStoredUse is the use of the first of the functions stored in a
// field (vals) that reaches a shared resource, named where it is stored,
// at the call at, its path starting with hop (the field, "" for none).
func (c *checker) firstStoredUse(vals []ssa.Value, at token.Pos, hop string) *use {
	for _, val := range vals {
		stored := ssautil.FuncOf(val)
		if stored == nil {
			continue
		}
		r, _ := c.storedReach(stored)
		if r == nil {
			continue
		}
		u := &use{reachesShared: *r, at: at}
		path := storedPath(stored, r)
		if hop != "" {
			path = append([]string{hop}, path...)
		}
		u.Path = capPath(path)
		if c.nameStored(u, val, stored) {
			return u
		}
	}
	return nil
}

// storedReach is what a function stored in a field reaches: this
// package's function or closure, another package's (by its fact), or a
// wrapper SSA made for a method value (sp.AdminStorage().Check), whose
// one call decides; failing that, the first of its calls through the
// module's interfaces that an implementation known here resolves. decl is
// that implementation, when one was resolved.
func (c *checker) storedReach(fn *ssa.Function) (r *reachesShared, decl token.Pos) {
	synthetic := fn.Synthetic != "" && !c.local[fn]
	if synthetic {
		if u := c.firstUse(fn); u != nil {
			return &u.reachesShared, token.NoPos
		}
	} else if r := c.reachOf(fn); r != nil {
		return r, token.NoPos
	}
	var calls []throughCall
	switch {
	case synthetic:
		for _, sc := range c.throughCalls(fn, nil) {
			calls = append(calls, sc.throughCall)
		}
	case c.local[ssautil.Origin(fn)]:
		for _, sc := range c.ifaceCalls[ssautil.Origin(fn)] {
			calls = append(calls, sc.throughCall)
		}
	default:
		if obj, ok := fn.Object().(*types.Func); ok {
			calls = c.throughOf(obj)
		}
	}
	for _, call := range calls {
		if r, cand := c.resolveThrough(call, nil, dispatchDepth); r != nil {
			return r, cand.decl
		}
	}
	return nil, token.NoPos
}

// exportProbeFields marks the exported func-typed fields of this package
// that a probe calls, in its body or in a function of this package it
// calls, and does not start in a goroutine.
func (c *checker) exportProbeFields(probes []probe) {
	marked := map[*types.Var]bool{}
	for _, p := range probes {
		if p.fn == nil || p.lib != nil || p.elsewhere != nil {
			continue
		}
		for _, fn := range c.probeFuncs(p.fn) {
			for common := range ssautil.WaitedCalls(fn) {
				field, _ := funcField(common)
				if field == nil || marked[field] || !field.Exported() || field.Pkg() != c.pass.Pkg {
					continue
				}
				marked[field] = true
				c.pass.ExportObjectFact(field, &probeField{c.pendingOf(p, funcName(p.fn), common.Pos(), nil)})
			}
		}
	}
}

// probeFuncs are the functions of this package a probe runs: itself, its
// closures and what it calls statically here.
func (c *checker) probeFuncs(root *ssa.Function) []*ssa.Function {
	seen := map[*ssa.Function]bool{root: true}
	out := []*ssa.Function{root}
	for i := 0; i < len(out); i++ {
		for _, b := range out[i].Blocks {
			for _, instr := range b.Instrs {
				var next *ssa.Function
				switch x := instr.(type) {
				case *ssa.MakeClosure:
					next, _ = x.Fn.(*ssa.Function)
				case *ssa.Call:
					if callee := x.Common().StaticCallee(); callee != nil && c.local[ssautil.Origin(callee)] {
						next = ssautil.Origin(callee)
					}
				}
				if next != nil && !seen[next] {
					seen[next] = true
					out = append(out, next)
				}
			}
		}
	}
	return out
}

// reportFieldStores reports, where this package stores a function in
// another package's field a probe calls (serverutil.Main{IsHealthy: …}),
// a function that reaches a shared pool or client: the probe runs it on
// every poll, and the store is the one place that says so.
func (c *checker) reportFieldStores() {
	for fa, stored := range ssautil.FuncsStoredInFields(c.funcs) {
		field, owner := varOf(fa)
		if field == nil || field.Pkg() == c.pass.Pkg {
			continue
		}
		var fact probeField
		if !c.pass.ImportObjectFact(field, &fact) {
			continue
		}
		pf := fact.Probe
		r, impl := c.storedReach(stored)
		if r == nil {
			continue
		}
		hop := varName(field, owner)
		site := fa.Pos()
		if !site.IsValid() {
			site = fa.Parent().Pos()
		}
		u := &use{reachesShared: *r, site: site, probeCall: c.posOf(pf.File, pf.Line), decl: stored.Pos()}
		if impl.IsValid() {
			u.decl = impl
		}
		if su := c.uses[stored]; su != nil {
			u.at = su.at
		}
		if !c.nameStored(u, storedValue(fa), stored) {
			continue
		}
		u.Path = capPath(storedPath(stored, r))
		p := probe{kind: pf.Kind, route: pf.Route + ", through " + hop + " set here", at: c.posOf(pf.RegFile, pf.RegLine)}
		c.report(p, u, pf.Handler)
	}
}

// nameStored names a resource the stored function knows as its receiver
// or capture (pool.PingContext, func(ctx) error { return db.Ping() }) by
// the value bound where it is stored. It reports false when that is a pool
// opened for the probe alone.
func (c *checker) nameStored(u *use, val ssa.Value, stored *ssa.Function) bool {
	if u.Param < 0 {
		return true
	}
	i := u.Param
	u.Param = -1
	u.Resource = "the " + u.Noun + " passed to " + funcName(stored)
	mc, ok := val.(*ssa.MakeClosure)
	if !ok || i < freeVarBase || i-freeVarBase >= len(mc.Bindings) {
		return true
	}
	name, param, own := c.resourceOf(mc.Parent(), mc.Bindings[i-freeVarBase], u.Noun)
	if own {
		return false
	}
	if param < 0 {
		u.Resource = name
	}
	return true
}

// storedValue is the value stored at a field's address.
func storedValue(fa *ssa.FieldAddr) ssa.Value {
	for _, ref := range ssautil.Referrers(fa) {
		if st, ok := ref.(*ssa.Store); ok && st.Addr == fa {
			return st.Val
		}
	}
	return nil
}

// storedPath is the chain from a stored function: the function, then its
// own chain; a method value's wrapper is named by the call it makes.
func storedPath(stored *ssa.Function, r *reachesShared) []string {
	name := funcName(stored)
	if name == r.Call || len(r.Path) > 0 && r.Path[0] == name {
		return r.Path
	}
	return append([]string{name}, r.Path...)
}
