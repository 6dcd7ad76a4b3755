// Package noreturn finds the functions that never return (they exit, panic
// or loop for ever on every path), for the SSA builder, which ends a block
// at a call of one.
//
// It does what x/tools' ctrlflow pass does for SSA, without what SSA does not
// need: ctrlflow also builds the control-flow graph of every function
// literal, and it walks the package's syntax through the inspect pass,
// which indexes every node of every file. This pass runs on every package a
// driver visits, including every dependency, in a process of its own under
// go vet; it reads only the function declarations, whose bodies' graphs
// (statements, not expressions) decide the facts importers need.
package noreturn

import (
	"go/ast"
	"go/types"
	"reflect"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/cfg"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/bhlint/bhlint/internal/catalog"
)

// Analyzer exports a fact for each function of the package that never
// returns, and its result is a *Result.
var Analyzer = &analysis.Analyzer{
	Name:       "bhlintnoreturn",
	Doc:        "find the functions that never return, for SSA",
	Run:        run,
	ResultType: reflect.TypeFor[*Result](),
	FactTypes:  []analysis.Fact{new(neverReturns)},
}

// neverReturns marks a function none of whose paths returns.
type neverReturns struct{}

func (*neverReturns) AFact()         {}
func (*neverReturns) String() string { return "neverReturns" }

// Result answers for the package's functions and every imported one.
type Result struct {
	never map[*types.Func]bool
}

// NoReturn reports whether a call of fn never returns. Its signature is
// ssa.Program.SetNoReturn's.
func (r *Result) NoReturn(fn *types.Func) bool { return r.never[fn] }

type finder struct {
	pass    *analysis.Pass
	decls   map[*types.Func]*ast.FuncDecl
	started map[*types.Func]bool // to break cycles
	never   map[*types.Func]bool
}

func run(pass *analysis.Pass) (any, error) {
	f := &finder{pass: pass, decls: map[*types.Func]*ast.FuncDecl{}, started: map[*types.Func]bool{}, never: map[*types.Func]bool{}}
	for _, fact := range pass.AllObjectFacts() {
		if fn, ok := fact.Object.(*types.Func); ok {
			f.never[fn] = true
		}
	}
	var order []*types.Func
	for _, file := range pass.Files {
		for _, decl := range file.Decls {
			if decl, ok := decl.(*ast.FuncDecl); ok {
				if fn, ok := pass.TypesInfo.Defs[decl.Name].(*types.Func); ok {
					f.decls[fn] = decl
					order = append(order, fn)
				}
			}
		}
	}
	for _, fn := range order {
		f.decide(fn)
	}
	return &Result{never: f.never}, nil
}

// decide settles fn, a function of the package, once; a function on a cycle
// being settled is taken to return, as ctrlflow takes it.
func (f *finder) decide(fn *types.Func) {
	if f.started[fn] {
		return
	}
	f.started[fn] = true
	never := catalog.NoReturns.Has(fn)
	if body := f.decls[fn].Body; !never && body != nil && !catalog.Returners.Has(fn) {
		never = cfg.New(body, f.mayReturn).NoReturn()
	}
	if never {
		f.never[fn] = true
		f.pass.ExportObjectFact(fn, new(neverReturns))
	}
}

var panicBuiltin = types.Universe.Lookup("panic")

// mayReturn reports whether call may return, as cfg.New asks.
func (f *finder) mayReturn(call *ast.CallExpr) bool {
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok && f.pass.TypesInfo.Uses[id] == panicBuiltin {
		return false
	}
	fn := typeutil.StaticCallee(f.pass.TypesInfo, call)
	if fn == nil {
		return true // a dynamic call: it may return
	}
	if _, ok := f.decls[fn]; ok {
		f.decide(fn)
	}
	return !f.never[fn] && !catalog.NoReturns.Has(fn)
}
