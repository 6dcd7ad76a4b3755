// Package netio computes which functions may do network I/O: those that call
// an entry of the network catalogue, directly or through static calls, in
// this package or, by facts, in the packages it imports.
//
// It is a fact-producing helper pass in the style of ctrlflow: bhlint's
// analyzers Require it and ask its Result whether a call reaches the network
// and by what path. Calls through function values are not followed, but
// for a function looked up by a constant key in one of the package's map
// literals of functions (a database layer's dispatch table, chosen per
// backend at run time: ssautil.DispatchTables), which may be any function
// the package's tables store under that key, and for a function drawn from
// a slice or array literal of functions the caller writes out (a flow run
// as a list of steps, for _, step := range []func() error{c.load,
// c.ask, c.save}: ssautil.ListedFuncs), which may be any of them. Calls
// through interfaces are followed in three cases: interface methods that
// are themselves in the catalogue (grpc.ClientConnInterface.Invoke,
// redis.Cmdable commands); interface methods shaped as (*http.Client).Do
// (catalog.IsHTTPDoer), since a library's Doer or HTTPClient is how it takes
// the caller's client, and whatever implements it sends the request and
// waits for the response; and an interface method that every concrete type
// of the interface's own package that implements it implements with a
// method that reaches the network (a generated gRPC client interface and its
// unexported client, an SDK's request builder whose Execute sends, a
// service's Client interface and its HTTP implementation): the package that
// declares both is where the call is resolved, once, for every importer (a
// MayNetwork fact on the interface method). One implementation that does
// something and does not reach it is enough to leave the method out (a
// no-op that calls nothing is a stand-in, not such an implementation): a
// logger's interface with a syslog writer beside a stream writer (xorm's
// log.Logger, called by every session method) reaches the network only
// where the deployment picks syslog, and its call is a log line, not a wait
// on a dependency. An interface whose implementations live elsewhere is
// resolved, for the module's own interfaces, where the caller's build
// includes them (ImplementedInBuild, a package fact each of the program's
// packages carries on): dex's connector.RefreshConnector, declared in
// connector and implemented over HTTP by connector/oidc and its siblings,
// all imported by the server that calls it. The same rule holds there:
// every implementation in the build that is not a stand-in must reach the
// network; a test double (declared in a test file or a package named for
// mocks, fakes or stubs) is a stand-in too, and a decorator that calls the
// same method on the value it wraps is no implementation of its own. Other
// modules' interfaces (io.Writer) stay unfollowed: which implementation
// runs is the caller's choice, not the build's. An implementation in a
// package that does not import the interface's package (a structural one)
// is not seen.
package netio

