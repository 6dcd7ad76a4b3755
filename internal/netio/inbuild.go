package netio

import (
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/pkgscope"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// ImplementedInBuild is a package fact of the program's own packages: the
// methods of the module's interfaces (declared in the package or one it
// imports) that a type of the package implements, each with whether that
// implementation reaches the network; and, beside them, those its imports'
// facts carry. A call through a module interface whose own package cannot
// resolve it (the implementations live in sub-packages: dex's
// connector.RefreshConnector, implemented over HTTP by connector/oidc,
// connector/github and the others) is resolved where the caller's build
// includes the implementations: facts reach only importers, and an
// implementation in the caller's build is one the program may run. The go
// command's vet driver keeps a dependency's facts only where its types are
// reachable from the direct imports' API, and an implementation wired in
// behind an interface seldom is; carried by each importer, the entries
// reach every package whose build includes them.
type ImplementedInBuild struct {
	Impls []BuildImpl
}

// BuildImpl is one implementation of a module interface's method.
type BuildImpl struct {
	Method string   // the interface method's catalog.Key
	Impl   string   // the implementing method's Name
	Path   []string // how it reaches the network; nil: it does something else
	File   string   // where it makes the call that reaches the network
	Line   int
}

// AFact marks ImplementedInBuild as an analysis fact.
func (*ImplementedInBuild) AFact() {}

func (f *ImplementedInBuild) String() string {
	var parts []string
	for _, im := range f.Impls {
		verb := "waits"
		if im.Path == nil {
			verb = "does not wait"
		}
		parts = append(parts, im.Method+" by "+im.Impl+" "+verb)
	}
	return "implementedInBuild(" + strings.Join(parts, ", ") + ")"
}

func (im BuildImpl) id() [2]string { return [2]string{im.Method, im.Impl} }

// ownImpl is an implementation, by a type of this package, of a module
// interface's method.
type ownImpl struct {
	method    *types.Func
	impl      *types.Func
	fn        *ssa.Function // nil when the package reaches no network call: it does not wait
	delegates bool          // it calls through one of the module's interfaces (delegates)
}

// buildImpls is what the build knows of the module interfaces'
// implementations: the imports' facts, by method key, and this package's
// own, which the rounds compute.
type buildImpls struct {
	imported map[string][]BuildImpl
	own      map[string][]ownImpl
}

// newBuildImpls reads the imports' facts and finds this package's own
// implementations. A dependency's package is not the program's: its
// interfaces are not the module's, and it has none.
func (r *Result) newBuildImpls() *buildImpls {
	b := &buildImpls{imported: map[string][]BuildImpl{}, own: map[string][]ownImpl{}}
	if pkgscope.IsDependency(r.pass) {
		return b
	}
	facts := r.pass.AllPackageFacts()
	sort.Slice(facts, func(i, j int) bool { return facts[i].Package.Path() < facts[j].Package.Path() })
	for _, pf := range facts {
		f, ok := pf.Fact.(*ImplementedInBuild)
		if !ok || pf.Package == r.pass.Pkg {
			continue
		}
		for _, im := range f.Impls {
			if !slices.ContainsFunc(b.imported[im.Method], func(o BuildImpl) bool { return o.id() == im.id() }) {
				b.imported[im.Method] = append(b.imported[im.Method], im)
			}
		}
	}
	for _, own := range r.moduleImplementations() {
		key := catalog.Key(own.method)
		b.own[key] = append(b.own[key], own)
	}
	return b
}

// attach gives the own implementations their SSA functions, once the
// package is known to reach the network.
func (b *buildImpls) attach(prog *ssa.Program) {
	for _, owns := range b.own {
		for i := range owns {
			owns[i].fn = prog.FuncValue(owns[i].impl)
		}
	}
}

// waits reports whether an implementation in an import's build of the
// module interface's method m reaches the network: a package that calls m
// may then reach it, though it names no network call.
func (b *buildImpls) waits(m *types.Func) bool {
	return slices.ContainsFunc(b.imported[catalog.Key(m)], func(im BuildImpl) bool { return im.Path != nil })
}

// buildReaches returns the path by which a call of the module interface's
// method m reaches the network through the implementations in the build,
// or nil: every one of them that is not a stand-in must reach it, as for
// the interface's own package (everyImplReaches).
func (r *Result) buildReaches(m *types.Func) []string {
	if r.inBuild == nil || !pkgscope.DeclaredInModule(r.pass.Module, m.Pkg()) {
		return nil
	}
	key := catalog.Key(m)
	var paths [][]string
	// Every own implementation is read, whatever the first gives: the
	// rounds record a computation's reads once.
	for _, own := range r.inBuild.own[key] {
		var path []string
		if own.fn != nil {
			path = r.FuncReaches(own.fn)
		}
		if path != nil || !own.delegates {
			paths = append(paths, path)
		}
	}
	for _, im := range r.inBuild.imported[key] {
		paths = append(paths, im.Path)
	}
	if len(paths) == 0 || slices.ContainsFunc(paths, func(p []string) bool { return p == nil }) {
		return nil
	}
	return prepend(Name(m), paths[0])
}

// WaitingInBuild returns the first implementation, in the imports' builds,
// of the module interface's method m that reaches the network: its path
// (the implementation first) and where it makes the call that does, or
// nil. A pass for which one waiting implementation is enough (a call made
// while a transaction is held) asks this instead of buildReaches' "every".
func (r *Result) WaitingInBuild(m *types.Func) ([]string, token.Pos) {
	if r.inBuild == nil {
		return nil, token.NoPos
	}
	for _, im := range r.inBuild.imported[catalog.Key(m)] {
		if im.Path != nil {
			return slices.Clone(im.Path), ssautil.LinePos(r.pass.Fset, im.File, im.Line)
		}
	}
	return nil, token.NoPos
}

// exportBuildImpls exports the package's ImplementedInBuild fact: its own
// implementations, with what the rounds found, and those its imports carry.
func (r *Result) exportBuildImpls() {
	if r.inBuild == nil {
		return
	}
	fact := &ImplementedInBuild{}
	seen := map[[2]string]bool{}
	for _, key := range slices.Sorted(maps.Keys(r.inBuild.own)) {
		for _, own := range r.inBuild.own[key] {
			im := BuildImpl{Method: key, Impl: Name(own.impl)}
			if own.fn != nil {
				if path := r.FuncReaches(own.fn); path != nil {
					posn := r.pass.Fset.Position(r.FuncReachesAt(own.fn))
					im.Path, im.File, im.Line = path, posn.Filename, posn.Line
				}
			}
			if im.Path == nil && own.delegates {
				continue // not known to wait on nothing
			}
			seen[im.id()] = true
			fact.Impls = append(fact.Impls, im)
		}
	}
	for _, key := range slices.Sorted(maps.Keys(r.inBuild.imported)) {
		for _, im := range r.inBuild.imported[key] {
			if !seen[im.id()] {
				seen[im.id()] = true
				fact.Impls = append(fact.Impls, im)
			}
		}
	}
	if len(fact.Impls) > 0 {
		r.pass.ExportPackageFact(fact)
	}
}

// moduleImplementations pairs the methods of the module's interfaces,
// declared in this package or one it imports directly, with the methods of
// this package's types that implement them, leaving out those that stand
// in for an implementation (standIn) and those a value the type embeds
// implements (whatever it holds runs).
func (r *Result) moduleImplementations() []ownImpl {
	decls := r.methodDecls()
	var out []ownImpl
	for _, pkg := range append([]*types.Package{r.pass.Pkg}, r.pass.Pkg.Imports()...) {
		if !pkgscope.DeclaredInModule(r.pass.Module, pkg) {
			continue
		}
		for iface := range ssautil.Interfaces(pkg) {
			for named := range ssautil.ConcreteTypes(r.pass.Pkg) {
				t := types.Type(types.NewPointer(named)) // the method set of both
				if !types.Implements(t, iface) {
					continue
				}
				for m := range iface.Methods() {
					obj, _, _ := types.LookupFieldOrMethod(t, false, m.Pkg(), m.Name())
					impl, ok := obj.(*types.Func)
					if !ok || impl.Pkg() != r.pass.Pkg || decls[impl] == nil || r.standIn(decls[impl]) {
						continue // by a value the type embeds: whatever it holds runs
					}
					out = append(out, ownImpl{method: m.Origin(), impl: impl, delegates: r.delegates(decls[impl])})
				}
			}
		}
	}
	return out
}

// methodDecls maps the package's methods to their declarations.
func (r *Result) methodDecls() map[*types.Func]*ast.FuncDecl {
	out := map[*types.Func]*ast.FuncDecl{}
	for _, f := range r.pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil && fd.Body != nil {
				if obj, ok := r.pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					out[obj] = fd
				}
			}
		}
	}
	return out
}

