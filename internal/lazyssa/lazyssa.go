// Package lazyssa builds a package's SSA form only when a pass asks for it.
//
// buildssa, as a Requires entry, builds SSA for every package the driver
// visits, including every dependency of an analyzer that exports facts. Most
// of those packages touch no database and no network, and bhlint's passes
// return before they need SSA. Building it on demand keeps them cheap.
package lazyssa

import (
	"go/ast"
	"go/types"
	"reflect"
	"sync"
	"sync/atomic"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/noreturn"
)

// Analyzer returns a *Builder for the package; its SSA is built on first use.
var Analyzer = &analysis.Analyzer{
	Name:       "bhlintssa",
	Doc:        "build SSA-form IR on demand for bhlint's passes",
	Run:        run,
	Requires:   []*analysis.Analyzer{noreturn.Analyzer},
	ResultType: reflect.TypeFor[*Builder](),
}

// Builder builds the package's SSA once, on first use.
type Builder struct {
	once  sync.Once
	pass  *analysis.Pass
	never *noreturn.Result
	pkg   *ssa.Package
	funcs []*ssa.Function
}

func run(pass *analysis.Pass) (any, error) {
	return &Builder{pass: pass, never: pass.ResultOf[noreturn.Analyzer].(*noreturn.Result)}, nil
}

// Package returns the package's SSA form.
func (b *Builder) Package() *ssa.Package {
	b.once.Do(b.build)
	return b.pkg
}

// SrcFuncs returns every function declared in the package's source,
// including function literals, in source order.
func (b *Builder) SrcFuncs() []*ssa.Function {
	b.once.Do(b.build)
	return b.funcs
}

func (b *Builder) build() {
	pass := b.pass
	prog := ssa.NewProgram(pass.Fset, 0)
	prog.SetNoReturn(b.never.NoReturn)
	for _, p := range pass.Pkg.Imports() {
		prog.CreatePackage(p, nil, nil, true)
	}
	b.pkg = prog.CreatePackage(pass.Pkg, pass.Files, withoutDataTables(pass.TypesInfo), false)
	b.pkg.Build()
	for _, file := range pass.Files {
		for _, decl := range file.Decls {
			decl, ok := decl.(*ast.FuncDecl)
			if !ok {
				continue
			}
			fn, _ := pass.TypesInfo.Defs[decl.Name].(*types.Func)
			if f := prog.FuncValue(fn); f != nil {
				b.addWithAnons(f)
			}
		}
	}
}

func (b *Builder) addWithAnons(f *ssa.Function) {
	b.funcs = append(b.funcs, f)
	for _, anon := range f.AnonFuncs {
		b.addWithAnons(anon)
	}
}

// Budget is the SSA instruction budget of a, as Fits applies it (0: no
// limit), for passes that decide from the syntax, before building SSA,
// whether Fits could have anything to report.
func Budget(a *analysis.Analyzer) int { return budgetOf(a) }

// factsOnly is set by a driver that runs the passes on a package only for
// the facts its importers need — go vet's VetxOnly mode, in which the vet
// tool analyses one dependency per process and throws every diagnostic
// away. It is never set by drivers that report for every package.
var factsOnly atomic.Bool

// SetFactsOnly records that this process's diagnostics are discarded.
func SetFactsOnly(v bool) { factsOnly.Store(v) }

// FactsOnly reports whether this process's diagnostics are discarded, so
// that a pass may skip work that can only lead to a diagnostic (and the SSA
// it would build for it).
func FactsOnly() bool { return factsOnly.Load() }
