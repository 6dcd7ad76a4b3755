package poolbudget

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/types/typeutil"
)

// A registry is a package-level map of constructors (a func-typed value):
// backends register themselves into it, by init and a Register(name, ctor)
// call or in a map literal, and the program calls one of them through it
// (sp := registry[name]; sp(…)). The package that reads the registry does
// not know what is registered; only a main package sees every package its
// binary links, so the calls through a registry travel up as Lookups and
// main resolves them against the registrations of every package
// (registries facts).

// registries is the package fact of a package that declares a registry,
// registers constructors into one, or relays a call through one: what an
// importer needs to follow the calls (and a sign that it must look).
type registries struct {
	Entries []Entry
}

func (*registries) AFact() {}

func (r *registries) String() string {
	var parts []string
	for _, e := range r.Entries {
		s := e.Registry + " ← " + e.Ctor
		for _, p := range e.Pools {
			s += " [" + p.String() + "]"
		}
		parts = append(parts, s)
	}
	return "registries(" + strings.Join(parts, "; ") + ")"
}

// Entry is one constructor registered into a registry, with the pools it
// creates.
type Entry struct {
	Registry string // the map's full name: "example.com/storage.providers"
	Ctor     string // "mysql.newProvider"
	Pools    []Pool
}

// Registration: the function stores its parameter Param into Registry (a
// Register(name, ctor) function).
type Registration struct {
	Param    int
	Registry string
}

// Lookup: the function calls a constructor it reads from Registry, through
// the calls Via.
type Lookup struct {
	Registry string
	Via      []string
}

// registryOf is the full name of the registry e reads or writes: a
// package-level map of func-typed values (providers or providers[name]),
// "" for anything else.
func registryOf(info *types.Info, e ast.Expr) string {
	e = ast.Unparen(e)
	if ix, ok := e.(*ast.IndexExpr); ok {
		e = ast.Unparen(ix.X)
	}
	id := nameOf(e)
	if id == nil {
		return ""
	}
	v, ok := info.ObjectOf(id).(*types.Var)
	if !ok || !isRegistryVar(v) {
		return ""
	}
	return v.Pkg().Path() + "." + v.Name()
}

// isRegistryVar: a package-level variable holding a map whose values are
// functions.
func isRegistryVar(v *types.Var) bool {
	if v.IsField() || v.Pkg() == nil || v.Parent() != v.Pkg().Scope() {
		return false
	}
	m, ok := v.Type().Underlying().(*types.Map)
	if !ok {
		return false
	}
	_, isFunc := m.Elem().Underlying().(*types.Signature)
	return isFunc
}

// declaresRegistry reports whether pkg declares a registry.
func declaresRegistry(pkg *types.Package) bool {
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		if v, ok := scope.Lookup(name).(*types.Var); ok && isRegistryVar(v) {
			return true
		}
	}
	return false
}

// importsRegistry reports whether a package this one imports declares,
// fills or relays a registry (it exported a registries fact).
func (c *checker) importsRegistry() bool {
	for _, pf := range c.pass.AllPackageFacts() {
		if _, ok := pf.Fact.(*registries); ok && pf.Package != c.pass.Pkg {
			return true
		}
	}
	return false
}

// registryVarOf is the registry a local variable was read from (sp :=
// providers[name]), "" if none.
func (s *scanner) registryVarOf(e ast.Expr) string {
	if r := registryOf(s.c.pass.TypesInfo, e); r != "" {
		if _, isIndex := ast.Unparen(e).(*ast.IndexExpr); isIndex {
			return r // providers[name](mf)
		}
		return ""
	}
	if v := s.localVar(e); v != nil {
		return s.fromRegistry[v]
	}
	return ""
}

// lookup records a call through registry reg: in a main package, the pools
// of the worst constructor registered into it; elsewhere, a Lookup for the
// callers.
func (s *scanner) lookup(call *ast.CallExpr, reg string, via []string) {
	if s.c.pass.Pkg.Name() != "main" {
		s.lookups = append(s.lookups, Lookup{Registry: reg, Via: via})
		return
	}
	alts := s.c.entriesOf(reg)
	worst := worstEntry(alts)
	if worst == nil {
		return
	}
	note := fmt.Sprintf("the worst of %d constructors registered in %s", len(alts), shortName(reg))
	for _, fp := range worst.Pools {
		p := fp
		p.Via = append(append(slices.Clone(via), worst.Ctor), fp.Via...)
		p.named, p.anchor, p.Returned = false, call.Pos(), -1
		if p.DSN.Param >= 0 {
			p.DSN = noDSN() // an argument of a call through a func value: not followed
		}
		if p.Budget.State == FromParam {
			p.Budget = Budget{State: Unknown}
		}
		p.Budget = settle(p.Budget, p.DSN)
		if len(alts) > 1 {
			p.Budget.Assumed = joinAssumed(p.Budget.Assumed, note)
		}
		s.add(&p)
	}
}

