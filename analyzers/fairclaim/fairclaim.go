package fairclaim

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/docs"
	"github.com/bhlint/bhlint/internal/guard"
	"github.com/bhlint/bhlint/internal/lazyssa"
	"github.com/bhlint/bhlint/internal/pkgscope"
)

// Code starts every message of this analyzer.
const Code = "ERR_FIFO_CLAIM_ACROSS_TENANTS"

//go:embed doc.go
var doc string

// Analyzer reports job claims that are first-in-first-out across tenants.
var Analyzer = guard.Wrap(&analysis.Analyzer{
	Name:      "fairclaim",
	Doc:       docs.Extract(doc, "fairclaim"),
	URL:       "https://github.com/bhlint/bhlint/tree/main/analyzers/fairclaim",
	FactTypes: []analysis.Fact{new(RunsClaim)},
	Run:       run,
}, Code)

// RunsClaim marks a function of generated code (sqlc's query methods, and
// the methods of an interface they implement) that runs a first-in-first-out
// claim across tenants: the finding belongs where the user calls it, since
// nobody edits the generated file.
type RunsClaim struct {
	Query  string // sqlc's name for the query, or the constant's
	Table  string
	Order  string
	Tenant string
	Seen   string
}

// AFact marks RunsClaim as an analysis fact.
func (*RunsClaim) AFact()           {}
func (f *RunsClaim) String() string { return "runsClaim(" + f.Query + ")" }

// site is a FIFO claim found in the package: where it is written, and, in
// a generated file, the function or constant holding it.
type site struct {
	pos       token.Pos
	claim     fifoClaim
	generated bool
	holder    types.Object   // the constant or function in generated code
	model     *types.Named   // gorm's model, whose fields may show the tenant
	entity    *types.Package // ent's entity package, whose Field… constants may show the tenant
}

type checker struct {
	pass   *analysis.Pass
	sites  []site
	local  schema // CREATE TABLE in the package's constants
	module schema // the module's .sql files, read when first needed
	runs   map[types.Object]*RunsClaim
}

func run(pass *analysis.Pass) (any, error) {
	if !pkgscope.Reaches(pass.Pkg, catalog.SQLPackages) {
		return nil, nil
	}
	c := &checker{pass: pass, local: schema{}, runs: map[types.Object]*RunsClaim{}}
	for _, f := range pass.Files {
		if c.isTest(f) {
			continue
		}
		guard.At(f.Pos(), func() { c.collectFile(f) })
	}
	factsOnly := lazyssa.FactsOnly()
	for _, s := range c.sites {
		if factsOnly && !s.generated {
			continue // only generated code's claims become facts; the rest could only be reported
		}
		guard.At(s.pos, func() { c.judge(s) })
	}
	if len(c.runs) > 0 {
		c.exportFacts()
	}
	if !factsOnly {
		c.reportCalls()
	}
	return nil, nil
}

func (c *checker) isTest(f *ast.File) bool {
	return strings.HasSuffix(c.pass.Fset.Position(f.Package).Filename, "_test.go")
}

// packageDir is the directory of the package's source files. The position
// of a package clause follows //line directives, so a file cgo rewrote
// into the build cache names the user's directory.
func (c *checker) packageDir() string {
	for _, f := range c.pass.Files {
		if name := c.pass.Fset.Position(f.Package).Filename; name != "" {
			return filepath.Dir(name)
		}
	}
	return ""
}

// collectFile finds the claims and table definitions of one file: in
// constant strings, under the constant or function holding them, and in
// query builder chains.
func (c *checker) collectFile(f *ast.File) {
	generated := ast.IsGenerated(f)
	for _, decl := range f.Decls {
		switch decl := decl.(type) {
		case *ast.GenDecl:
			for _, spec := range decl.Specs {
				if vs, ok := spec.(*ast.ValueSpec); ok {
					for i, v := range vs.Values {
						var holder types.Object
						if i < len(vs.Names) {
							holder = c.pass.TypesInfo.Defs[vs.Names[i]]
						}
						c.collectExpr(v, generated, holder)
					}
				}
			}
		case *ast.FuncDecl:
			if decl.Body != nil {
				c.collectExpr(decl.Body, generated, c.pass.TypesInfo.Defs[decl.Name])
			}
		}
	}
}

