package sharedpool

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/build"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/objectpath"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/docs"
	"github.com/bhlint/bhlint/internal/guard"
	"github.com/bhlint/bhlint/internal/lanes"
	"github.com/bhlint/bhlint/internal/lazyssa"
	"github.com/bhlint/bhlint/internal/netio"
	"github.com/bhlint/bhlint/internal/objpath"
	"github.com/bhlint/bhlint/internal/pkgscope"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// Code starts every message of this analyzer.
const Code = "ERR_SHARED_FAILURE_DOMAIN_DETECTED"

//go:embed doc.go
var doc string

// Analyzer reports lanes that reach another lane's resources and resources
// shared between lanes.
var Analyzer = guard.Wrap(&analysis.Analyzer{
	Name:      "sharedpool",
	Doc:       docs.Extract(doc, "sharedpool"),
	URL:       "https://github.com/bhlint/bhlint/tree/main/analyzers/sharedpool",
	Requires:  []*analysis.Analyzer{lazyssa.Analyzer},
	FactTypes: []analysis.Fact{new(lanes.Reaches), new(lanes.Owned), new(lanes.Summary), new(runsInLane), new(loopsForever), new(createsPool), new(storesParam), new(poolGetter), new(filledFrom)},
	Run:       run,
}, Code)

// runsInLane marks a function that hands its func parameter Param (the
// receiver counting as 0) to a lane executor, as a user's wrapper of
// Executor.Do does: the func runs in the executor's lane, not the caller's.
type runsInLane struct{ Param int }

func (*runsInLane) AFact()           {}
func (f *runsInLane) String() string { return fmt.Sprintf("runsInLane(%d)", f.Param) }

// maxPath bounds the call paths facts carry.
const maxPath = 8

type checker struct {
	pass    *analysis.Pass
	decl    declared
	reach   map[*ssa.Function]map[string]localUse // this package's functions, by origin
	local   map[*ssa.Function]bool
	pos     map[string]token.Pos // position strings made here → positions
	starts  ssautil.CallStarts
	entries []localEntry
	wraps   []lanes.Wrap
	runArgs map[ssa.Value]bool // function values handed to a lane executor

	runners   map[*ssa.Function]int // this package's executor wrappers → func param
	known     map[*types.Func]int   // other packages' runners (catalogue, facts) → func param, -1 for none
	paths     objpath.Paths         // one for the pass: objectpath.For scans a package's scope per call
	resources map[*types.Var]cachedResource
	hops      map[*ssa.Function]lanes.Hop

	rounds ssautil.Rounds // computeReach's, for who reads whose uses

	// lane inference (infer.go)
	funcByObj map[*types.Func]*ssa.Function
	// stmtPools are the pools known only as what statements were
	// prepared on (preparedOn), by key.
	stmtPools    map[string]bool
	dispatches   map[*types.Func]lanes.Resource
	dispatchable map[*types.Package]bool // mayDispatchTo's answers
	impls        map[string][]*types.Func
	methodIndex  map[string][]types.Type
	creations    map[string]token.Pos
	creators     map[*ssa.Function][]poolCreation         // the package-level pools each function creates (creators.go)
	paramStores  map[*ssa.Function]map[int][]poolCreation // where each function stores the pools it is handed (params.go)
	fields       *ssautil.FieldCallees                    // what calls through the package's func fields run (fieldCallees)
	initFn       *ssa.Function                            // the package initialiser, for the stores of its var initialisers
	stdlib       map[string]bool
	links        []lanes.Link
	getters      map[*types.Func]lanes.Resource // this package's pool getters (alias.go)
	aliases      map[*types.Var]lanes.Resource  // this package's fields filled from them

	deps         []*lanes.Summary // the summaries of the packages before this one
	ownImpls     []lanes.Impl
	allImpls     []lanes.Impl            // this package's and those carried, to carry on
	carriedImpls map[string][]lanes.Impl // the same by dispatch key
	dead         lanes.DeadSet           // interface methods whose calls resolve to no pool (deadMethods)
}

// localUse is a resource a function reaches, with the position in the
// function where the path to it starts.
type localUse struct {
	use lanes.Use
	pos token.Pos
}

type localEntry struct {
	entry lanes.Entry
	short string // the name in this package's messages
	pos   token.Pos
	uses  []localUse

	inferred bool // an entry of an inferred workload class
}

func run(pass *analysis.Pass) (any, error) {
	c := &checker{
		pass:    pass,
		reach:   map[*ssa.Function]map[string]localUse{},
		local:   map[*ssa.Function]bool{},
		pos:     map[string]token.Pos{},
		runArgs: map[ssa.Value]bool{},

		runners:   map[*ssa.Function]int{},
		known:     map[*types.Func]int{},
		resources: map[*types.Var]cachedResource{},
		hops:      map[*ssa.Function]lanes.Hop{},

		funcByObj:    map[*types.Func]*ssa.Function{},
		stmtPools:    map[string]bool{},
		dispatches:   map[*types.Func]lanes.Resource{},
		dispatchable: map[*types.Package]bool{},
		impls:        map[string][]*types.Func{},
		creations:    map[string]token.Pos{},
		stdlib:       map[string]bool{},
	}
	if strings.HasSuffix(pass.Pkg.Path(), ".test") {
		return nil, nil // a generated test main
	}
	c.decl = c.readDirectives()
	if c.isLibrary() {
		return nil, nil // the pools' own code: their internals are not lane resources
	}
	c.deps = depSummaries(pass.Pkg, pass.AllPackageFacts())
	// A package of the module that imports no pool library may still call
	// one through the module's interfaces (a service over store.Store):
	// mayDispatchTo.
	if pkgscope.Reaches(pass.Pkg, catalog.LanePackages) || c.ofModule(pass.Pkg) {
		builder := pass.ResultOf[lazyssa.Analyzer].(*lazyssa.Builder)
		funcs := builder.SrcFuncs()
		c.initFn = builder.Package().Func("init")
		c.findAliases(funcs)
		// The closures of package-level initialisers (Run: func() {…} in a
		// var's composite literal) are reached through the fields they are
		// stored in (fieldCallees): their reach is needed, though they are
		// no declared function's.
		c.computeReach(append(slices.Clip(funcs), initClosures(c.initFn)...))
		c.findParamStores(funcs)
		c.findCreators(funcs)
		for _, fn := range funcs {
			guard.At(fn.Pos(), func() { c.findEntries(fn); c.findWraps(fn) })
		}
		if init := builder.Package().Func("init"); init != nil {
			guard.At(init.Pos(), func() { c.findWraps(init) })
		}
		// The implementations first: the interface calls they show can
		// never reach a pool are left out of every fact.
		guard.At(c.packagePos(), func() { c.ownImpls = c.findImpls() })
		c.gatherImpls(c.deps)
		c.exportReaches(funcs)
		entryLanes := c.entryLanes()
		for _, e := range c.entries {
			c.reportForeignUses(e, entryLanes)
		}
		c.inferEntries(funcs)
	} else {
		c.gatherImpls(c.deps)
	}
	c.checkShared()
	return nil, nil
}

