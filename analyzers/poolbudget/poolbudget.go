package poolbudget

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/config"
	"github.com/bhlint/bhlint/internal/docs"
	"github.com/bhlint/bhlint/internal/guard"
	"github.com/bhlint/bhlint/internal/pkgscope"
)

// Code starts every message of this analyzer.
const Code = "ERR_POOL_BUDGETS_EXCEED_DATABASE"

//go:embed doc.go
var doc string

// Analyzer reports connection budgets that, summed over a binary's pools
// and multiplied by its replicas, exceed what a database or dependency can
// take.
var Analyzer = guard.Wrap(&analysis.Analyzer{
	Name:      "poolbudget",
	Doc:       docs.Extract(doc, "poolbudget"),
	URL:       "https://github.com/bhlint/bhlint/tree/main/analyzers/poolbudget",
	FactTypes: []analysis.Fact{new(createsPools), new(laneLimit), new(registries), new(flagNames), new(fieldValues)},
	Run:       run,
}, Code)

// createsPools marks a function that creates pools, itself or through the
// functions it calls, or that sets the budget of a pool passed to it.
type createsPools struct {
	Pools  []Pool
	Bounds []ParamBound
	// Registers: the function stores a parameter into a registry;
	// Lookups: it calls a constructor read from one (registry.go).
	Registers []Registration
	Lookups   []Lookup
	// FieldStores: the function stores a parameter into an integer field.
	FieldStores []FieldStore
	// Truncated: more pools reach the function than a fact carries
	// (maxPools); main reports nothing then.
	Truncated bool
}

func (*createsPools) AFact() {}

func (f *createsPools) String() string {
	var parts []string
	for _, p := range f.Pools {
		parts = append(parts, p.String())
	}
	for _, b := range f.Bounds {
		parts = append(parts, fmt.Sprintf("bounds param %d to %s", b.Param, b.Budget))
	}
	for _, fs := range f.FieldStores {
		parts = append(parts, fmt.Sprintf("stores param %d into %s", fs.Param, fs.Field))
	}
	for _, r := range f.Registers {
		parts = append(parts, fmt.Sprintf("registers param %d into %s", r.Param, r.Registry))
	}
	for _, l := range f.Lookups {
		via := ""
		if len(l.Via) > 0 {
			via = " via " + strings.Join(l.Via, " → ")
		}
		parts = append(parts, "calls through "+l.Registry+via)
	}
	if f.Truncated {
		parts = append(parts, "truncated")
	}
	return "createsPools(" + strings.Join(parts, "; ") + ")"
}

// ParamBound: the function sets the budget of the pool passed as its
// parameter Param (it calls SetMaxOpenConns on it).
type ParamBound struct {
	Param  int
	Budget Budget
}

func run(pass *analysis.Pass) (any, error) {
	_, err := budgets(pass)
	return nil, err
}

// budgets exports the facts of pass's package and, in a main package,
// reports the databases and dependencies its pools exceed; it returns the
// arithmetic of each (Table shows it).
func budgets(pass *analysis.Pass) ([]Row, error) {
	cfg, err := guard.Config(pass)
	if err != nil {
		return nil, err
	}
	// Nothing declared, nothing to compare with: the common case stops here.
	if !cfg.DeclaresCapacity() {
		return nil, nil
	}
	c := &checker{pass: pass, decls: map[*types.Func]*ast.FuncDecl{}, summaries: map[*types.Func]*createsPools{}, busy: map[*types.Func]bool{}}
	// A package that cannot reach an opener may still declare a registry
	// of constructors, or call through one (registry.go).
	if !pkgscope.Reaches(pass.Pkg, catalog.BudgetPackages) && !declaresRegistry(pass.Pkg) && !c.importsRegistry() {
		c.exportFlagNames() // a package of flags, read by name elsewhere
		return nil, nil
	}
	var mainDecl *ast.FuncDecl
	for _, f := range pass.Files {
		if isTestFile(pass, f) {
			continue // a test's pools serve one test, not the fleet
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			if fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
				c.decls[fn] = fd
			}
			if fd.Recv == nil && fd.Name.Name == "main" && pass.Pkg.Name() == "main" {
				mainDecl = fd
			}
		}
	}
	if pass.Pkg.Name() != "main" {
		// Facts for the packages above; nothing imports a main package.
		c.exportLaneLimits()
		relays := false
		for fn, fd := range c.decls {
			guard.At(fd.Pos(), func() {
				s := c.summary(fn)
				if s != nil && (len(s.Pools) > 0 || len(s.Bounds) > 0 || len(s.Registers) > 0 || len(s.Lookups) > 0 || len(s.FieldStores) > 0 || s.Truncated) {
					pass.ExportObjectFact(fn, s)
					relays = relays || len(s.Registers) > 0 || len(s.Lookups) > 0
				}
			})
		}
		c.exportFlagNames()
		if len(c.fieldVals) > 0 {
			pass.ExportPackageFact(&fieldValues{Values: c.fieldVals})
		}
		if regs := c.linkedRegistries(); len(regs.Entries) > 0 || relays || declaresRegistry(pass.Pkg) {
			pass.ExportPackageFact(regs)
		}
	} else {
		c.ownRegistries() // before main's calls through them
	}
	var rows []Row
	if mainDecl != nil && !isTestBinary(pass) && cfg.Replicated(filepath.Dir(pass.Fset.File(mainDecl.Pos()).Name())) {
		guard.At(mainDecl.Pos(), func() { rows = c.checkMain(cfg, mainDecl) })
	}
	return rows, nil
}