import (
	"go/token"
	"go/types"
	"reflect"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/guard"
	"github.com/bhlint/bhlint/internal/lazyssa"
	"github.com/bhlint/bhlint/internal/pkgscope"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// Analyzer exports a MayNetwork fact for every function that may do network
// I/O and returns a *Result for the current package.
var Analyzer = &analysis.Analyzer{
	Name:       "bhlintnetio",
	Doc:        "find functions that may do network I/O, for bhlint's passes",
	Run:        run,
	Requires:   []*analysis.Analyzer{lazyssa.Analyzer},
	ResultType: reflect.TypeFor[*Result](),
	FactTypes:  []analysis.Fact{new(MayNetwork), new(ImplementedInBuild)},
}

// maxPath bounds the call path a fact carries, to keep facts small.
const maxPath = 4

// MayNetwork marks a function that may make a network call. Path is the call
// chain from the function to the catalogue entry, shortened to its last hops;
// File and Line are where the function makes the first call of that chain,
// the line a caller that holds something across the call can be pointed to.
type MayNetwork struct {
	Path []string
	File string
	Line int
}

// AFact marks MayNetwork as an analysis fact.
func (*MayNetwork) AFact() {}

func (f *MayNetwork) String() string { return "mayNetwork(" + strings.Join(f.Path, " → ") + ")" }

// Result answers, for calls in the current package, whether they reach the
// network.
type Result struct {
	pass    *analysis.Pass
	local   map[*ssa.Function][]string
	at      map[*ssa.Function]token.Pos // the call of local's path in the function
	ifaces  map[*types.Func][]string    // this package's interface methods that reach, by an implementation of this package
	extra   *catalog.Table              // network calls the project's .bhlint.yml adds
	tables  *ssautil.DispatchTables     // the package's maps of functions, for calls looked up in them
	inBuild *buildImpls                 // the module interfaces' implementations in the build

	rounds ssautil.Rounds // run's, for who reads whose path
}

// isNetworkCall asks the shared catalogue and the project's additions.
func (r *Result) isNetworkCall(fn *types.Func) bool {
	return catalog.NetworkCalls.Has(fn) || r.extra.Has(fn)
}

// ReachesAny reports whether a function or interface method of this
// package reaches the network: a pass that asks only about the package's
// own functions need not build their SSA when none does.
func (r *Result) ReachesAny() bool { return len(r.local) > 0 || len(r.ifaces) > 0 }

// CallReaches returns the path by which the call reaches a network call, or
// nil if it does not (as far as static calls show).
func (r *Result) CallReaches(call *ssa.CallCommon) []string {
	if call.IsInvoke() {
		return r.methodReaches(call.Method)
	}
	callee := call.StaticCallee()
	if callee == nil {
		// A function looked up in one of the package's tables: any the
		// key names may be the one that runs.
		for _, fn := range r.tables.Of(call) {
			if path := r.FuncReaches(fn); path != nil {
				return path
			}
		}
		return nil
	}
	return r.FuncReaches(callee)
}

// FuncReaches returns the path by which fn reaches a network call, or nil.
func (r *Result) FuncReaches(fn *ssa.Function) []string {
	if origin := fn.Origin(); origin != nil {
		fn = origin
	}
	if obj, ok := fn.Object().(*types.Func); ok {
		if r.isNetworkCall(obj) {
			return []string{Name(obj)}
		}
		if obj.Pkg() != nil && obj.Pkg() != r.pass.Pkg {
			return r.imported(obj)
		}
	}
	r.rounds.Read(fn)
	if path, ok := r.local[fn]; ok {
		return prepend(DisplayName(fn), path)
	}
	return nil
}

// imported is the path another package's MayNetwork fact gives obj, or nil.
func (r *Result) imported(obj *types.Func) []string {
	var fact MayNetwork
	if r.pass.ImportObjectFact(obj, &fact) {
		return prepend(Name(obj), fact.Path)
	}
	return nil
}

// methodReaches returns the path by which a call of the interface method m
// reaches a network call, or nil.
func (r *Result) methodReaches(m *types.Func) []string {
	if r.isNetworkCall(m) || catalog.IsHTTPDoer(m) {
		return []string{Name(m)}
	}
	m = m.Origin()
	if m.Pkg() == nil {
		return nil
	}
	if m.Pkg() != r.pass.Pkg {
		if path := r.imported(m); path != nil {
			return path
		}
		return r.buildReaches(m)
	}
	r.rounds.Read(m)
	if path, ok := r.ifaces[m]; ok {
		return prepend(Name(m), path)
	}
	return nil
}

func run(pass *analysis.Pass) (any, error) {
	cfg, err := guard.Config(pass)
	if err != nil {
		return nil, err
	}
	res := &Result{pass: pass, local: map[*ssa.Function][]string{}, at: map[*ssa.Function]token.Pos{}, ifaces: map[*types.Func][]string{}, extra: catalog.NewTable(cfg.Catalog.NetworkCalls...)}
	res.inBuild = res.newBuildImpls()
	if len(cfg.Catalog.NetworkCalls) == 0 && !pkgscope.Reaches(pass.Pkg, catalog.NetworkPackages) || !res.usesNetwork() {
		res.exportBuildImpls()
		return res, nil
	}
	builder := pass.ResultOf[lazyssa.Analyzer].(*lazyssa.Builder)
	res.inBuild.attach(builder.Package().Prog)
	impls := implementationsByMethod(pass.Pkg, builder.Package().Prog)
	res.tables = ssautil.NewDispatchTables(builder.Package().Prog, pass.Pkg, pass.TypesInfo, pass.Files)
	// Propagate to a fixed point: a round may add callers of functions
	// found in the one before (recursion, calls to later declarations), and
	// the interface methods whose implementation was.
	res.rounds.Run(builder.SrcFuncs(), func(fn *ssa.Function) {
		if _, done := res.local[fn]; done {
			return
		}
		if path, at := res.directReach(fn); path != nil {
			res.local[fn] = path
			res.at[fn] = at
			res.rounds.Changed(fn)
		}
	}, func() {
		for _, m := range impls.methods {
			if _, done := res.ifaces[m]; done {
				continue
			}
			if path := res.everyImplReaches(impls.funcs[m]); path != nil {
				res.ifaces[m] = path
				res.rounds.Changed(m)
			}
		}
	})
	res.firstInSource()
	for fn, path := range res.local {
		if obj, ok := fn.Object().(*types.Func); ok && fn.Parent() == nil {
			posn := pass.Fset.Position(res.at[fn])
			pass.ExportObjectFact(obj, &MayNetwork{Path: path, File: posn.Filename, Line: posn.Line})
		}
	}
	for m, path := range res.ifaces {
		pass.ExportObjectFact(m, &MayNetwork{Path: path})
	}
	res.exportBuildImpls()
	return res, nil
}

// implementations are the package's interface methods that a type of the
// package implements, in a fixed order, each with its implementations: an
// implementation with no SSA function (nil) reaches nothing we can see.
type implementations struct {
	methods []*types.Func
	funcs   map[*types.Func][]*ssa.Function
}

func implementationsByMethod(pkg *types.Package, prog *ssa.Program) implementations {
	out := implementations{funcs: map[*types.Func][]*ssa.Function{}}
	for _, im := range ssautil.LocalImplementations(pkg) {
		if _, seen := out.funcs[im.Method]; !seen {
			out.methods = append(out.methods, im.Method)
		}
		out.funcs[im.Method] = append(out.funcs[im.Method], prog.FuncValue(im.Impl))
	}
	return out
}

// everyImplReaches returns the path of the first implementation when every
// one of them that does something reaches the network, else nil. A
// generated gRPC client's interface has one implementation, the client; a
// service's authorization client may have a no-op beside it for tests
// (minder's authz.Client: OpenFGA's, and Noop), which calls nothing and
// decides nothing. A logger's interface with a syslog writer beside a
// stream writer (xorm's log.Logger, called by every session method)
// reaches the network only where the deployment picks syslog, and its call
// is a log line, not a wait on a dependency.
func (r *Result) everyImplReaches(fns []*ssa.Function) []string {
	var first []string
	for _, fn := range fns {
		if fn == nil {
			return nil
		}
		if callsNothing(fn) {
			continue // a stand-in
		}
		path := r.FuncReaches(fn)
		if path == nil {
			return nil
		}
		if first == nil {
			first = path
		}
	}
	return first
}

// callsNothing reports whether fn, with the function literals it makes,
// calls no function but the builtins: a no-op, or an in-memory stand-in.
func callsNothing(fn *ssa.Function) bool {
	for _, f := range append([]*ssa.Function{fn}, fn.AnonFuncs...) {
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				if _, builtin := call.Common().Value.(*ssa.Builtin); !builtin {
					return false
				}
			}
		}
	}
	return true
}