// depSummaries are the summaries of the packages before pkg, in the order
// of their import paths. The driver hands package facts over in no set
// order, and the order decides which implementations are carried on when
// there are more than maxImpls: without it, the facts this package writes,
// and so the findings of the packages above it, would change from run to
// run.
func depSummaries(pkg *types.Package, facts []analysis.PackageFact) []*lanes.Summary {
	facts = slices.Clone(facts)
	slices.SortFunc(facts, func(a, b analysis.PackageFact) int { return strings.Compare(a.Package.Path(), b.Package.Path()) })
	var out []*lanes.Summary
	for _, pf := range facts {
		if s, ok := pf.Fact.(*lanes.Summary); ok && pf.Package != pkg {
			out = append(out, s)
		}
	}
	return out
}

// isLibrary reports whether the package is the standard library, a pool or
// client library of the catalogue, or the bulkhead runtime.
func (c *checker) isLibrary() bool {
	if libraryPath(c.pass.Pkg.Path()) {
		return true
	}
	if len(c.pass.Files) == 0 {
		return false
	}
	goroot := filepath.Join(build.Default.GOROOT, "src") + string(filepath.Separator)
	return strings.HasPrefix(c.pass.Fset.Position(c.pass.Files[0].Pos()).Filename, goroot)
}

func (c *checker) isTestFile(pos token.Pos) bool {
	return strings.HasSuffix(c.pass.Fset.Position(pos).Filename, "_test.go")
}

// posString is a position as facts carry it: base file name, line, column.
func (c *checker) posString(pos token.Pos) string {
	if !pos.IsValid() {
		return ""
	}
	p := c.pass.Fset.Position(pos)
	s := fmt.Sprintf("%s:%d:%d", filepath.Base(p.Filename), p.Line, p.Column)
	c.pos[s] = pos
	return s
}

// ---- resources ----

// resourceOf returns the resource a variable or field holds. It is asked
// for every load of every fixed-point round, and objectpath is not cheap, so
// answers are cached.
func (c *checker) resourceOf(v *types.Var, owner types.Type) (lanes.Resource, bool) {
	v = v.Origin()
	if cached, ok := c.resources[v]; ok {
		return cached.r, cached.ok
	}
	r, ok := c.computeResource(v, owner)
	c.resources[v] = cachedResource{r, ok}
	return r, ok
}

type cachedResource struct {
	r  lanes.Resource
	ok bool
}

func (c *checker) computeResource(v *types.Var, owner types.Type) (lanes.Resource, bool) {
	noun := catalog.ResourceNoun(v.Type())
	if noun == "" || v.Pkg() == nil {
		return lanes.Resource{}, false
	}
	if r, ok := c.aliasOf(v); ok {
		return r, true
	}
	if v.IsField() && (libraryPath(v.Pkg().Path()) || c.stdlibPath(v.Pkg().Path())) {
		// A pool library's own field (the *sql.Stmt a *sqlx.Stmt embeds,
		// the *sql.DB in a *sqlx.DB) is the library's internals: the
		// variable or field the program keeps the wrapper in is the resource.
		return lanes.Resource{}, false
	}
	r := lanes.Resource{Noun: noun, Pkg: v.Pkg().Path(), Lane: c.laneOfVar(v), Type: types.TypeString(v.Type(), nil)}
	qual := func(p *types.Package) string { return p.Name() }
	if v.IsField() {
		ownerName := "struct"
		if owner != nil {
			ownerName = types.TypeString(owner, qual)
			if named, ok := types.Unalias(owner).(*types.Named); ok {
				ownerName = v.Pkg().Name() + "." + named.Obj().Name()
			}
		}
		r.Name = ownerName + "." + v.Name()
		r.Key = v.Pkg().Path() + "." + strings.TrimPrefix(r.Name, v.Pkg().Name()+".")
	} else {
		r.Global = v.Parent() == v.Pkg().Scope()
		r.Name = v.Pkg().Name() + "." + v.Name()
		r.Key = v.Pkg().Path() + "." + v.Name()
	}
	if path, err := c.paths.For(v); err == nil {
		r.Obj = string(path)
	}
	if v.Pkg() == c.pass.Pkg {
		r.Pos = c.posString(v.Pos())
	} else if v.Pos().IsValid() {
		p := c.pass.Fset.Position(v.Pos())
		r.Pos = fmt.Sprintf("%s:%d:%d", filepath.Base(p.Filename), p.Line, p.Column)
	}
	return r, true
}