// linkedRegistries are the constructors this package and the packages it
// imports register. A backend is linked by a blank import
// (_ ".../storage/mysql") that no type refers to, and the go vet driver
// hands a package only the facts of the packages its types reach: each
// package's fact carries its imports' entries on, so main sees them
// through the package that imports the backend.
func (c *checker) linkedRegistries() *registries {
	out := &registries{Entries: slices.Clone(c.ownRegistries().Entries)}
	seen := map[string]bool{}
	for _, e := range out.Entries {
		seen[e.Registry+" "+e.Ctor] = true
	}
	for _, pf := range c.pass.AllPackageFacts() {
		r, ok := pf.Fact.(*registries)
		if !ok || pf.Package == c.pass.Pkg {
			continue
		}
		for _, e := range r.Entries {
			if k := e.Registry + " " + e.Ctor; !seen[k] {
				seen[k] = true
				out.Entries = append(out.Entries, e)
			}
		}
	}
	return out
}

// entriesOf are the constructors registered into reg by the packages of
// this binary: this package's and every dependency's registries fact. Only
// those that create pools are alternatives: with the databases declared, the
// deployment selects a backend that connects to one, and a backend in the
// process (SQLite, memory) holds none of their connections.
func (c *checker) entriesOf(reg string) []Entry {
	var out []Entry
	for _, e := range c.linkedRegistries().Entries {
		if e.Registry == reg && len(e.Pools) > 0 {
			out = append(out, e)
		}
	}
	// The drivers list the facts in no promised order: the worst of equals
	// is the first by name.
	slices.SortFunc(out, func(a, b Entry) int { return strings.Compare(a.Ctor, b.Ctor) })
	return out
}

// worstEntry is the alternative that allows the most connections: one with
// a pool without maximum, then the largest sum of known budgets. A registry
// of N backends is N alternatives, not N pools opened at once.
func worstEntry(alts []Entry) *Entry {
	var worst *Entry
	var worstScore [2]int
	for i := range alts {
		score := [2]int{0, 0}
		for _, p := range alts[i].Pools {
			switch p.Budget.State {
			case Unbounded:
				score[0] = 1
			case Known, PgxDefault:
				score[1] += p.Budget.N
			}
		}
		if worst == nil || score[0] > worstScore[0] || score[0] == worstScore[0] && score[1] > worstScore[1] {
			worst, worstScore = &alts[i], score
		}
	}
	return worst
}

func joinAssumed(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// shortName is "storage.providers" of "example.com/storage.providers".
func shortName(full string) string {
	if i := strings.LastIndexByte(full, '/'); i >= 0 {
		return full[i+1:]
	}
	return full
}

// ownRegistries are the constructors this package registers: into a map
// literal of a registry's initialiser (var providers = map[…]F{"a": newA}
// or providers = map[…]F{…}), by assignment (providers["a"] = newA), or
// through a function that stores its parameter into one
// (storage.Register("a", newA)), in init or any other function.
func (c *checker) ownRegistries() *registries {
	if c.regs != nil {
		return c.regs
	}
	c.regs = &registries{}
	info := c.pass.TypesInfo
	for _, f := range c.pass.Files {
		if isTestFile(c.pass, f) {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ValueSpec:
				for i, name := range n.Names {
					if i < len(n.Values) {
						c.registerLiteral(registryOf(info, name), n.Values[i])
					}
				}
			case *ast.AssignStmt:
				if len(n.Lhs) != len(n.Rhs) {
					return true
				}
				for i, l := range n.Lhs {
					reg := registryOf(info, l)
					if _, isIndex := ast.Unparen(l).(*ast.IndexExpr); isIndex {
						c.register(reg, n.Rhs[i])
					} else {
						c.registerLiteral(reg, n.Rhs[i])
					}
				}
			case *ast.CallExpr:
				c.registerCall(n)
			}
			return true
		})
	}
	return c.regs
}

func (c *checker) registerLiteral(reg string, e ast.Expr) {
	lit := compositeLit(ast.Unparen(e))
	if reg == "" || lit == nil {
		return
	}
	for _, elt := range lit.Elts {
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			c.register(reg, kv.Value)
		}
	}
}

// registerCall: a call of a function that stores its parameter into a
// registry registers the constructor passed there.
func (c *checker) registerCall(call *ast.CallExpr) {
	fn := typeutil.StaticCallee(c.pass.TypesInfo, call)
	if fn == nil {
		return
	}
	sum := c.summary(fn)
	if sum == nil {
		return
	}
	for _, r := range sum.Registers {
		if r.Param < len(call.Args) {
			c.register(r.Registry, call.Args[r.Param])
		}
	}
}

// register records the constructor e names as an entry of reg.
func (c *checker) register(reg string, e ast.Expr) {
	if reg == "" {
		return
	}
	id := nameOf(e)
	if id == nil {
		return
	}
	fn, ok := c.pass.TypesInfo.ObjectOf(id).(*types.Func)
	if !ok {
		return
	}
	entry := Entry{Registry: reg, Ctor: funcName(fn)}
	if sum := c.summary(fn); sum != nil && !sum.Truncated {
		entry.Pools = slices.Clone(sum.Pools)
	}
	c.regs.Entries = append(c.regs.Entries, entry)
}

// nameOf is the identifier an expression names an object by: x itself, or
// the Sel of pkg.X or v.Field; nil for any other expression.
func nameOf(e ast.Expr) *ast.Ident {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		return x
	case *ast.SelectorExpr:
		return x.Sel
	}
	return nil
}