// usesNetwork reports whether the package refers to a network call (of the
// catalogue or the project's additions) or to a function that another
// package found to reach the network (a MayNetwork fact). Every path
// directReach finds ends in such a function, named somewhere in the package,
// so a package that names none has nothing to find and needs no SSA.
func (r *Result) usesNetwork() bool {
	return pkgscope.UsesFunc(r.pass.TypesInfo, func(fn *types.Func) bool {
		origin := fn.Origin()
		return r.isNetworkCall(fn) || catalog.IsHTTPDoer(fn) ||
			origin.Pkg() != nil && origin.Pkg() != r.pass.Pkg && (r.pass.ImportObjectFact(origin, new(MayNetwork)) || r.inBuild.waits(origin))
	})
}

// directReach returns the path of the first call in fn that reaches the
// network, and the call's position. Calls in a goroutine do not make fn
// wait, so they do not count.
func (r *Result) directReach(fn *ssa.Function) ([]string, token.Pos) {
	for call := range ssautil.WaitedCalls(fn) {
		if path := r.CallReaches(call); path != nil {
			return path, call.Pos()
		}
	}
	return nil, token.NoPos
}

// firstInSource moves each function's recorded call to the first in the
// source that reaches the network, now that every path is known: a round
// finds a function by the call that reached first (a static call to a
// client), while a call written before it may reach only through an
// interface resolved a round later (minder's UpdateRoleAssignment resolves
// the subject at Keycloak, then writes to OpenFGA). The first one is where
// a reader of the function meets the wait, and every one is a line to move.
func (r *Result) firstInSource() {
	for fn := range r.local {
		for call := range ssautil.WaitedCalls(fn) {
			if call.Pos() >= r.at[fn] || !call.Pos().IsValid() {
				continue
			}
			if path := r.CallReaches(call); path != nil {
				r.local[fn], r.at[fn] = path, call.Pos()
			}
		}
	}
}