// laneOfVar is the lane a resource belongs to: by its lane-typed type, its
// directive in this package, or its Owned fact.
func (c *checker) laneOfVar(v *types.Var) string {
	if lane, _, ok := catalog.LaneTyped(v.Type()); ok {
		return catalog.LaneName(lane.Obj().Name())
	}
	if lane, ok := c.decl.owned[v]; ok {
		return lane
	}
	if v.Pkg() != c.pass.Pkg {
		var fact lanes.Owned
		if c.pass.ImportObjectFact(v, &fact) {
			return fact.Lane
		}
	}
	return ""
}

// loadedResource returns the resource an address refers to: a package-level
// variable or a struct field.
func (c *checker) loadedResource(addr ssa.Value) (lanes.Resource, bool) {
	switch addr := addr.(type) {
	case *ssa.Global:
		if v, ok := addr.Object().(*types.Var); ok {
			return c.resourceOf(v, nil)
		}
	case *ssa.FieldAddr:
		if ptr, ok := addr.X.Type().Underlying().(*types.Pointer); ok {
			if v := ssautil.StructField(ptr.Elem(), addr.Field); v != nil {
				return c.resourceOf(v, ptr.Elem())
			}
		}
	}
	return lanes.Resource{}, false
}

// typedResource is the resource of a lane-typed runtime pool used through a
// value of unknown origin (a parameter, a result): the type names the lane.
func (c *checker) typedResource(t types.Type) (lanes.Resource, bool) {
	lane, kind, ok := catalog.LaneTyped(t)
	if !ok || kind == "executor" {
		return lanes.Resource{}, false
	}
	name := types.TypeString(t, func(p *types.Package) string { return p.Name() })
	return lanes.Resource{Key: types.TypeString(t, nil), Name: name, Noun: kind, Lane: catalog.LaneName(lane.Obj().Name())}, true
}

// ---- reach ----

// computeReach finds, for each function of the package, the resources it
// reaches, to a fixed point (recursion, calls to later declarations).
func (c *checker) computeReach(funcs []*ssa.Function) {
	for _, fn := range funcs {
		c.local[fn] = true
		if obj, ok := fn.Object().(*types.Func); ok && fn.Parent() == nil {
			c.funcByObj[obj] = fn
		}
	}
	c.learnRunners(funcs)
	for _, fn := range funcs {
		c.markRunArgs(fn)
	}
	// To a fixed point: a function's uses grow with its callees'.
	c.rounds.Run(funcs, func(fn *ssa.Function) {
		var uses map[string]localUse
		guard.At(fn.Pos(), func() { uses = c.usesOf(fn) })
		if len(uses) != len(c.reach[fn]) {
			c.reach[fn] = uses
			c.rounds.Changed(fn)
		}
	}, nil)
}

// readReach is c.reach[fn] for usesOf, noted as read.
func (c *checker) readReach(fn *ssa.Function) map[string]localUse {
	c.rounds.Read(fn)
	return c.reach[fn]
}

// usesOf computes fn's uses from its instructions and its callees' current
// uses.
func (c *checker) usesOf(fn *ssa.Function) map[string]localUse {
	uses := useSet{in: fn, uses: map[string]localUse{}, before: c.reach[fn]}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch instr := instr.(type) {
			case *ssa.UnOp:
				if instr.Op == token.MUL && !onlyNilCompared(instr) {
					if r, ok := c.loadedResource(instr.X); ok {
						uses.add(lanes.Use{Resource: r}, instr.Pos())
					}
				}
			case *ssa.Field:
				if v := ssautil.StructField(instr.X.Type(), instr.Field); v != nil && !onlyNilCompared(instr) {
					if r, ok := c.resourceOf(v, instr.X.Type()); ok {
						uses.add(lanes.Use{Resource: r}, instr.Pos())
					}
				}
			case *ssa.MakeClosure:
				if anon, ok := instr.Fn.(*ssa.Function); ok && !c.runArgs[instr] {
					for _, u := range c.readReach(anon) {
						uses.add(u.use, u.pos)
					}
				}
			case ssa.CallInstruction:
				c.callUses(instr, uses)
			}
		}
	}
	return uses.uses
}

// useSet gathers one function's uses: the first place each resource is
// used, by its key. before are the uses of the fixed point's previous round.
type useSet struct {
	in     *ssa.Function
	uses   map[string]localUse
	before map[string]localUse
}

// reuse keeps the use the previous round found for key through a call at
// pos, when there was one: what a callee reaches only grows from round to
// round, and rebuilding every path of every call in every round was most
// of the pass's work on a large package (nats-server's).
func (s useSet) reuse(key string, pos token.Pos) bool {
	old, ok := s.before[key]
	if !ok || old.pos != pos || len(old.use.Path) == 0 {
		return false
	}
	s.uses[key] = old
	return true
}

func (s useSet) has(key string) bool {
	_, ok := s.uses[key]
	return ok
}

// add keeps u unless its resource is used already; pos is where, the
// function's own position when it has none.
func (s useSet) add(u lanes.Use, pos token.Pos) {
	if s.has(u.Resource.Key) {
		return
	}
	if !pos.IsValid() {
		pos = s.in.Pos()
	}
	s.uses[u.Resource.Key] = localUse{use: u, pos: pos}
}

// onlyNilCompared reports whether a loaded pool is only compared with nil
// (if s.db == nil): asking whether a pool is open takes no connection.
func onlyNilCompared(v ssa.Value) bool {
	refs := ssautil.Referrers(v)
	for _, ref := range refs {
		cmp, ok := ref.(*ssa.BinOp)
		if !ok || (cmp.Op != token.EQL && cmp.Op != token.NEQ) || !(ssautil.IsNil(cmp.X) || ssautil.IsNil(cmp.Y)) {
			return false
		}
	}
	return len(refs) > 0
}