type checker struct {
	pass      *analysis.Pass
	decls     map[*types.Func]*ast.FuncDecl
	summaries map[*types.Func]*createsPools // this package's functions, once scanned
	busy      map[*types.Func]bool          // being scanned: a recursive call adds nothing
	// bounded are the struct fields the package calls SetMaxOpenConns on
	// (s.db.SetMaxOpenConns(n), s.db.DB().SetMaxOpenConns(n)), learned on
	// first use.
	bounded map[*types.Var]bool
	// flagPtrs and flagVals are the variables that hold an integer flag
	// with a constant default (values.go), learned on first use.
	flagPtrs, flagVals map[types.Object]flagDefault
	// flagNames are the integer flags the package declares, by name.
	flagNames *flagNames
	// regs are the constructors this package registers, learned on first
	// use (registry.go).
	regs *registries
	// fieldVals are the budgets this package's code stores into integer
	// fields, by field (fields.go).
	fieldVals map[string][]Budget
}

// summary is what fn creates and bounds: scanned here for this package's
// functions, a fact for the others.
func (c *checker) summary(fn *types.Func) *createsPools {
	fn = fn.Origin()
	if fn.Pkg() != c.pass.Pkg {
		var fact createsPools
		if fn.Pkg() != nil && c.pass.ImportObjectFact(fn, &fact) {
			return &fact
		}
		return nil
	}
	if s, ok := c.summaries[fn]; ok {
		return s
	}
	fd := c.decls[fn]
	if fd == nil || c.busy[fn] {
		return nil
	}
	c.busy[fn] = true
	s := c.scan(fd)
	delete(c.busy, fn)
	c.summaries[fn] = s
	return s
}

// isTestBinary: the package go test generates around a package's tests
// (its path ends in ".test") has a func main of its own. A main package
// compiled with its _test.go files is checked as it is without them: its
// test files are skipped, and go vet checks only that variant.
func isTestBinary(pass *analysis.Pass) bool {
	return strings.HasSuffix(pass.Pkg.Path(), ".test")
}

func isTestFile(pass *analysis.Pass, f *ast.File) bool {
	file := pass.Fset.File(f.Pos())
	return file != nil && strings.HasSuffix(file.Name(), "_test.go")
}

// siteOf is "dir/file.go:line" of pos, for messages about a pool created in
// another package (its position there is not one this pass can point at).
func (c *checker) siteOf(pos token.Pos) string {
	p := c.pass.Fset.Position(pos)
	name := p.Filename
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		if j := strings.LastIndexByte(name[:i], '/'); j >= 0 {
			name = name[j+1:]
		}
	}
	return fmt.Sprintf("%s:%d", name, p.Line)
}

// databaseOf names the declared database a pool connects to, "" when none
// of them can be told.
func databaseOf(cfg *config.Config, p *Pool) string {
	return cfg.DatabaseFor(p.DSN.Env)
}

// boundFields are the struct fields on which the package sets a pool's
// maximum.
func (c *checker) boundFields() map[*types.Var]bool {
	if c.bounded != nil {
		return c.bounded
	}
	c.bounded = map[*types.Var]bool{}
	for _, f := range c.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || !isBound(typeutil.StaticCallee(c.pass.TypesInfo, call)) {
				return true
			}
			recv, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
			if !ok {
				return true
			}
			x := recv.X
			if inner := innerOf(x); inner != nil {
				x = inner
			}
			if sel, ok := ast.Unparen(x).(*ast.SelectorExpr); ok {
				if field, ok := c.pass.TypesInfo.ObjectOf(sel.Sel).(*types.Var); ok && field.IsField() {
					c.bounded[field] = true
				}
			}
			return true
		})
	}
	return c.bounded
}

// isBound reports whether fn sets a pool's maximum: SetMaxOpenConns on a
// *sql.DB, or a wrapper's own.
func isBound(fn *types.Func) bool {
	return fn != nil && (catalog.Key(fn) == catalog.SQLBound || catalog.PoolWrapperBounds.Has(fn))
}

// exportFlagNames exports the integer flags a package that imports a
// command-line library declares, for the packages that read them by name.
func (c *checker) exportFlagNames() {
	if c.pass.Pkg.Name() == "main" || !importsAny(c.pass.Pkg, catalog.FlagPackages) {
		return
	}
	if c.learnFlags(); len(c.flagNames.Flags) > 0 {
		c.pass.ExportPackageFact(c.flagNames)
	}
}

func importsAny(pkg *types.Package, paths []string) bool {
	for _, imp := range pkg.Imports() {
		if slices.Contains(paths, imp.Path()) {
			return true
		}
	}
	return false
}