// FuncReachesAt returns where fn makes the call by which it reaches the
// network (its position in this pass's file set: exact in this package,
// the start of the line in another's), or token.NoPos when fn reaches none
// or is a catalogue entry.
func (r *Result) FuncReachesAt(fn *ssa.Function) token.Pos {
	if origin := fn.Origin(); origin != nil {
		fn = origin
	}
	if obj, ok := fn.Object().(*types.Func); ok && obj.Pkg() != nil && obj.Pkg() != r.pass.Pkg {
		var fact MayNetwork
		if r.pass.ImportObjectFact(obj, &fact) && fact.File != "" {
			return ssautil.LinePos(r.pass.Fset, fact.File, fact.Line)
		}
		return token.NoPos
	}
	return r.at[fn]
}

func prepend(name string, path []string) []string {
	out := append([]string{name}, path...)
	if len(out) > maxPath {
		out = append(out[:1], out[len(out)-maxPath+1:]...)
	}
	return out
}

// Name is the short name users read in a message: "http.Get",
// "(*http.Client).Do", "vendors.Score".
func Name(fn *types.Func) string {
	sig := fn.Signature()
	if recv := sig.Recv(); recv != nil {
		return "(" + recvName(recv.Type()) + ")." + fn.Name()
	}
	if fn.Pkg() == nil {
		return fn.Name()
	}
	return fn.Pkg().Name() + "." + fn.Name()
}

// recvName is a receiver type as the type printer writes it with package
// names: directly for a named type or a pointer to one (the printer showed
// in profiles: every call a pass looks at may be named).
func recvName(t types.Type) string {
	star := ""
	if p, ok := t.(*types.Pointer); ok {
		t, star = p.Elem(), "*"
	}
	if n, ok := t.(*types.Named); ok && n.Obj().Pkg() != nil && n.TypeArgs().Len() == 0 && n.TypeParams().Len() == 0 {
		return star + n.Obj().Pkg().Name() + "." + n.Obj().Name()
	}
	return star + types.TypeString(t, func(p *types.Package) string { return p.Name() })
}

// DisplayName names an SSA function, including function literals ("func
// literal in (*api.Server).Routes"), and an instantiation by its generic
// origin.
func DisplayName(fn *ssa.Function) string {
	if o := fn.Origin(); o != nil {
		fn = o
	}
	if obj, ok := fn.Object().(*types.Func); ok {
		return Name(obj)
	}
	if parent := fn.Parent(); parent != nil {
		return "func literal in " + DisplayName(parent)
	}
	return fn.Name()
}