func (c *checker) callUses(instr ssa.CallInstruction, uses useSet) {
	common := instr.Common()
	pos := c.callStart(instr.Pos())
	if recv := ssautil.Receiver(common); recv != nil && !isLoad(recv) {
		if r, ok := c.typedResource(recv.Type()); ok {
			uses.add(lanes.Use{Resource: r}, pos)
		}
	}
	if common.IsInvoke() {
		if d, ok := c.dispatchOf(common.Method); ok {
			uses.add(lanes.Use{Resource: d}, pos)
		}
	}
	if c.runnerIndex(common) >= 0 {
		return // the function runs in the executor's lane, not this one
	}
	for _, arg := range common.Args {
		if fn, ok := arg.(*ssa.Function); ok && !c.runArgs[arg] {
			c.addCalleeUses(fn, pos, uses)
		}
	}
	if callee := common.StaticCallee(); callee != nil {
		c.addCalleeUses(callee, pos, uses)
	}
	fns, _ := c.fieldCallees().Of(common)
	for _, fn := range fns {
		c.addCalleeUses(fn, pos, uses)
	}
}

// addCalleeUses adds the uses of a call's callee, each with the callee as
// one more hop on its path. The path is built only for a resource fn does
// not use already: the fixed point asks this of every call of every
// function, round after round, and most of what a callee reaches its
// caller has reached by an earlier call.
func (c *checker) addCalleeUses(callee *ssa.Function, pos token.Pos, uses useSet) {
	callee = origin(callee)
	var hop *lanes.Hop
	c.eachCalleeUse(callee, func(u lanes.Use) {
		if uses.has(u.Resource.Key) || uses.reuse(u.Resource.Key, pos) {
			return
		}
		if hop == nil {
			h := c.hopOf(callee)
			hop = &h
		}
		uses.add(lanes.Use{Resource: u.Resource, Path: capPath(append([]lanes.Hop{*hop}, u.Path...))}, pos)
	})
}

// calleeUses are the uses of a function of this package or, by its fact,
// of another.
func (c *checker) calleeUses(fn *ssa.Function) []lanes.Use {
	var out []lanes.Use
	c.eachCalleeUse(fn, func(u lanes.Use) { out = append(out, u) })
	return out
}

// eachCalleeUse calls f with each use of a function of this package or, by
// its fact, of another.
func (c *checker) eachCalleeUse(fn *ssa.Function, f func(lanes.Use)) {
	fn = origin(fn)
	if c.local[fn] {
		for _, u := range c.readReach(fn) {
			f(u.use)
		}
		return
	}
	obj, ok := fn.Object().(*types.Func)
	if !ok || obj.Pkg() == nil || obj.Pkg() == c.pass.Pkg {
		return
	}
	var fact lanes.Reaches
	if c.pass.ImportObjectFact(obj, &fact) {
		for _, u := range fact.Uses {
			f(u)
		}
		for _, u := range fact.Dispatch {
			f(u)
		}
	}
}

func capPath(path []lanes.Hop) []lanes.Hop {
	if len(path) > maxPath {
		return append(path[:1:1], path[len(path)-maxPath+1:]...)
	}
	return path
}

func (c *checker) hopOf(fn *ssa.Function) lanes.Hop {
	if hop, ok := c.hops[fn]; ok {
		return hop
	}
	hop := c.computeHop(fn)
	c.hops[fn] = hop
	return hop
}

func (c *checker) computeHop(fn *ssa.Function) lanes.Hop {
	obj, ok := fn.Object().(*types.Func)
	if !ok {
		return lanes.Hop{Name: netio.DisplayName(fn)}
	}
	hop := lanes.Hop{Name: netio.Name(obj)}
	if p := c.pass.Fset.Position(obj.Pos()); p.IsValid() {
		hop.File, hop.Line = p.Filename, p.Line
	}
	if obj.Pkg() != nil {
		hop.Pkg = obj.Pkg().Path()
		if p, err := c.paths.For(obj); err == nil {
			hop.Obj = string(p)
		}
	}
	return hop
}

func (c *checker) exportReaches(funcs []*ssa.Function) {
	for _, fn := range funcs {
		obj, ok := fn.Object().(*types.Func)
		// Only exported names can be called from another package.
		if !ok || !obj.Exported() || fn.Parent() != nil || len(c.reach[fn]) == 0 || c.isTestFile(fn.Pos()) {
			continue
		}
		var all []lanes.Use
		for _, key := range sortedKeys(c.reach[fn]) {
			all = append(all, c.reach[fn][key].use)
		}
		// Calls of interface methods that can never reach a pool are left
		// out: they would travel up every call graph above for nothing.
		fact := &lanes.Reaches{}
		fact.Uses, fact.Dispatch = splitDispatch(c.liveUses(all))
		if len(fact.Uses)+len(fact.Dispatch) > 0 {
			c.pass.ExportObjectFact(obj, fact)
		}
	}
}

// ---- entry points ----

// runnerIndex returns the index of the function argument of a call that
// runs it in an executor's lane, or -1.
func (c *checker) runnerIndex(common *ssa.CallCommon) int {
	callee := common.StaticCallee()
	if callee == nil {
		return -1
	}
	i, ok := c.runners[origin(callee)]
	if !ok {
		obj, isFunc := origin(callee).Object().(*types.Func)
		if !isFunc {
			return -1
		}
		i = c.knownRunner(obj)
	}
	if i >= 0 && i < len(common.Args) {
		return i
	}
	return -1
}