// standIn reports whether an implementation stands in for the real one: it
// calls no function (a no-op, an in-memory stand-in), or it is a test
// double (declared in a test file, or in a package named for doubles: a
// mock, a fake, a stub), which only tests run.
func (r *Result) standIn(decl *ast.FuncDecl) bool {
	if strings.HasSuffix(r.pass.Fset.File(decl.Pos()).Name(), "_test.go") || isDoublesPackage(r.pass.Pkg.Name()) {
		return true
	}
	calls := false
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || calls {
			return !calls
		}
		tv := r.pass.TypesInfo.Types[call.Fun]
		if !tv.IsType() && !tv.IsBuiltin() {
			calls = true
		}
		return true
	})
	return !calls
}

func isDoublesPackage(name string) bool {
	name = strings.ToLower(name)
	for _, word := range []string{"mock", "fake", "stub"} {
		if strings.HasPrefix(name, word) || strings.HasSuffix(name, word) || strings.HasSuffix(name, word+"s") {
			return true
		}
	}
	return false
}

// delegates reports whether an implementation calls a method of one of
// the module's interfaces: a decorator calling the same method on the
// value it wraps, a password connector reading the storage interface. It
// waits when what it calls does, which its package may not see (the
// storage's implementations are wired in by main): if it is not found to
// wait, it is not known to wait on nothing either, and decides nothing.
func (r *Result) delegates(decl *ast.FuncDecl) bool {
	found := false
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok || found {
			return !found
		}
		if s := r.pass.TypesInfo.Selections[sel]; s != nil {
			fn, ok := s.Obj().(*types.Func)
			if ok && types.IsInterface(s.Recv()) && pkgscope.DeclaredInModule(r.pass.Module, fn.Pkg()) {
				found = true
			}
		}
		return true
	})
	return found
}