// collectExpr looks at the largest constant string expressions under n
// (a literal, or constants folded by concatenation) and at builder chains.
func (c *checker) collectExpr(n ast.Node, generated bool, holder types.Object) {
	seenChain := map[*ast.CallExpr]bool{}
	ast.Inspect(n, func(n ast.Node) bool {
		switch e := n.(type) {
		case *ast.Ident, *ast.SelectorExpr:
			return true // a named constant: judged where it is written
		case *ast.CallExpr:
			if !seenChain[e] {
				c.collectChain(e, seenChain, generated, holder)
			}
		case ast.Expr:
			if text, ok := c.constString(e); ok {
				if !c.foldsClaim(e) {
					c.collectText(e.Pos(), text, generated, holder)
				}
				return false
			}
		}
		return true
	})
}

// foldsClaim reports whether the constant expression e folds in a named
// constant that is a claim on its own (tag + queries.ClaimSQL):
// that claim is reported where the constant is written, once.
func (c *checker) foldsClaim(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && !found {
			if k, ok := c.pass.TypesInfo.Uses[id].(*types.Const); ok && k.Val().Kind() == constant.String {
				found = len(fifoClaims(constant.StringVal(k.Val()))) > 0
			}
		}
		return !found
	})
	return found
}

func (c *checker) constString(e ast.Expr) (string, bool) {
	tv, ok := c.pass.TypesInfo.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(tv.Value), true
}

func (c *checker) collectText(pos token.Pos, text string, generated bool, holder types.Object) {
	c.local.addDefinitions(text, func(int) string {
		p := c.pass.Fset.Position(pos)
		return fmt.Sprintf("the constant at %s:%d", filepath.Base(p.Filename), p.Line)
	})
	for _, cl := range fifoClaims(text) {
		c.sites = append(c.sites, site{pos: pos, claim: cl, generated: generated, holder: holder})
	}
}

// judge reports a claim whose rows carry a tenant, or records it for the
// callers of the generated code that holds it.
func (c *checker) judge(s site) {
	if !c.findTenant(&s) {
		return
	}
	if !s.generated {
		c.pass.Report(analysis.Diagnostic{Pos: s.pos, Message: message(describeClaim(s.claim), s.claim)})
		return
	}
	if s.holder == nil {
		return
	}
	fact := &RunsClaim{Query: s.claim.name, Table: s.claim.table, Order: describeOrder(s.claim.order),
		Tenant: s.claim.tenant, Seen: s.claim.seen}
	if fact.Query == "" {
		fact.Query = s.holder.Name()
	}
	if _, isFunc := s.holder.(*types.Func); isFunc {
		c.runs[s.holder] = fact
		return
	}
	for _, fn := range c.usersOf(s.holder) {
		c.runs[fn] = fact
	}
}

// findTenant fills in the claim's tenant column when the statement did not
// show one: from the gorm model's fields, the package's constants, or the
// module's .sql files. It reports whether a tenant column is known.
func (c *checker) findTenant(s *site) bool {
	cl := &s.claim
	if cl.tenant != "" {
		return true
	}
	if s.model != nil {
		if col, field := modelTenant(s.model); col != "" {
			cl.tenant, cl.seen = col, fmt.Sprintf("the field %s of the model %s", field, s.model.Obj().Name())
			return true
		}
	}
	if s.entity != nil {
		if col, name := entTenant(s.entity); col != "" {
			cl.tenant, cl.seen = col, "the ent field "+s.entity.Name()+"."+name
			return true
		}
	}
	if cl.table == "" {
		return false
	}
	if t, ok := c.local[cl.table]; ok {
		cl.tenant, cl.seen = t.column, "CREATE TABLE "+cl.table+" in "+t.where
		return true
	}
	if c.module == nil {
		c.module = schema{}
		if dir := c.packageDir(); dir != "" {
			if err := c.module.addModuleFiles(dir); err != nil {
				return false // an unreadable module shows no definition
			}
		}
	}
	if t, ok := c.module[cl.table]; ok {
		cl.tenant, cl.seen = t.column, "CREATE TABLE "+cl.table+" in "+t.where
		return true
	}
	return false
}