// knownRunner is the func parameter a function of another package (the
// catalogue's executors, functions with a runsInLane fact) runs in its
// lane, or -1. It is asked for every static call in every round of
// computeReach, so the answer is kept.
func (c *checker) knownRunner(obj *types.Func) int {
	if i, ok := c.known[obj]; ok {
		return i
	}
	i, ok := catalog.LaneRunners[catalog.Key(obj)]
	if !ok && obj.Pkg() != nil && obj.Pkg() != c.pass.Pkg {
		var fact runsInLane
		if c.pass.ImportObjectFact(obj, &fact) {
			i, ok = fact.Param, true
		}
	}
	if !ok {
		i = -1
	}
	c.known[obj] = i
	return i
}

// learnRunners finds the functions that hand a func parameter to an
// executor (or to such a function), to a fixed point, and exports them.
func (c *checker) learnRunners(funcs []*ssa.Function) {
	for changed := true; changed; {
		changed = false
		for _, fn := range funcs {
			if _, done := c.runners[fn]; done {
				continue
			}
			for _, b := range fn.Blocks {
				for _, instr := range b.Instrs {
					call, ok := instr.(ssa.CallInstruction)
					if !ok {
						continue
					}
					i := c.runnerIndex(call.Common())
					if i < 0 {
						continue
					}
					if p, ok := call.Common().Args[i].(*ssa.Parameter); ok {
						if j := slices.Index(fn.Params, p); j >= 0 {
							c.runners[fn] = j
							changed = true
						}
					}
				}
			}
		}
	}
	for fn, i := range c.runners {
		if obj, ok := fn.Object().(*types.Func); ok && obj.Exported() && fn.Parent() == nil {
			c.pass.ExportObjectFact(obj, &runsInLane{Param: i})
		}
	}
}

// executorLane is the lane of the executor a runner call is made with.
func executorLane(common *ssa.CallCommon) string {
	for _, arg := range common.Args {
		if lane, kind, ok := catalog.LaneTyped(arg.Type()); ok && kind == "executor" {
			return catalog.LaneName(lane.Obj().Name())
		}
	}
	return ""
}

// markRunArgs records the function values fn hands to executors, so that
// their uses are not counted as fn's.
func (c *checker) markRunArgs(fn *ssa.Function) {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			if i := c.runnerIndex(call.Common()); i >= 0 {
				for v := call.Common().Args[i]; v != nil; v = unwrapFunc(v) {
					c.runArgs[v] = true
				}
			}
		}
	}
}

// unwrapFunc steps from a func value to what it was made from
// (http.HandlerFunc(f) boxed into an http.Handler is f).
func unwrapFunc(v ssa.Value) ssa.Value {
	switch v := v.(type) {
	case *ssa.MakeInterface:
		return v.X
	case *ssa.ChangeType:
		return v.X
	case *ssa.Convert:
		return v.X
	}
	return nil
}

func funcOf(v ssa.Value) (*ssa.Function, bool) {
	for ; v != nil; v = unwrapFunc(v) {
		switch f := v.(type) {
		case *ssa.Function:
			return f, true
		case *ssa.MakeClosure:
			fn, ok := f.Fn.(*ssa.Function)
			return fn, ok
		}
	}
	return nil, false
}

func (c *checker) findEntries(fn *ssa.Function) {
	if c.isTestFile(fn.Pos()) {
		return
	}
	if obj, ok := fn.Object().(*types.Func); ok {
		if lane, ok := c.decl.entries[obj]; ok {
			short := shortName(obj, c.pass.Pkg)
			c.addEntry(lane, netio.Name(obj), short, fn.Pos(), c.localUses(fn, token.NoPos))
		}
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			i := c.runnerIndex(call.Common())
			lane := executorLane(call.Common())
			if i < 0 || lane == "" {
				continue
			}
			target, ok := funcOf(call.Common().Args[i])
			if !ok {
				continue
			}
			pos := c.callStart(call.Pos())
			name, short := netio.DisplayName(target), c.funcName(target)
			if target.Parent() != nil {
				name = "the func literal passed to " + callName(call.Common()) + " in " + c.funcName(fn)
				short = name
			}
			c.addEntry(lane, name, short, pos, c.localUses(target, pos))
		}
	}
}

// localUses are the uses of an entry point: its own if it is a function of
// this package, else its fact's, all reported at pos.
func (c *checker) localUses(fn *ssa.Function, pos token.Pos) []localUse {
	fn = origin(fn)
	if c.local[fn] {
		var out []localUse
		for _, key := range sortedKeys(c.reach[fn]) {
			out = append(out, c.reach[fn][key])
		}
		return out
	}
	var out []localUse
	hop := c.hopOf(fn)
	for _, u := range c.calleeUses(fn) {
		out = append(out, localUse{use: lanes.Use{Resource: u.Resource, Path: capPath(append([]lanes.Hop{hop}, u.Path...))}, pos: pos})
	}
	return out
}

func (c *checker) addEntry(lane, name, short string, pos token.Pos, uses []localUse) {
	e := localEntry{entry: lanes.Entry{Lane: lane, Name: name, Pos: c.posString(pos)}, short: short, pos: pos, uses: uses}
	named := namedLanes(uses)
	for _, u := range uses {
		if u.pos.IsValid() && u.pos != pos {
			// The entry's own call or load that leads to the resource.
			at := c.pass.Fset.Position(u.pos)
			u.use.File, u.use.Line = at.Filename, at.Line
		}
		if u.use.IsDispatch() {
			if len(e.entry.Dispatch) < maxDispatch {
				e.entry.Dispatch = append(e.entry.Dispatch, u.use)
			}
		} else if !isTypeOnly(u.use.Resource) || !named[u.use.Resource.Lane] {
			e.entry.Uses = append(e.entry.Uses, u.use)
		}
	}
	c.entries = append(c.entries, e)
}

