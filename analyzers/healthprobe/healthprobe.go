package healthprobe

import (
	_ "embed"
	"go/build"
	"go/token"
	"go/types"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/docs"
	"github.com/bhlint/bhlint/internal/guard"
	"github.com/bhlint/bhlint/internal/lazyssa"
	"github.com/bhlint/bhlint/internal/netio"
	"github.com/bhlint/bhlint/internal/objpath"
	"github.com/bhlint/bhlint/internal/pkgscope"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// Code starts every message of this analyzer.
const Code = "ERR_HEALTH_PROBE_SHARES_FAILURE_DOMAIN"

//go:embed doc.go
var doc string

// Analyzer reports health, liveness and readiness probes that reach a pool
// or client request traffic also uses.
var Analyzer = lazyssa.Budgeted(guard.Wrap(&analysis.Analyzer{
	Name:      "healthprobe",
	Doc:       docs.Extract(doc, "healthprobe"),
	URL:       "https://github.com/bhlint/bhlint/tree/main/analyzers/healthprobe",
	Requires:  []*analysis.Analyzer{lazyssa.Analyzer, netio.Analyzer},
	FactTypes: []analysis.Fact{new(reachesShared), new(returnsHandler), new(callsThrough), new(pendingProbes), new(returnsPool), new(probeField), new(fieldReaches)},
	Run:       run,
}, Code))

// reachesShared marks a function that reaches a shared pool or client:
// what it is, the call that uses it, and the functions on the way.
type reachesShared struct {
	Noun     string // "database pool", "Redis client", "HTTP client", …
	Resource string // the user's identifier: "Store.db", "pools.Main"
	Call     string // the call that uses it: "(*sql.DB).PingContext"
	Path     []string
	// Param, when ≥ 0, says the resource is the function's parameter
	// Param (the receiver counting as 0): its caller names it.
	Param int
	// SiteFile and SiteLine: the call in the function that leads to the
	// use, where a package that registers the function (or the closure a
	// factory returns) as a probe points its related information: the
	// line in the handler to change.
	SiteFile string
	SiteLine int
	// UseFile and UseLine: the resource's use at the end of the chain,
	// for related information in another package; UseModule, the module
	// whose code that is. A module that reaches it through another's
	// points at its own call into that module instead (through): a
	// generated API client's or x/net's line is not the user's to change.
	UseFile   string
	UseLine   int
	UseModule string
}

func (*reachesShared) AFact() {}
func (f *reachesShared) String() string {
	name := f.Resource
	if f.Param >= 0 {
		name = "param " + strconv.Itoa(f.Param)
	}
	return "reachesShared(" + f.Noun + " " + name + " via " + strings.Join(append(append([]string(nil), f.Path...), f.Call), " → ") + ")"
}

// maxPath bounds the call paths facts carry.
const maxPath = 8

// freeVarBase numbers a closure's free variables after its parameters, so
// that a resource a closure captures is named where the closure is made.
const freeVarBase = 1000

// scope: a package that reaches none of these uses no pool or client.
var scope = append(append([]string(nil), catalog.LanePackages...), catalog.NetworkPackages...)

type checker struct {
	pass  *analysis.Pass
	net   *netio.Result
	funcs []*ssa.Function
	local map[*ssa.Function]bool
	// uses are what the package's functions reach, to a fixed point.
	uses   map[*ssa.Function]*use
	rounds ssautil.Rounds
	// probeSet: the functions a probe of this package runs (the probes
	// and what they call here); a pool only they touch is theirs.
	probeSet map[*ssa.Function]bool
	vars     *varIndex
	starts   ssautil.CallStarts
	impls    map[string][]*types.Func // by interface method's shape (implementationsOf)
	// methodOwners: per visible package, its concrete types by the names
	// of their methods (typesWithMethod).
	methodOwners map[*types.Package]map[string][]*types.Named
	byObj        map[types.Object]*ssa.Function // the package's declared functions
	reported     map[[2]token.Pos]bool
	resTypes     *[]resourceType // the catalogue's pool and client types visible here
	// ifaceCalls: the package's functions that reach no resource but call
	// through the module's interfaces (dispatch.go).
	ifaceCalls map[*ssa.Function][]siteCall
	paths      objpath.Paths
	imported   map[string]*types.Package
	module     *[]*types.Package
	pending    pendingProbes
	// ownCarried: this package's implementations to pass on (ownImpls);
	// carriedImpls: those and the ones known by facts (dispatch.go).
	ownCarried   *[]carriedImpl
	carriedImpls map[string][]carriedImpl
	// accessors: the package's functions that return a pool boxed in an
	// interface (accessor.go), nil for those that do not.
	accessors map[*ssa.Function]*returnsPool
}

// use is a resource a function reaches: the fact, and where in this
// package the resource is used (NoPos when the use is in another package).
type use struct {
	reachesShared
	site token.Pos // the call in the function that leads to it
	at   token.Pos // the resource's use, when in this package
	// decl is where the first function on the path is declared, for a
	// use in another package.
	decl token.Pos
	// probeCall is the probe's call that leads to the resource through an
	// interface, or its handler, when either is in another package.
	probeCall token.Pos
	// others: the other implementations of the interface the probe calls
	// through that reach a pool.
	others []otherReach
}

func run(pass *analysis.Pass) (any, error) {
	// A package that reaches no pool or client may still call through an
	// interface that the module implements with one (dispatch.go).
	if isLibrary(pass) || !pkgscope.Reaches(pass.Pkg, scope) && !pkgscope.Reaches(pass.Pkg, catalog.ProbePackages) {
		return nil, nil
	}
	builder := pass.ResultOf[lazyssa.Analyzer].(*lazyssa.Builder)
	c := &checker{
		pass:         pass,
		net:          pass.ResultOf[netio.Analyzer].(*netio.Result),
		local:        map[*ssa.Function]bool{},
		uses:         map[*ssa.Function]*use{},
		probeSet:     map[*ssa.Function]bool{},
		impls:        map[string][]*types.Func{},
		methodOwners: map[*types.Package]map[string][]*types.Named{},
		byObj:        map[types.Object]*ssa.Function{},
		reported:     map[[2]token.Pos]bool{},
		ifaceCalls:   map[*ssa.Function][]siteCall{},
		accessors:    map[*ssa.Function]*returnsPool{},
	}
	for _, fn := range builder.SrcFuncs() {
		if strings.HasSuffix(pass.Fset.Position(fn.Pos()).Filename, "_test.go") || lazyssa.Size(fn) > lazyssa.Budget(pass.Analyzer) && lazyssa.Budget(pass.Analyzer) > 0 {
			continue
		}
		c.funcs = append(c.funcs, fn)
		c.local[fn] = true
		if obj := fn.Object(); obj != nil && fn.Parent() == nil {
			c.byObj[obj] = fn
		}
	}
	var probes []probe
	if pkgscope.Reaches(pass.Pkg, catalog.ProbePackages) {
		probes = c.findProbes()
		c.markProbeSet(probes)
	}
	c.vars = indexVars(c.funcs)
	c.computeReach()
	c.computeDispatch()
	c.exportFacts()
	c.exportThrough()
	c.exportFactories()
	c.exportAccessors()
	c.exportProbeFields(probes)
	guard.At(token.NoPos, c.exportFieldReaches)
	guard.At(token.NoPos, c.reportFieldStores)
	for _, p := range probes {
		guard.At(p.at, func() { c.check(p) })
	}
	guard.At(token.NoPos, c.resolvePending)
	return nil, nil
}

// isLibrary: the standard library and the catalogue's client, pool and
// router libraries are where calls end, not probes or callers; assertion
// and mock libraries are test code, which no load balancer's probe runs
// (their calls through testing.TB would otherwise travel in every
// importer's facts).
func isLibrary(pass *analysis.Pass) bool {
	libs := append(append([]string{catalog.RuntimePath}, catalog.LanePackages...), catalog.ProbePackages...)
	if catalog.InPackages(pass.Pkg.Path(), libs) || catalog.IsTestSupport(pass.Pkg.Path()) || len(pass.Files) == 0 {
		return true
	}
	goroot := filepath.Join(build.Default.GOROOT, "src") + string(filepath.Separator)
	return strings.HasPrefix(pass.Fset.Position(pass.Files[0].Pos()).Filename, goroot)
}

func (c *checker) computeReach() {
	c.rounds.Run(c.funcs, func(fn *ssa.Function) {
		if _, done := c.uses[fn]; done {
			return
		}
		if u := c.firstUse(fn); u != nil {
			c.uses[fn] = u
			c.rounds.Changed(fn)
		}
	}, nil)
}

func (c *checker) exportFacts() {
	for fn, u := range c.uses {
		if obj, ok := fn.Object().(*types.Func); ok && fn.Parent() == nil {
			f := c.withSite(u)
			c.pass.ExportObjectFact(obj, &f)
		}
	}
}

// withSite is u's fact with the position of its call in the function, for
// another package's related information.
func (c *checker) withSite(u *use) reachesShared {
	f := u.reachesShared
	if u.site.IsValid() {
		at := c.pass.Fset.Position(u.site)
		f.SiteFile, f.SiteLine = at.Filename, at.Line
	}
	if u.at.IsValid() {
		at := c.pass.Fset.Position(u.at)
		f.UseFile, f.UseLine, f.UseModule = at.Filename, at.Line, pkgscope.ModulePath(c.pass.Module)
	}
	return f
}

// firstUse is the first call, by position, in fn's body that reaches a
// shared resource: not in a goroutine it starts, unless it waits for it.
func (c *checker) firstUse(fn *ssa.Function) *use { return c.firstUseExcept(fn, nil) }

// firstUseExcept is firstUse without the calls skip rejects.
func (c *checker) firstUseExcept(fn *ssa.Function, skip func(site token.Pos) bool) *use {
	var first *use
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			var common *ssa.CallCommon
			switch instr := instr.(type) {
			case *ssa.Call:
				common = instr.Common()
			case *ssa.Defer:
				common = instr.Common()
			case *ssa.Go:
				// A goroutine the function waits for (it receives from a
				// channel the goroutine was given): a ping with a timeout
				// around it still waits on the pool.
				if !waitsFor(fn, instr) {
					continue
				}
				common = instr.Common()
			default:
				continue
			}
			u := c.callUse(fn, common)
			if u == nil {
				continue
			}
			u.site = c.starts.Start(c.pass.Files, common.Pos())
			if skip != nil && skip(u.site) {
				continue
			}
			if first == nil || u.site < first.site {
				first = u
			}
		}
	}
	return first
}

// waitsFor: fn receives (<-ch, or a select case) from a channel it hands
// to the goroutine g starts (a closure's capture or an argument).
func waitsFor(fn *ssa.Function, g *ssa.Go) bool {
	handed := map[ssa.Value]bool{}
	for _, v := range g.Common().Args {
		handed[v] = true
	}
	if mc, ok := g.Common().Value.(*ssa.MakeClosure); ok {
		for _, b := range mc.Bindings {
			handed[b] = true
		}
	}
	received := func(ch ssa.Value) bool {
		if handed[ch] {
			return true
		}
		// A captured channel variable: the cell it is loaded from.
		load, ok := ch.(*ssa.UnOp)
		return ok && load.Op == token.MUL && handed[load.X]
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.UnOp:
				if x.Op == token.ARROW && received(x.X) {
					return true
				}
			case *ssa.Select:
				for _, st := range x.States {
					if st.Dir == types.RecvOnly && received(st.Chan) {
						return true
					}
				}
			}
		}
	}
	return false
}
