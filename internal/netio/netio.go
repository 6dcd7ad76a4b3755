// Package netio computes which functions may do network I/O: those that call
// an entry of the network catalogue, directly or through static calls, in
// this package or, by facts, in the packages it imports.
//
// It is a fact-producing helper pass in the style of ctrlflow: bhlint's
// analyzers Require it and ask its Result whether a call reaches the network
// and by what path. Calls through interfaces and function values are not
// followed, except for interface methods that are themselves in the
// catalogue (grpc.ClientConnInterface.Invoke, redis.Cmdable commands) and
// interface methods shaped as (*http.Client).Do (catalog.IsHTTPDoer): a
// library's Doer or HTTPClient is how it takes the caller's client, and
// whatever implements it sends the request and waits for the response.
package netio

import (
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
	FactTypes:  []analysis.Fact{new(MayNetwork)},
}

// maxPath bounds the call path a fact carries, to keep facts small.
const maxPath = 4

// MayNetwork marks a function that may make a network call. Path is the call
// chain from the function to the catalogue entry, shortened to its last hops.
type MayNetwork struct{ Path []string }

// AFact marks MayNetwork as an analysis fact.
func (*MayNetwork) AFact() {}

func (f *MayNetwork) String() string { return "mayNetwork(" + strings.Join(f.Path, " → ") + ")" }

// Result answers, for calls in the current package, whether they reach the
// network.
type Result struct {
	pass  *analysis.Pass
	local map[*ssa.Function][]string
	extra *catalog.Table // network calls the project's .bhlint.yml adds

	rounds ssautil.Rounds // run's, for who reads whose path
}

// isNetworkCall asks the shared catalogue and the project's additions.
func (r *Result) isNetworkCall(fn *types.Func) bool {
	return catalog.NetworkCalls.Has(fn) || r.extra.Has(fn)
}

// CallReaches returns the path by which the call reaches a network call, or
// nil if it does not (as far as static calls show).
func (r *Result) CallReaches(call *ssa.CallCommon) []string {
	if call.IsInvoke() {
		if r.isNetworkCall(call.Method) || catalog.IsHTTPDoer(call.Method) {
			return []string{Name(call.Method)}
		}
		return nil
	}
	callee := call.StaticCallee()
	if callee == nil {
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
			var fact MayNetwork
			if r.pass.ImportObjectFact(obj, &fact) {
				return prepend(Name(obj), fact.Path)
			}
			return nil
		}
	}
	r.rounds.Read(fn)
	if path, ok := r.local[fn]; ok {
		return prepend(displayName(fn), path)
	}
	return nil
}

func run(pass *analysis.Pass) (any, error) {
	cfg, err := guard.Config(pass)
	if err != nil {
		return nil, err
	}
	res := &Result{pass: pass, local: map[*ssa.Function][]string{}, extra: catalog.NewTable(cfg.Catalog.NetworkCalls...)}
	if len(cfg.Catalog.NetworkCalls) == 0 && !pkgscope.Reaches(pass.Pkg, catalog.NetworkPackages) {
		return res, nil
	}
	if !res.usesNetwork() {
		return res, nil
	}
	funcs := pass.ResultOf[lazyssa.Analyzer].(*lazyssa.Builder).SrcFuncs()
	// Propagate to a fixed point: a round may add callers of functions
	// found in the one before (recursion, calls to later declarations).
	res.rounds.Run(funcs, func(fn *ssa.Function) {
		if _, done := res.local[fn]; done {
			return
		}
		if path := res.directReach(fn); path != nil {
			res.local[fn] = path
			res.rounds.Changed(fn)
		}
	}, nil)
	for fn, path := range res.local {
		if obj, ok := fn.Object().(*types.Func); ok && fn.Parent() == nil {
			pass.ExportObjectFact(obj, &MayNetwork{Path: path})
		}
	}
	return res, nil
}

// usesNetwork reports whether the package refers to a network call (of the
// catalogue or the project's additions) or to a function that another
// package found to reach the network (a MayNetwork fact). Every path
// directReach finds ends in such a function, named somewhere in the package,
// so a package that names none has nothing to find and needs no SSA.
func (r *Result) usesNetwork() bool {
	for _, obj := range r.pass.TypesInfo.Uses {
		fn, ok := obj.(*types.Func)
		if !ok {
			continue
		}
		if r.isNetworkCall(fn) || catalog.IsHTTPDoer(fn) {
			return true
		}
		origin := fn.Origin()
		if origin.Pkg() != nil && origin.Pkg() != r.pass.Pkg && r.pass.ImportObjectFact(origin, new(MayNetwork)) {
			return true
		}
	}
	return false
}

// directReach returns the path of the first call in fn that reaches the
// network. Calls in a goroutine do not make fn wait, so they do not count.
func (r *Result) directReach(fn *ssa.Function) []string {
	for call := range ssautil.WaitedCalls(fn) {
		if path := r.CallReaches(call); path != nil {
			return path
		}
	}
	return nil
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

// displayName names an SSA function, including function literals.
func displayName(fn *ssa.Function) string {
	if obj, ok := fn.Object().(*types.Func); ok {
		return Name(obj)
	}
	if parent := fn.Parent(); parent != nil {
		return "func literal in " + displayName(parent)
	}
	return fn.Name()
}