// ---- wraps ----

// findWraps records resources built on other resources: a store of one
// into a laned variable or field, or a lane-typed pool constructed over it.
func (c *checker) findWraps(fn *ssa.Function) {
	if c.isTestFile(fn.Pos()) {
		return
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch instr := instr.(type) {
			case *ssa.Store:
				outer, ok := c.loadedResource(instr.Addr)
				if ok && outer.Lane == "" {
					c.findLinks(fn, instr, outer)
				}
				c.findStmtLinks(fn, instr)
				if !ok || outer.Lane == "" {
					continue
				}
				for _, inner := range c.sourcesOf(fn, instr.Val, 4) {
					c.addWrap(inner, outer.Lane, outer.Name, instr.Pos())
				}
			case *ssa.Call:
				c.findFilledStmtLinks(fn, instr)
				lane, kind, ok := catalog.LaneTyped(instr.Type())
				if !ok || kind == "executor" {
					continue
				}
				for _, arg := range instr.Common().Args {
					for _, inner := range c.sourcesOf(fn, arg, 4) {
						c.addWrap(inner, catalog.LaneName(lane.Obj().Name()), callName(instr.Common()), c.callStart(instr.Pos()))
					}
				}
			}
		}
	}
}

func (c *checker) addWrap(inner lanes.Resource, lane, outer string, pos token.Pos) {
	if inner.Lane == lane {
		return // a lane's pool wrapped into its own lane
	}
	for _, w := range c.wraps {
		if w.Inner.Key == inner.Key && w.Lane == lane {
			return
		}
	}
	c.wraps = append(c.wraps, lanes.Wrap{Inner: inner, Lane: lane, Outer: outer, Pos: c.posString(pos)})
}

// sourcesOf returns the resources a value is built from: loads of resource
// variables and fields, and resources made in this function, through
// conversions, constructor calls and struct literals.
func (c *checker) sourcesOf(fn *ssa.Function, v ssa.Value, depth int) []lanes.Resource {
	if depth == 0 || v == nil {
		return nil
	}
	switch v := v.(type) {
	case *ssa.UnOp:
		if v.Op == token.MUL {
			if r, ok := c.loadedResource(v.X); ok {
				return []lanes.Resource{r}
			}
		}
		return nil
	case *ssa.MakeInterface:
		return c.sourcesOf(fn, v.X, depth)
	case *ssa.ChangeType:
		return c.sourcesOf(fn, v.X, depth)
	case *ssa.ChangeInterface:
		return c.sourcesOf(fn, v.X, depth)
	case *ssa.Field:
		// A field of a struct value (opt.DB of an options parameter) is
		// that field's pool, as a load through its address is.
		if f := ssautil.StructField(v.X.Type(), v.Field); f != nil {
			if r, ok := c.resourceOf(f, v.X.Type()); ok {
				return []lanes.Resource{r}
			}
		}
		return nil
	case *ssa.Alloc:
		var out []lanes.Resource
		for _, ref := range ssautil.Referrers(v) {
			fa, ok := ref.(*ssa.FieldAddr)
			if !ok {
				continue
			}
			for _, st := range ssautil.Referrers(fa) {
				if store, ok := st.(*ssa.Store); ok && store.Addr == fa {
					out = append(out, c.sourcesOf(fn, store.Val, depth-1)...)
				}
			}
		}
		return out
	}
	var out []lanes.Resource
	if call, ok := v.(*ssa.Call); ok {
		// A function given a pool wraps it (sqlx.NewDb(db), lanedb.NewDB);
		// a method of a pool makes a new one (transport.Clone()).
		args := call.Common().Args
		if ssautil.Receiver(call.Common()) != nil && !call.Common().IsInvoke() {
			args = args[1:]
		}
		for _, arg := range args {
			out = append(out, c.sourcesOf(fn, arg, depth-1)...)
		}
	}
	if len(out) > 0 {
		return out
	}
	// A pool or client made here, as pgxpool.New's result: a resource of
	// this function alone, shared if two lanes wrap it.
	if r, ok := c.madeHere(fn, v); ok {
		return []lanes.Resource{r}
	}
	return nil
}

func (c *checker) madeHere(fn *ssa.Function, v ssa.Value) (lanes.Resource, bool) {
	noun := catalog.ResourceNoun(v.Type())
	if _, typed := c.typedResource(v.Type()); noun == "" || typed {
		return lanes.Resource{}, false
	}
	local := lanes.Resource{Key: "local:" + fn.String() + ":" + v.Name(), Noun: noun, Pkg: c.pass.Pkg.Path()}
	if param, ok := v.(*ssa.Parameter); ok {
		local.Name = fmt.Sprintf("the %s passed to %s as %s", noun, c.funcName(fn), param.Name())
		return local, true
	}
	call, ok := v.(*ssa.Call)
	if ex, isExtract := v.(*ssa.Extract); isExtract {
		call, ok = ex.Tuple.(*ssa.Call)
	}
	if !ok {
		return lanes.Resource{}, false
	}
	local.Name = fmt.Sprintf("the %s from %s at %s", noun, callName(call.Common()), c.posString(c.callStart(call.Pos())))
	return local, true
}

// ---- reporting ----

// entryLanes maps the names of known entry points, of this package and
// the ones it imports, to their lanes.
func (c *checker) entryLanes() map[string][]string {
	out := map[string][]string{}
	add := func(e lanes.Entry) {
		if !slices.Contains(out[e.Name], e.Lane) {
			out[e.Name] = append(out[e.Name], e.Lane)
		}
	}
	for _, e := range c.entries {
		add(e.entry)
	}
	for _, pf := range c.pass.AllPackageFacts() {
		if s, ok := pf.Fact.(*lanes.Summary); ok {
			for _, e := range s.Entries {
				add(e)
			}
		}
	}
	return out
}