// usersOf returns the functions of the package that use the constant obj.
func (c *checker) usersOf(obj types.Object) []types.Object {
	var fns []types.Object
	for _, f := range c.pass.Files {
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			if usesObject(c.pass.TypesInfo, fd.Body, obj) {
				if fn := c.pass.TypesInfo.Defs[fd.Name]; fn != nil {
					fns = append(fns, fn)
				}
			}
		}
	}
	return fns
}

func usesObject(info *types.Info, n ast.Node, obj types.Object) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && info.Uses[id] == obj {
			found = true
		}
		return !found
	})
	return found
}

// exportFacts exports RunsClaim on the generated functions that run a
// claim, and on the methods of the package's interfaces they implement
// (sqlc's Querier), so that a call through the interface is reported too.
func (c *checker) exportFacts() {
	scope := c.pass.Pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok {
			continue
		}
		iface, ok := tn.Type().Underlying().(*types.Interface)
		if !ok {
			continue
		}
		for m := range iface.Methods() {
			if fact := c.implementedClaim(scope, iface, m); fact != nil {
				c.runs[m] = fact
			}
		}
	}
	for obj, fact := range c.runs {
		if obj.Pkg() == c.pass.Pkg {
			c.pass.ExportObjectFact(obj, fact)
		}
	}
}

// implementedClaim is the claim run by the package's implementation of the
// interface method m, if one runs a claim.
func (c *checker) implementedClaim(scope *types.Scope, iface *types.Interface, m *types.Func) *RunsClaim {
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || types.IsInterface(tn.Type()) {
			continue
		}
		ptr := types.NewPointer(tn.Type())
		if !types.Implements(ptr, iface) {
			continue
		}
		obj, _, _ := types.LookupFieldOrMethod(ptr, true, c.pass.Pkg, m.Name())
		if fact := c.runs[obj]; fact != nil {
			return fact
		}
	}
	return nil
}

// reportCalls reports the calls, in the package's own (not generated, not
// test) files, of generated functions that run a claim.
func (c *checker) reportCalls() {
	for _, f := range c.pass.Files {
		if ast.IsGenerated(f) || c.isTest(f) {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
			if !ok {
				return true
			}
			fact := c.runs[fn]
			if fact == nil && fn.Pkg() != c.pass.Pkg {
				fact = new(RunsClaim)
				if !c.pass.ImportObjectFact(fn, fact) {
					fact = nil
				}
			}
			if fact != nil {
				c.reportCall(call, fn, fact)
			}
			return true
		})
	}
}

func (c *checker) reportCall(call *ast.CallExpr, fn *types.Func, fact *RunsClaim) {
	cl := fifoClaim{name: fact.Query, table: fact.Table, order: strings.Split(fact.Order, ", "),
		tenant: fact.Tenant, seen: fact.Seen}
	subject := fmt.Sprintf("%s runs the generated query %s, which", fn.Name(), fact.Query)
	c.pass.Report(analysis.Diagnostic{Pos: call.Pos(), Message: message(subject, cl)})
}

func describeClaim(cl fifoClaim) string {
	if cl.name != "" {
		return "the query " + cl.name
	}
	return "this claim"
}

// message says what the claim does, why it hurts, and the fair-share fix.
func message(subject string, cl fifoClaim) string {
	table := cl.table
	if table == "" {
		table = "its table"
	}
	return fmt.Sprintf("%s: %s takes the next row of %s in ORDER BY %s only, with FOR UPDATE SKIP LOCKED: "+
		"first-in-first-out across tenants, though its rows carry a tenant (%s, seen in %s); "+
		"one tenant's backlog makes every other tenant's jobs wait behind it (behind 2 million jobs, about 9 hours). "+
		"Choose the next job by tenant: ORDER BY (SELECT count(*) FROM %s r WHERE r.%s = j.%s AND r.status = 'running'), then %s "+
		"(fair share; bulkhead/jobclaim keeps a running count per tenant instead of counting rows)",
		Code, subject, table, describeOrder(cl.order), cl.tenant, cl.seen,
		table, cl.tenant, cl.tenant, describeOrder(cl.order))
}