// throughEntry reports whether a path passes through another entry point
// of the same lane, where the same finding is reported already.
func throughEntry(path []lanes.Hop, lane string, entryLanes map[string][]string) bool {
	for _, hop := range path {
		if slices.Contains(entryLanes[hop.Name], lane) {
			return true
		}
	}
	return false
}

func (c *checker) reportForeignUses(e localEntry, entryLanes map[string][]string) {
	named := namedLanes(e.uses)
	for _, u := range e.uses {
		r := u.use.Resource
		if r.Lane == "" || r.Lane == e.entry.Lane || throughEntry(u.use.Path, e.entry.Lane, entryLanes) {
			continue
		}
		if isTypeOnly(r) && named[r.Lane] {
			continue // a lane-typed pool already reported by the variable it came from
		}
		d := analysis.Diagnostic{
			Pos: u.pos,
			Message: fmt.Sprintf("%s: lane %s reaches %s, the %s of lane %s, by %s; when %s work slows, it holds what %s needs: give lane %s its own %s, or hand this work to lane %s",
				Code, e.entry.Lane, r.Name, r.Noun, r.Lane, u.use.PathString(e.short), e.entry.Lane, r.Lane, e.entry.Lane, r.Noun, r.Lane),
		}
		if e.pos.IsValid() && e.pos != u.pos {
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: e.pos, Message: "lane " + e.entry.Lane + " enters at " + e.short})
		}
		for _, hop := range u.use.Path {
			if obj := c.lookup(hop.Pkg, hop.Obj); obj != nil && obj.Pos().IsValid() {
				d.Related = append(d.Related, analysis.RelatedInformation{Pos: obj.Pos(), Message: "through " + hop.Name})
			}
		}
		if obj := c.lookup(r.Pkg, r.Obj); obj != nil && obj.Pos().IsValid() {
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: obj.Pos(), Message: r.Name + " belongs to lane " + r.Lane})
		}
		c.pass.Report(d)
	}
}

// checkShared exports this package's summary and reports the resources
// that lanes share and that this package is the first to see whole.
func (c *checker) checkShared() {
	deps := c.deps
	own := &lanes.Summary{Pkg: c.pass.Pkg.Path(), Wraps: c.wraps, Links: c.links}
	for _, d := range deps {
		for _, l := range d.Links {
			if !slices.Contains(own.Links, l) {
				own.Links = append(own.Links, l)
			}
		}
	}
	own.Impls, own.Dead, own.Created = c.allImpls, c.dead, c.created()
	for _, e := range c.entries {
		if e.entry.Inferred {
			e.entry.Uses = append(e.entry.Uses, c.resolveDead(e.entry.Dispatch)...)
		}
		e.entry.Dispatch = c.liveUses(e.entry.Dispatch)
		own.Entries = append(own.Entries, e.entry)
	}
	seen := map[string]bool{}
	for _, d := range deps {
		for _, p := range d.Seen {
			seen[p] = true
		}
	}
	if len(own.Entries) > 0 || len(own.Wraps) > 0 {
		seen[own.Pkg] = true
	}
	if len(seen) == 0 {
		if len(own.Links) > 0 || len(own.Impls) > 0 || len(own.Dead) > 0 || len(own.Created) > 0 || carriesAny(deps) {
			own.Declared = declaredIn(deps, own)
			if !own.Declared {
				own.Carried = carryOn(c.inferredView(deps, own), own.Pkg)
				for _, d := range deps {
					own.Pending = append(own.Pending, d.Pending...)
				}
			}
			c.pass.ExportPackageFact(own)
		}
		return
	}
	own.Seen = sortedKeys(seen)
	for _, conflict := range lanes.Conflicts(append(deps, own)) {
		if !conflict.Inferred() && !conflict.SeenBefore(deps) {
			c.reportConflict(conflict)
		}
	}
	own.Declared = declaredIn(deps, own)
	reported := reportedBefore(deps)
	inferred := map[string]lanes.Conflict{}
	if !own.Declared {
		inferred = pendingBefore(deps, reported)
		view := c.inferredView(deps, own)
		own.Carried = carryOn(view, own.Pkg)
		for _, conflict := range lanes.Conflicts(c.resolveSummaries(view)) {
			if conflict.Inferred() && !reported[conflict.Resource.Key] {
				inferred[conflict.Resource.Key] = conflict
			}
		}
	}
	var pending []lanes.Conflict
	for _, key := range sortedKeys(inferred) {
		pending = append(pending, inferred[key])
	}
	done := c.reportInferred(pending)
	for _, key := range done {
		reported[key] = true
	}
	for _, conf := range pending {
		if !reported[conf.Resource.Key] {
			own.Pending = append(own.Pending, conf)
		}
	}
	own.Reported = sortedSet(reported)
	c.pass.ExportPackageFact(own)
}

func (c *checker) reportConflict(conf lanes.Conflict) {
	r := conf.Resource
	var reached, wrapped []string
	var here []lanes.Claim
	for _, cl := range conf.Claims {
		switch cl.How {
		case "reached":
			reached = append(reached, fmt.Sprintf("lane %s by %s", cl.Lane, cl.Path))
		case "wrapped":
			wrapped = append(wrapped, fmt.Sprintf("lane %s by %s", cl.Lane, cl.By))
		case "declared":
			wrapped = append(wrapped, fmt.Sprintf("lane %s by its //bhlint:lane", cl.Lane))
		}
		if cl.Pkg == c.pass.Pkg.Path() && c.pos[cl.Pos].IsValid() && cl.How != "declared" {
			here = append(here, cl)
		}
	}
	var msg string
	if len(wrapped) > 0 {
		msg = fmt.Sprintf("%s: one %s, %s, is given to lanes %s (%s); its connections are one failure domain whatever wraps them: open one %s per lane",
			Code, r.Noun, r.Name, strings.Join(conf.Lanes(), " and "), strings.Join(append(wrapped, reached...), "; "), r.Noun)
	} else {
		msg = fmt.Sprintf("%s: %s, %s %s with no lane, is reached from lanes %s (%s); a slow call in one lane holds the others' share: give each lane its own %s and mark it //bhlint:lane NAME",
			Code, r.Name, article(r.Noun), r.Noun, strings.Join(conf.Lanes(), " and "), strings.Join(reached, "; "), r.Noun)
	}
	d := analysis.Diagnostic{Message: msg}
	if len(here) > 0 {
		d.Pos = c.claimPos(here[0])
		for _, cl := range here[1:] {
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: c.claimPos(cl), Message: "lane " + cl.Lane + ": " + cl.By})
		}
	} else {
		d.Pos = c.packageClause()
	}
	if obj := c.lookup(r.Pkg, r.Obj); obj != nil && obj.Pos().IsValid() {
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: obj.Pos(), Message: r.Name + " is declared here"})
	}
	c.pass.Report(d)
}

// claimPos is where a claim made in this package is reported: the first
// use in the entry point that leads to the resource, or the wrap.
func (c *checker) claimPos(cl lanes.Claim) token.Pos {
	if cl.How == "reached" {
		for _, e := range c.entries {
			if e.entry.Pos != cl.Pos || e.entry.Lane != cl.Lane {
				continue
			}
			for _, u := range e.uses {
				if u.use.PathString(e.entry.Name) == cl.Path {
					return u.pos
				}
			}
		}
	}
	return c.pos[cl.Pos]
}

func (c *checker) packageClause() token.Pos {
	var files []*ast.File
	for _, f := range c.pass.Files {
		if !c.isTestFile(f.Pos()) {
			files = append(files, f)
		}
	}
	if len(files) == 0 {
		return token.NoPos
	}
	sort.Slice(files, func(i, j int) bool {
		return c.pass.Fset.Position(files[i].Pos()).Filename < c.pass.Fset.Position(files[j].Pos()).Filename
	})
	return files[0].Package
}

// lookup finds an object of this package or of a package it depends on by
// its objectpath, for Related positions across packages.
func (c *checker) lookup(pkgPath, objPath string) types.Object {
	if pkgPath == "" || objPath == "" {
		return nil
	}
	seen := map[*types.Package]bool{}
	var find func(p *types.Package) *types.Package
	find = func(p *types.Package) *types.Package {
		if seen[p] {
			return nil
		}
		seen[p] = true
		if p.Path() == pkgPath {
			return p
		}
		for _, imp := range p.Imports() {
			if found := find(imp); found != nil {
				return found
			}
		}
		return nil
	}
	pkg := find(c.pass.Pkg)
	if pkg == nil {
		return nil
	}
	obj, err := objectpath.Object(pkg, objectpath.Path(objPath))
	if err != nil {
		return nil
	}
	return obj
}

// callStart maps the Lparen position SSA records for a call to the start of
// the call expression.
func (c *checker) callStart(lparen token.Pos) token.Pos {
	return c.starts.Start(c.pass.Files, lparen)
}

// ---- small helpers ----

// namedLanes are the lanes of the variables and fields among uses.
func namedLanes(uses []localUse) map[string]bool {
	named := map[string]bool{}
	for _, u := range uses {
		if !isTypeOnly(u.use.Resource) {
			named[u.use.Resource.Lane] = true
		}
	}
	return named
}

// isTypeOnly tells a lane-typed pool known by its type alone (a parameter)
// from one known by its variable; the variable is the better name.
func isTypeOnly(r lanes.Resource) bool { return r.Pkg == "" && r.Obj == "" }

func analysisDiag(pos token.Pos, msg string) analysis.Diagnostic {
	return analysis.Diagnostic{Pos: pos, Message: msg}
}

func origin(fn *ssa.Function) *ssa.Function { return ssautil.Origin(fn) }

func isLoad(v ssa.Value) bool {
	u, ok := v.(*ssa.UnOp)
	return ok && u.Op == token.MUL
}

func callName(common *ssa.CallCommon) string {
	if common.IsInvoke() {
		return netio.Name(common.Method)
	}
	if callee := common.StaticCallee(); callee != nil {
		if obj, ok := origin(callee).Object().(*types.Func); ok {
			return netio.Name(obj)
		}
		return callee.Name()
	}
	return "a call"
}

// shortName names a function as its own package's code does: QuoteHandler,
// (*Handler).ServeHTTP.
func shortName(obj types.Object, pkg *types.Package) string {
	fn, ok := obj.(*types.Func)
	if !ok {
		return obj.Name()
	}
	if fn.Pkg() != pkg {
		return netio.Name(fn)
	}
	if recv := fn.Signature().Recv(); recv != nil {
		return "(" + types.TypeString(recv.Type(), types.RelativeTo(pkg)) + ")." + fn.Name()
	}
	return fn.Name()
}

func (c *checker) funcName(fn *ssa.Function) string {
	if obj, ok := fn.Object().(*types.Func); ok {
		return shortName(obj, c.pass.Pkg)
	}
	return netio.DisplayName(fn)
}

// article is "a" or "an" for a noun.
func article(noun string) string {
	if noun != "" && strings.ContainsRune("aeioAEIOH", rune(noun[0])) {
		return "an"
	}
	return "a"
}

// joinAnd lists names as a sentence does: "a", "a and b", "a, b and c".
func joinAnd(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
