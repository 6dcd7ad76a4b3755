package sharedpool

import (
	"fmt"
	"go/build"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/entrypoints"
	"github.com/bhlint/bhlint/internal/guard"
	"github.com/bhlint/bhlint/internal/lanes"
	"github.com/bhlint/bhlint/internal/netio"
	"github.com/bhlint/bhlint/internal/pkgscope"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// Lane inference: when a program declares no lanes, its request handlers
// (interactive work) and its long-lived background loops (background work)
// are two classes that must not share one pool. internal/entrypoints finds
// them; this file turns them into lane entries, resolves the interface
// calls on their paths where the implementations are visible, and reports
// a pool both classes reach once, in the first package that sees it whole.

// loopsForever marks an exported function that loops for the life of the
// process, so that a go statement in another package that starts it is
// background work.
type loopsForever struct{ How string }

func (*loopsForever) AFact()           {}
func (f *loopsForever) String() string { return "loops(" + f.How + ")" }

// maxDispatch bounds the unresolved interface calls a fact carries.
const maxDispatch = 64

// dispatchDepth bounds how many interface calls deep resolution goes.
const dispatchDepth = 3

func (c *checker) inferOn() bool {
	cfg, err := guard.Config(c.pass)
	return err == nil && cfg.InferLanes()
}

func (c *checker) loopOf(obj *types.Func) string {
	var fact loopsForever
	if obj.Pkg() != nil && obj.Pkg() != c.pass.Pkg && c.pass.ImportObjectFact(obj, &fact) {
		return fact.How
	}
	return ""
}

// inferEntries adds the package's handlers and background loops as entries
// of the classes interactive and background, unless the package declares
// lanes (declared lanes win) or inference is off.
func (c *checker) inferEntries(funcs []*ssa.Function) {
	finder := &entrypoints.Finder{LoopOf: c.loopOf}
	for _, fn := range funcs {
		obj, ok := fn.Object().(*types.Func)
		if !ok || !obj.Exported() || fn.Parent() != nil || c.isTestFile(fn.Pos()) {
			continue
		}
		guard.At(fn.Pos(), func() {
			if how := finder.Loop(fn); how != "" {
				c.pass.ExportObjectFact(obj, &loopsForever{How: how})
			}
		})
	}
	if len(c.entries) > 0 || len(c.decl.owned) > 0 || !c.inferOn() {
		return
	}
	var found []entrypoints.Entry
	guard.At(c.packagePos(), func() { found = withHandlers(finder.Find(c.pass.Pkg, funcs), funcs) })
	fromRequests := c.reachedFrom(found)
	for _, e := range found {
		if c.isTestFile(e.Pos) {
			continue
		}
		if e.Class == entrypoints.Background && e.Parent != nil && fromRequests[e.Parent] {
			continue // a goroutine a request starts is part of the request
		}
		pos := c.callStart(e.Pos)
		uses := c.localUses(e.Func, pos)
		if len(uses) == 0 {
			continue
		}
		fn := origin(e.Func)
		short := c.funcName(fn)
		c.addEntry(string(e.Class), netio.DisplayName(fn), short, pos, uses)
		last := &c.entries[len(c.entries)-1]
		p := c.pass.Fset.Position(pos)
		last.inferred = true
		last.entry.Inferred, last.entry.How, last.entry.File, last.entry.Line = true, e.How, p.Filename, p.Line
		last.entry.Func = c.hopOf(fn)
		if len(last.entry.Uses) == 0 && len(last.entry.Dispatch) == 0 {
			c.entries = c.entries[:len(c.entries)-1]
		}
	}
}

func (c *checker) packagePos() token.Pos {
	if len(c.pass.Files) > 0 {
		return c.pass.Files[0].Package
	}
	return token.NoPos
}

// reachedFrom returns this package's functions that the interactive
// entries reach: a loop started there runs for one request.
func (c *checker) reachedFrom(found []entrypoints.Entry) map[*ssa.Function]bool {
	seen := map[*ssa.Function]bool{}
	var stack []*ssa.Function
	for _, e := range found {
		if e.Class == entrypoints.Interactive {
			stack = append(stack, origin(e.Func))
		}
	}
	for len(stack) > 0 {
		fn := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[fn] || !c.local[fn] {
			continue
		}
		seen[fn] = true
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch instr := instr.(type) {
				case *ssa.MakeClosure:
					if anon, ok := instr.Fn.(*ssa.Function); ok {
						stack = append(stack, anon)
					}
				case ssa.CallInstruction:
					if callee := instr.Common().StaticCallee(); callee != nil {
						stack = append(stack, origin(callee))
					}
				}
			}
		}
	}
	return seen
}

// ---- interface calls ----

// dispatchOf is the stand-in resource of a call through an interface
// method, when the interface belongs to code that may reach a pool (not
// the standard library, not a pool library).
func (c *checker) dispatchOf(m *types.Func) (lanes.Resource, bool) {
	if d, ok := c.dispatches[m]; ok {
		return d, d.Key != ""
	}
	var d lanes.Resource
	if pkg := m.Pkg(); pkg != nil && c.mayDispatchTo(pkg) && !c.stdlibPath(pkg.Path()) {
		// A method without an object path (of an interface literal, as in
		// x.(interface{ Name() string })) can never be looked up where its
		// implementations are: the call is not carried.
		if path, err := c.paths.For(m); err == nil {
			d = lanes.Resource{Key: lanes.DispatchPrefix + catalog.Key(m), Name: netio.Name(m), Pkg: pkg.Path(), Obj: string(path)}
		}
	}
	c.dispatches[m] = d
	return d, d.Key != ""
}

// mayDispatchTo reports whether a call through an interface declared in pkg
// may lead to a pool: not when pkg is a pool library's (its interfaces are
// the pool's own), a test-support package's (assertion helpers, mocks), or
// another module's that cannot reach a pool library at all. An interface of
// the analysed module may lead to one wherever it is declared: a store's
// interface is often declared in a package that imports no database
// (shellhub's store.Store), for implementations in packages that do
// (store/mongo).
// The answer is kept per package: it walks pkg's imports.
func (c *checker) mayDispatchTo(pkg *types.Package) bool {
	may, ok := c.dispatchable[pkg]
	if !ok {
		may = !libraryPath(pkg.Path()) && !catalog.IsTestSupport(pkg.Path()) &&
			(c.ofModule(pkg) || pkgscope.Reaches(pkg, catalog.LanePackages))
		c.dispatchable[pkg] = may
	}
	return may
}

// ofModule reports whether pkg belongs to the module being analysed, when
// the driver says which one it is (go vet does; GOPATH code has none).
func (c *checker) ofModule(pkg *types.Package) bool {
	mod := c.pass.Module
	return mod != nil && mod.Path != "" && pkgscope.DeclaredInModule(mod, pkg)
}

// stdlibPath reports whether an import path is the standard library's: a
// directory of GOROOT/src (paths without a dot are not enough: test data
// and GOPATH code use them too).
func (c *checker) stdlibPath(path string) bool {
	if std, ok := c.stdlib[path]; ok {
		return std
	}
	first, _, _ := strings.Cut(path, "/")
	std := false
	if !strings.Contains(first, ".") {
		info, err := os.Stat(filepath.Join(build.Default.GOROOT, "src", path))
		std = err == nil && info.IsDir()
	}
	c.stdlib[path] = std
	return std
}

func libraryPath(path string) bool {
	return catalog.InPackages(path, append(catalog.LanePackages, catalog.RuntimePath))
}

// splitDispatch separates the unresolved interface calls from the uses.
func splitDispatch(uses []lanes.Use) (real, dispatch []lanes.Use) {
	for _, u := range uses {
		if u.IsDispatch() {
			dispatch = append(dispatch, u)
		} else {
			real = append(real, u)
		}
	}
	if len(dispatch) > maxDispatch {
		dispatch = dispatch[:maxDispatch]
	}
	return real, dispatch
}

// findLinks records a pool loaded from one variable or field and stored
// into another (NewFeedQueryBuilder filling feedQueryBuilder.db with s.db):
// inferred sharing is reported once for both names.
func (c *checker) findLinks(fn *ssa.Function, st *ssa.Store, outer lanes.Resource) {
	if c.isTestFile(fn.Pos()) || !lanes.InferredNouns[outer.Noun] {
		return
	}
	for _, inner := range c.sourcesOf(fn, st.Val, 2) {
		if inner.Lane != "" || inner.Key == outer.Key || strings.HasPrefix(inner.Key, "local:") {
			continue
		}
		link := lanes.Link{From: inner.Key, To: outer.Key, FromType: inner.Type}
		if !slices.Contains(c.links, link) {
			c.links = append(c.links, link)
		}
	}
}

// findStmtLinks links prepared statements to the pool they are prepared
// on, for inferred sharing: a statement field stored from a call given a
// pool (s.get, _ = s.db.Preparex(q)), or the statement fields of a struct
// stored from a call given a pool (app.queries = initQueries(db), which
// fills a Queries struct of *sqlx.Stmt from db). The call is not read:
// any call handed one pool is taken to prepare on it; one handed two or
// more links nothing.
func (c *checker) findStmtLinks(fn *ssa.Function, st *ssa.Store) {
	if c.isTestFile(fn.Pos()) {
		return
	}
	stmts := c.stmtsAt(st.Addr)
	if len(stmts) == 0 {
		return
	}
	val := st.Val
	if ex, ok := val.(*ssa.Extract); ok {
		val = ex.Tuple
	}
	call, ok := val.(*ssa.Call)
	if !ok {
		return
	}
	args := call.Common().Args
	if call.Common().IsInvoke() {
		args = append([]ssa.Value{call.Common().Value}, args...)
	}
	if pool, ok := c.preparingPool(fn, args, nil); ok {
		c.linkStmts(pool, stmts)
	}
}

// findFilledStmtLinks links the statements a call fills through a pointer
// it is handed to the one pool it is handed beside it: goyesql's loaders
// and the helpers around them (ScanSQLFile("queries.sql", &q, opt.DB))
// prepare every statement field of the struct on that pool, by
// reflection, which nothing else would follow.
func (c *checker) findFilledStmtLinks(fn *ssa.Function, call *ssa.Call) {
	if c.isTestFile(fn.Pos()) {
		return
	}
	args := call.Common().Args
	for _, filled := range c.filledStmts(args) {
		if pool, ok := c.preparingPool(fn, args, filled.arg); ok {
			c.linkStmts(pool, filled.stmts)
		}
	}
}

// stmtFill is an argument pointing to a struct of statements (or to one
// statement) and the statements it holds.
type stmtFill struct {
	arg   ssa.Value
	stmts []lanes.Resource
}

// filledStmts are the arguments of a call that point to statements it may
// fill.
func (c *checker) filledStmts(args []ssa.Value) []stmtFill {
	var out []stmtFill
	for _, arg := range args {
		inner := arg
		if mi, ok := inner.(*ssa.MakeInterface); ok {
			inner = mi.X
		}
		if _, isPtr := inner.Type().Underlying().(*types.Pointer); !isPtr {
			continue
		}
		if stmts := c.stmtsAt(inner); len(stmts) > 0 {
			out = append(out, stmtFill{arg, stmts})
		}
	}
	return out
}

// preparingPool is the one database pool among what args are built from
// (skip aside), if there is exactly one: a call handed two does not say
// which one prepares.
func (c *checker) preparingPool(fn *ssa.Function, args []ssa.Value, skip ssa.Value) (lanes.Resource, bool) {
	var pool lanes.Resource
	for _, arg := range args {
		if arg == skip {
			continue
		}
		for _, r := range c.sourcesOf(fn, arg, 3) {
			if r.Lane != "" || r.Noun != "database pool" || slices.Contains(catalog.StmtTypes, r.Type) || strings.HasPrefix(r.Key, "local:") || r.Key == pool.Key {
				continue
			}
			if pool.Key != "" {
				return lanes.Resource{}, false
			}
			pool = r
		}
	}
	return pool, pool.Key != ""
}

// linkStmts makes statements one pool with the pool they are prepared on.
func (c *checker) linkStmts(pool lanes.Resource, stmts []lanes.Resource) {
	for _, s := range stmts {
		link := lanes.Link{From: pool.Key, To: s.Key, FromType: pool.Type}
		if s.Key != pool.Key && !slices.Contains(c.links, link) {
			c.links = append(c.links, link)
		}
	}
}

// stmtsAt returns the statement resources an address holds: the statement
// field or variable itself, or the statement fields of the struct it holds
// (or points to).
func (c *checker) stmtsAt(addr ssa.Value) []lanes.Resource {
	if r, ok := c.loadedResource(addr); ok {
		if r.Lane == "" && slices.Contains(catalog.StmtTypes, r.Type) {
			return []lanes.Resource{r}
		}
		return nil
	}
	ptr, ok := addr.Type().Underlying().(*types.Pointer)
	if !ok {
		return nil
	}
	t := ptr.Elem()
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return nil
	}
	st, ok := named.Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	var out []lanes.Resource
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		if !slices.Contains(catalog.StmtTypes, catalog.TypeKey(f.Type())) {
			continue
		}
		if r, ok := c.resourceOf(f, named); ok && r.Lane == "" {
			out = append(out, r)
		}
	}
	return out
}

// sameName maps each pool key to the key it was copied from, through the
// summaries' links. A key filled from several (a library's field handed one
// pool by one wiring and another by a second wiring in the same module) is
// the copy of the one opened keeps, the first of them otherwise: the pool
// this program opens, not the other wiring's.
func sameName(sums []*lanes.Summary, opened func(string) bool) func(string) string {
	from := map[string][]string{}
	for _, s := range sums {
		for _, l := range s.Links {
			if !slices.Contains(from[l.To], l.From) {
				from[l.To] = append(from[l.To], l.From)
			}
		}
	}
	source := func(key string) (string, bool) {
		fills := from[key]
		if len(fills) == 0 {
			return "", false
		}
		if len(fills) > 1 {
			for _, f := range fills {
				if opened(f) {
					return f, true
				}
			}
		}
		return fills[0], true
	}
	return func(key string) string {
		for i := 0; i < 8; i++ { // links may chain; a cycle stops here
			next, ok := source(key)
			if !ok {
				break
			}
			key = next
		}
		return key
	}
}

// resolveSummaries returns the summaries with the interface calls of their
// inferred entries resolved where this package sees the implementations,
// and their pools named by the variable or field they were copied from.
func (c *checker) resolveSummaries(sums []*lanes.Summary) []*lanes.Summary {
	classes := map[string]bool{}
	for _, s := range sums {
		for _, e := range s.Entries {
			if e.Inferred {
				classes[e.Lane] = true
			}
		}
	}
	if len(classes) < 2 {
		return sums
	}
	root := sameName(sums, func(key string) bool {
		pos, _, _ := c.creatorCalls(key)
		return pos.IsValid()
	})
	// Each root's resource names the pool: the root's own where an entry
	// reaches it, else the first of its other names an entry reaches.
	canonical := map[string]lanes.Resource{}
	for _, s := range sums {
		for _, e := range s.Entries {
			for _, u := range e.Uses {
				r := root(u.Resource.Key)
				if _, ok := canonical[r]; !ok || r == u.Resource.Key {
					canonical[r] = u.Resource
				}
			}
		}
	}
	poolTypes := map[string]string{}
	for _, s := range sums {
		for _, l := range s.Links {
			if l.FromType != "" {
				poolTypes[l.From] = l.FromType
			}
		}
	}
	for root, r := range canonical {
		switch {
		case root == r.Key:
		case slices.Contains(catalog.StmtTypes, r.Type):
			canonical[root] = knownByKey(root, poolTypes[root], r)
			c.stmtPools[root] = true
		case c.dependencyState(r) && !c.dependencyState(knownByKey(root, "", r)):
			// The program's own field handed into a library's (a task
			// queue's ClientConfig.DB, its admin pages' Config.DB): the
			// pool is the program's, opened where it fills its field.
			canonical[root] = knownByKey(root, poolTypes[root], r)
		}
	}
	out := make([]*lanes.Summary, len(sums))
	for i, s := range sums {
		copied := *s
		copied.Entries = slices.Clone(s.Entries)
		for j, e := range copied.Entries {
			if !e.Inferred {
				continue
			}
			uses := append(slices.Clone(e.Uses), c.resolveAll(e.Dispatch, dispatchDepth)...)
			for k, u := range uses {
				if r, ok := canonical[root(u.Resource.Key)]; ok && r.Key != u.Resource.Key {
					// The path ends at the name it reached, then the pool's.
					uses[k].Path = capPath(append(slices.Clone(u.Path), lanes.Hop{Name: u.Resource.Name}))
					uses[k].Resource = r
				}
			}
			copied.Entries[j].Uses = uses
		}
		out[i] = &copied
	}
	return out
}

// knownByKey is a pool known by its key alone, as one of its copies is
// known (no entry reaches it but through its statements, or through the
// library fields it was handed into): named by it, so that the finding
// sits where that pool is created and says which it is.
func knownByKey(key, typ string, copy lanes.Resource) lanes.Resource {
	name := key[strings.LastIndex(key, "/")+1:]
	pkg := key[:len(key)-len(name)]
	if dot := strings.Index(name, "."); dot >= 0 {
		pkg += name[:dot]
	}
	return lanes.Resource{Key: key, Name: name, Noun: copy.Noun, Pkg: pkg, Type: typ}
}

func (c *checker) resolveAll(dispatch []lanes.Use, depth int) []lanes.Use {
	var out []lanes.Use
	for _, d := range dispatch {
		out = append(out, c.resolveDispatch(d, depth)...)
	}
	return out
}

// maxStarts bounds the background loops a finding points at.
const maxStarts = 12

// maxImpls bounds the implementations a summary carries.
const maxImpls = 4000

// findImpls records, for each named type of this package that implements
// an interface of the packages visible here (outside the standard library
// and the pool libraries), what each of its methods implementing that
// interface reaches.
func (c *checker) findImpls() []lanes.Impl {
	var ifaces []*types.Named
	seen := map[*types.Package]bool{}
	var visit func(p *types.Package)
	visit = func(p *types.Package) {
		if seen[p] {
			return
		}
		seen[p] = true
		for _, imp := range p.Imports() {
			visit(imp)
		}
		if c.stdlibPath(p.Path()) || !c.mayDispatchTo(p) {
			return
		}
		for _, n := range p.Scope().Names() {
			if tn, ok := p.Scope().Lookup(n).(*types.TypeName); ok && !tn.IsAlias() {
				if named, ok := tn.Type().(*types.Named); ok && named.TypeParams().Len() == 0 && types.IsInterface(named) {
					if it := named.Underlying().(*types.Interface); it.NumMethods() > 0 {
						ifaces = append(ifaces, named)
					}
				}
			}
		}
	}
	visit(c.pass.Pkg)
	var out []lanes.Impl
	for _, named := range c.ownTypes(false) {
		ptr := types.NewPointer(named)
		for _, iface := range ifaces {
			it := iface.Underlying().(*types.Interface)
			if !types.Implements(ptr, it) {
				continue
			}
			for i := 0; i < it.NumMethods(); i++ {
				m := it.Method(i)
				obj, _, _ := types.LookupFieldOrMethod(ptr, true, m.Pkg(), m.Name())
				f, ok := obj.(*types.Func)
				if !ok || f.Pkg() == nil || promotedFromInterface(f) {
					continue
				}
				im := c.implOf(lanes.DispatchPrefix+catalog.Key(m), f)
				im.StandIn = iface.Obj().Pkg() == c.pass.Pkg || c.inTestSupport()
				if p := c.pass.Fset.Position(f.Pos()); p.IsValid() {
					im.Impl.File, im.Impl.Line = p.Filename, p.Line
				}
				out = append(out, im)
				if len(out) >= maxImpls {
					return out
				}
			}
		}
	}
	return append(out, c.importedImpls(len(out))...)
}

// importedImpls records, for the interfaces this package declares, the
// methods of types in the packages it imports that implement them: a store
// package that declares its interface and imports its backends to choose
// one (data.NewBlobStore returning a redis or a sqlite3 store) is the one
// place that sees both, since the backends do not import it. Its summary
// carries them to the packages that call through the interface and no
// longer see the backends' packages.
func (c *checker) importedImpls(have int) []lanes.Impl {
	var out []lanes.Impl
	for _, named := range c.ownTypes(true) {
		it := named.Underlying().(*types.Interface)
		for i := 0; i < it.NumMethods(); i++ {
			m := it.Method(i)
			d, ok := c.dispatchOf(m)
			if !ok {
				continue
			}
			for _, f := range c.implementations(d) {
				if f.Pkg() == c.pass.Pkg {
					continue // this package's own types are above
				}
				im := c.implOf(d.Key, f)
				if len(im.Uses) == 0 && len(im.Dispatch) == 0 {
					continue
				}
				out = append(out, im)
				if have+len(out) >= maxImpls {
					return out
				}
			}
		}
	}
	return out
}

// resolveDispatch returns the pools a call through an interface reaches:
// those of every visible implementation that reaches one, each named on
// the path. An implementation that reaches none (an in-memory store, the
// backend a test or a small deployment picks) does not make the others'
// pools safe: which one runs is the deployment's choice, and where a
// pool's implementation runs, the pool is shared.
func (c *checker) resolveDispatch(d lanes.Use, depth int) []lanes.Use {
	if depth == 0 {
		return nil
	}
	impls := map[string]lanes.Impl{}
	var names []string
	addImpl := func(im lanes.Impl) {
		if _, ok := impls[im.Impl.Name]; !ok {
			names = append(names, im.Impl.Name)
			impls[im.Impl.Name] = im
		}
	}
	for _, impl := range c.implementations(d.Resource) {
		uses, dispatch := c.methodReach(impl)
		addImpl(lanes.Impl{Method: d.Resource.Key, Impl: c.hopOfFunc(impl), Uses: uses, Dispatch: dispatch})
	}
	for _, im := range c.carriedImpls[d.Resource.Key] {
		addImpl(im)
	}
	if len(impls) == 0 {
		return nil
	}
	var out []lanes.Use
	for _, name := range names {
		im := impls[name]
		uses := append(slices.Clone(im.Uses), c.resolveAll(im.Dispatch, depth-1)...)
		hop := im.Impl
		for _, u := range uses {
			if u.Resource.Lane == "" && lanes.InferredNouns[u.Resource.Noun] {
				path := append(slices.Clone(d.Path), lanes.Hop{Name: d.Resource.Name, Pkg: d.Resource.Pkg, Obj: d.Resource.Obj}, hop)
				out = append(out, lanes.Use{Resource: u.Resource, Path: capPath(append(path, u.Path...)), File: d.File, Line: d.Line})
			}
		}
	}
	return out
}

// methodReach is what a concrete method reaches: from this package's
// computation or its fact.
func (c *checker) methodReach(m *types.Func) (uses, dispatch []lanes.Use) {
	if m.Pkg() == c.pass.Pkg {
		fn := c.funcByObj[m]
		if fn == nil {
			return nil, nil
		}
		var all []lanes.Use
		for _, key := range sortedKeys(c.reach[fn]) {
			all = append(all, c.reach[fn][key].use)
		}
		return splitDispatch(all)
	}
	var fact lanes.Reaches
	if c.pass.ImportObjectFact(m, &fact) {
		return fact.Uses, fact.Dispatch
	}
	return nil, nil
}

// implementations are the concrete methods, in the packages visible here,
// that a call through the interface method may run.
func (c *checker) implementations(d lanes.Resource) []*types.Func {
	if impls, ok := c.impls[d.Key]; ok {
		return impls
	}
	var impls []*types.Func
	m, _ := c.lookup(d.Pkg, d.Obj).(*types.Func)
	if m != nil {
		if recv := m.Signature().Recv(); recv != nil {
			if iface, ok := recv.Type().Underlying().(*types.Interface); ok {
				for _, t := range c.typesWithMethod(m.Name()) {
					if !types.Implements(t, iface) {
						continue
					}
					if obj, _, _ := types.LookupFieldOrMethod(t, true, m.Pkg(), m.Name()); obj != nil {
						if f, ok := obj.(*types.Func); ok && f.Pkg() != nil && !promotedFromInterface(f) && !slices.Contains(impls, f) {
							impls = append(impls, f)
						}
					}
				}
			}
		}
	}
	c.impls[d.Key] = impls
	return impls
}

// typesWithMethod returns the pointer types (*T, for every named non-generic
// type T of the visible packages that may reach a pool) whose method set
// has a method of that name. The index is built on first use.
func (c *checker) typesWithMethod(name string) []types.Type {
	if c.methodIndex == nil {
		c.methodIndex = map[string][]types.Type{}
		seen := map[*types.Package]bool{}
		var visit func(p *types.Package)
		visit = func(p *types.Package) {
			if seen[p] {
				return
			}
			seen[p] = true
			for _, imp := range p.Imports() {
				visit(imp)
			}
			if c.stdlibPath(p.Path()) || libraryPath(p.Path()) || !pkgscope.Reaches(p, catalog.LanePackages) {
				return
			}
			for named := range ssautil.ConcreteTypes(p) {
				ptr := types.NewPointer(named)
				mset := types.NewMethodSet(ptr)
				for i := 0; i < mset.Len(); i++ {
					mn := mset.At(i).Obj().Name()
					c.methodIndex[mn] = append(c.methodIndex[mn], ptr)
				}
			}
		}
		visit(c.pass.Pkg)
	}
	return c.methodIndex[name]
}

// ---- reporting ----

// reportInferred reports the pools that both inferred classes reach, one
// finding per place: where this package creates such a pool, else where
// it starts the background work or registers the handler, else its package
// clause. It returns the keys reported.
func (c *checker) reportInferred(conflicts []lanes.Conflict) []string {
	byPos := map[token.Pos][]lanes.Conflict{}
	var order []token.Pos
	for _, conf := range conflicts {
		pos := c.inferredPos(conf)
		if !pos.IsValid() {
			continue // left to the package that creates the pool, or main
		}
		if _, ok := byPos[pos]; !ok {
			order = append(order, pos)
		}
		byPos[pos] = append(byPos[pos], conf)
	}
	var keys []string
	for _, pos := range order {
		group := byPos[pos]
		var names []string
		for _, conf := range group {
			names = append(names, conf.Resource.Name)
			keys = append(keys, conf.Resource.Key)
		}
		first := group[0]
		r := first.Resource
		what := fmt.Sprintf("%s, %s created once, serves", r.Name, article(r.Noun)+" "+r.Noun)
		if len(group) > 1 {
			// Pools of one type made in one place: the fields of one
			// value, or the alternative implementations of one
			// interface. Each is shared, whichever of them runs.
			what = fmt.Sprintf("%ss %s each serve", r.Noun, joinAnd(names))
		}
		interactive, background := pickClaim(first, string(entrypoints.Interactive)), pickClaim(first, string(entrypoints.Background))
		d := analysis.Diagnostic{
			Pos: pos,
			Message: fmt.Sprintf("%s: %s both interactive and background work, and no lanes are declared: interactive by %s (%s); background by %s (%s); a slow background batch holds the connections requests wait for: give the background work its own %s, and declare the lanes with //bhlint:lane NAME",
				Code, what, interactive.Path, interactive.Via, background.Path, background.Via, r.Noun),
		}
		for _, cl := range []lanes.Claim{background, interactive} {
			if p := c.posOf(cl.File, cl.Line); p.IsValid() {
				d.Related = append(d.Related, analysis.RelatedInformation{Pos: p, Message: cl.Lane + " work: " + cl.Via})
			}
			if p := c.posOf(cl.UseFile, cl.UseLine); p.IsValid() {
				d.Related = append(d.Related, analysis.RelatedInformation{Pos: p, Message: cl.Lane + " work reaches " + r.Name + " here"})
			}
			for _, hop := range cl.Hops {
				pos := token.NoPos
				if obj := c.lookup(hop.Pkg, hop.Obj); obj != nil {
					pos = obj.Pos()
				}
				if !pos.IsValid() {
					pos = c.posOf(hop.File, hop.Line)
				}
				if pos.IsValid() {
					d.Related = append(d.Related, analysis.RelatedInformation{Pos: pos, Message: cl.Lane + " work through " + hop.Name})
				}
			}
		}
		// Every other background loop that reaches the pool, where it starts.
		starts := map[string]bool{fmt.Sprint(background.File, background.Line): true}
		for _, conf := range group {
			for _, cl := range conf.Claims {
				at := fmt.Sprint(cl.File, cl.Line)
				if cl.Lane != string(entrypoints.Background) || starts[at] || len(starts) > maxStarts {
					continue
				}
				starts[at] = true
				if p := c.posOf(cl.File, cl.Line); p.IsValid() {
					d.Related = append(d.Related, analysis.RelatedInformation{Pos: p, Message: "background work also: " + cl.Via + ", by " + cl.Path})
				}
				if p := c.posOf(cl.UseFile, cl.UseLine); p.IsValid() {
					d.Related = append(d.Related, analysis.RelatedInformation{Pos: p, Message: "that background work reaches " + conf.Resource.Name + " here"})
				}
			}
		}
		for _, conf := range group {
			// Every opening of the pool is named, also when another rule
			// chose the finding's line (the first opening of its type).
			if at, p := c.creationCall(conf.Resource.Key); at == pos || p.File != "" {
				if cp := c.posOf(p.File, p.Line); cp.IsValid() && cp != pos {
					d.Related = append(d.Related, analysis.RelatedInformation{Pos: cp, Message: conf.Resource.Name + " is opened here, by " + p.Call})
				}
				for _, in := range p.Inner {
					if ip := c.posOf(in.File, in.Line); ip.IsValid() {
						d.Related = append(d.Related, analysis.RelatedInformation{Pos: ip, Message: p.Call + " opens it here, by " + in.Call})
					}
				}
				for _, also := range p.Also {
					if ap := c.posOf(also.File, also.Line); ap.IsValid() {
						d.Related = append(d.Related, analysis.RelatedInformation{Pos: ap, Message: "or opened here, by " + also.Call})
					}
				}
			}
			if obj := c.lookup(conf.Resource.Pkg, conf.Resource.Obj); obj != nil && obj.Pos().IsValid() {
				d.Related = append(d.Related, analysis.RelatedInformation{Pos: obj.Pos(), Message: conf.Resource.Name + " is declared here"})
			}
		}
		c.pass.Report(d)
	}
	return keys
}

// pickClaim returns the claim of a class with the shortest path.
func pickClaim(conf lanes.Conflict, class string) lanes.Claim {
	var best lanes.Claim
	for _, cl := range conf.Claims {
		if cl.Lane == class && (best.Lane == "" || len(cl.Hops) < len(best.Hops)) {
			best = cl
		}
	}
	return best
}

// inferredPos is where an inferred conflict is reported in this package:
// where it creates such a pool, or calls a function that creates it into a
// package-level variable (models.Setup(), which does db = gorm.Open(…);
// creators.go), or, in a main package, where another package creates it
// (createdElsewhere: a line of that package, the one to change), else
// where main starts the background work or registers the handler, or its
// package clause when the creation is in a file this pass cannot place.
// Where no line of the program opens the pool, main reports nothing: a binary that
// hands the field no pool (ctx.New(nil) in an agent that reports to the
// server over HTTP) shares nothing, and a finding with no line to change
// is one a user cannot act on. Another
// package that sees both classes (a handler package that also imports the
// workers) leaves it to the package that wires the program.
func (c *checker) inferredPos(conf lanes.Conflict) token.Pos {
	// A pool known as what statements were prepared on is a field each
	// call fills anew: the first opening of its type is its creation only
	// when one opening fills it (two managers, two pools: neither is it).
	byType := !c.stmtPools[conf.Resource.Key] || c.createdOnce(conf.Resource.Key)
	if pos := c.creationOf(conf.Resource.Type); byType && pos.IsValid() {
		return pos
	}
	pos, created := c.creationCall(conf.Resource.Key)
	if pos.IsValid() {
		return pos
	}
	if c.pass.Pkg.Name() != "main" || c.dependencyState(conf.Resource) || created.File == "" {
		return token.NoPos
	}
	for _, class := range []string{string(entrypoints.Background), string(entrypoints.Interactive)} {
		for _, cl := range conf.Claims {
			if cl.Lane == class && cl.Pkg == c.pass.Pkg.Path() && c.pos[cl.Pos].IsValid() {
				return c.pos[cl.Pos]
			}
		}
	}
	// The creation is in a file this pass cannot place (gopls shows a
	// package its own files only): the message names its line.
	return c.packageClause()
}

// createdOnce reports whether one opening, here or in a dependency, fills
// the pool of that key.
func (c *checker) createdOnce(key string) bool {
	return slices.ContainsFunc(c.created(), func(cr lanes.Created) bool { return cr.Key == key })
}

// dependencyState reports whether r, which the program opens nowhere it can
// be seen to (no creation, no call leading to one), is a field of a type
// declared outside the main module: a dependency's private state, filled
// by a constructor of the dependency's that the program never calls
// (client_golang's dbStatsCollector.db, reached through every Collector's
// Collect). A pool is where the program opens it; with no opening it is
// no pool of the program's, and a finding would sit at main's package
// clause naming what the program never made.
func (c *checker) dependencyState(r lanes.Resource) bool {
	m := c.pass.Module
	if m == nil || m.Path == "" || r.Pkg == "" {
		return false // no module to measure from (GOPATH mode)
	}
	return r.Pkg != m.Path && !strings.HasPrefix(r.Pkg, m.Path+"/")
}

// creationCall is creatorCalls' position, and in a main package, where no call of its
// own leads to the creation, createdElsewhere.
func (c *checker) creationCall(key string) (token.Pos, poolCreation) {
	pos, p, calls := c.creatorCalls(key)
	if pos.IsValid() || c.pass.Pkg.Name() != "main" {
		return pos, p
	}
	return c.createdElsewhere(key, calls)
}

// creationOf finds the first call of this package (outside tests) whose
// result is a pool of the given type: where the program opens the pool it
// then hands around (sql.Open, or the program's own NewConnectionPool); for
// an interface kept as a pool (dbx.Builder), a call returning the pool type
// that implements it (*dbx.DB).
func (c *checker) creationOf(typ string) token.Pos {
	if typ == "" {
		return token.NoPos
	}
	if pos, ok := c.creations[typ]; ok {
		return pos
	}
	best := token.NoPos
	for fn := range c.local {
		if c.isTestFile(fn.Pos()) {
			continue
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(*ssa.Call)
				if !ok || !(resultIs(call, typ) || resultIs(call, catalog.PoolMakers[typ])) {
					continue
				}
				if common := call.Common(); common.IsInvoke() || common.Signature().Recv() != nil || c.callsGetter(common) {
					continue // a method (a getter, db.Unsafe()) or a function returning what it is handed: not where a pool is opened
				}
				if pos := c.callStart(call.Pos()); pos.IsValid() && (!best.IsValid() || pos < best) {
					best = pos
				}
			}
		}
	}
	c.creations[typ] = best
	return best
}

// callsGetter reports whether common calls a function that returns a pool
// field of what it is handed (poolGetter).
func (c *checker) callsGetter(common *ssa.CallCommon) bool {
	_, ok := c.staticGetter(common)
	return ok
}

func resultIs(call *ssa.Call, typ string) bool {
	if typ == "" {
		return false
	}
	t := call.Type()
	if tuple, ok := t.(*types.Tuple); ok {
		if tuple.Len() == 0 {
			return false
		}
		t = tuple.At(0).Type()
	}
	return types.TypeString(t, nil) == typ
}

// posOf is ssautil.LinePos in this pass's file set.
func (c *checker) posOf(file string, line int) token.Pos {
	return ssautil.LinePos(c.pass.Fset, file, line)
}

// inferredKeys returns the keys of inferred conflicts reported before.
func reportedBefore(deps []*lanes.Summary) map[string]bool {
	out := map[string]bool{}
	for _, d := range deps {
		for _, k := range d.Reported {
			out[k] = true
		}
	}
	return out
}

// gatherImpls joins this package's implementations with those its
// dependencies carry, finds the interface methods whose calls can never
// reach a pool (deadMethods), and keeps, to resolve calls here and to
// carry on, those methods in the dead set and the other implementations
// whole, without their calls of dead methods.
func (c *checker) gatherImpls(deps []*lanes.Summary) {
	type key struct{ method, impl string }
	seen := map[key]bool{}
	var all []lanes.Impl
	add := func(im lanes.Impl) {
		k := key{im.Method, im.Impl.Name}
		if !seen[k] {
			seen[k] = true
			all = append(all, im)
		}
	}
	for _, im := range c.ownImpls {
		add(im)
	}
	c.dead = lanes.DeadSet{}
	for _, d := range deps {
		c.dead.Union(d.Dead)
		for _, im := range d.Impls {
			add(im)
		}
	}
	deadMethods(all, c.dead)
	c.allImpls, c.carriedImpls = nil, map[string][]lanes.Impl{}
	live := 0
	for _, im := range all {
		if c.dead.Has(im.Method) || live >= maxImpls {
			continue
		}
		live++
		im.Dispatch = c.liveUses(im.Dispatch)
		c.allImpls = append(c.allImpls, im)
		c.carriedImpls[im.Method] = append(c.carriedImpls[im.Method], im)
	}
}

// deadMethods adds to dead the dispatch keys of the interface methods that
// have an implementation reaching no pool, directly or through calls of
// such methods: resolveDispatch resolves their calls to nothing, so facts
// need not carry them. A stand-in is no such proof: a no-op kept beside
// the interface (permify's NoopDataWriter) or a double in test support
// reaches no pool by design, and the backends, visible only where the
// program is wired, may.
func deadMethods(impls []lanes.Impl, dead lanes.DeadSet) {
	for changed := true; changed; {
		changed = false
		for _, im := range impls {
			if dead.Has(im.Method) || im.StandIn || slices.ContainsFunc(im.Uses, isInferredPool) {
				continue
			}
			if !slices.ContainsFunc(im.Dispatch, func(d lanes.Use) bool { return !dead.Has(d.Resource.Key) }) {
				dead.Add(im.Method)
				changed = true
			}
		}
	}
}

// promotedFromInterface reports whether f is an interface's method promoted
// through an embedded interface field (type S struct{ model.DataStore }):
// no implementation, only the one S is given at run time.
func promotedFromInterface(f *types.Func) bool {
	recv := f.Signature().Recv()
	return recv != nil && types.IsInterface(recv.Type())
}

// inTestSupport reports whether this package sits in a directory Go
// projects keep tests and their doubles in (catalog.NonProductionDirs
// below the module's root), or is a test-support library.
func (c *checker) inTestSupport() bool {
	path := c.pass.Pkg.Path()
	if catalog.IsTestSupport(path) {
		return true
	}
	m := c.pass.Module
	return m != nil && m.Path != "" && strings.HasPrefix(path, m.Path+"/") && catalog.InNonProductionDir(strings.TrimPrefix(path, m.Path+"/"))
}

// isInferredPool reports whether a use counts between inferred classes: a
// pool with no lane.
func isInferredPool(u lanes.Use) bool {
	return u.Resource.Lane == "" && lanes.InferredNouns[u.Resource.Noun]
}

// liveUses drops the calls of interface methods that reach no pool.
func (c *checker) liveUses(uses []lanes.Use) []lanes.Use {
	if len(c.dead) == 0 {
		return uses
	}
	var out []lanes.Use
	for _, u := range uses {
		if !u.IsDispatch() || !c.dead.Has(u.Resource.Key) {
			out = append(out, u)
		}
	}
	return out
}

// declaredIn reports whether a declared lane is visible here or was before.
func declaredIn(deps []*lanes.Summary, own *lanes.Summary) bool {
	for _, s := range append(deps, own) {
		if s.Declared || len(s.Wraps) > 0 {
			return true
		}
		for _, e := range s.Entries {
			if !e.Inferred {
				return true
			}
		}
	}
	return false
}

func carriesAny(deps []*lanes.Summary) bool {
	for _, d := range deps {
		if len(d.Carried) > 0 || len(d.Pending) > 0 {
			return true
		}
	}
	return false
}

// inferredView gathers the inferred entries visible here — this package's,
// its dependencies' and those they carried — one per package, class and
// pool or interface call (the shortest path), as summaries by package.
func (c *checker) inferredView(deps []*lanes.Summary, own *lanes.Summary) []*lanes.Summary {
	type slot struct{ pkg, class, key string }
	best := map[slot]lanes.Entry{}
	var order []slot
	add := func(pkg string, e lanes.Entry) {
		if !e.Inferred {
			return
		}
		one := func(u lanes.Use, dispatch bool) {
			if !dispatch && !isInferredPool(u) || dispatch && c.dead.Has(u.Resource.Key) {
				return
			}
			k := slot{pkg, e.Lane, u.Resource.Key}
			single := e
			single.Uses, single.Dispatch = nil, nil
			if dispatch {
				single.Dispatch = []lanes.Use{u}
			} else {
				single.Uses = []lanes.Use{u}
			}
			prev, ok := best[k]
			if !ok {
				order = append(order, k)
			}
			if !ok || pathLen(single) < pathLen(prev) {
				best[k] = single
			}
		}
		for _, u := range e.Uses {
			one(u, false)
		}
		for _, u := range e.Dispatch {
			if c.dead.Has(u.Resource.Key) {
				// A call its own package did not know dead (the in-memory
				// backend is not in its build): the first package that
				// knows resolves it, whoever's entry it is, as resolveDead
				// does for this package's own.
				for _, r := range c.resolveDispatch(u, dispatchDepth) {
					one(r, false)
				}
				continue
			}
			one(u, true)
		}
	}
	for _, e := range own.Entries {
		add(own.Pkg, e)
	}
	for _, d := range deps {
		for _, e := range d.Entries {
			add(d.Pkg, e)
		}
		for _, cr := range d.Carried {
			add(cr.Pkg, cr.Entry)
		}
	}
	byPkg := map[string]*lanes.Summary{}
	var out []*lanes.Summary
	for _, k := range order {
		s := byPkg[k.pkg]
		if s == nil {
			s = &lanes.Summary{Pkg: k.pkg}
			byPkg[k.pkg] = s
			out = append(out, s)
		}
		s.Entries = append(s.Entries, best[k])
	}
	// Links travel with the summaries that declared them.
	for _, d := range append(deps, own) {
		if len(d.Links) > 0 {
			out = append(out, &lanes.Summary{Pkg: d.Pkg + " (links)", Links: d.Links})
		}
	}
	return out
}

// carryOn returns the inferred entries of the view that are not this
// package's, to carry forward: one per class and pool or interface call,
// the shortest, whichever package it comes from. A conflict needs one
// claim of each class; carrying every package's would make each summary
// as long as all those before it.
func carryOn(view []*lanes.Summary, pkg string) []lanes.Carried {
	type slot struct{ class, key string }
	at := map[slot]int{}
	var out []lanes.Carried
	for _, s := range view {
		if s.Pkg == pkg {
			continue
		}
		for _, e := range s.Entries {
			var k slot
			switch {
			case len(e.Uses) > 0:
				k = slot{e.Lane, e.Uses[0].Resource.Key}
			case len(e.Dispatch) > 0:
				k = slot{e.Lane, e.Dispatch[0].Resource.Key}
			}
			if i, ok := at[k]; !ok {
				at[k] = len(out)
				out = append(out, lanes.Carried{Pkg: s.Pkg, Entry: e})
			} else if pathLen(e) < pathLen(out[i].Entry) {
				out[i] = lanes.Carried{Pkg: s.Pkg, Entry: e}
			}
		}
	}
	return out
}

func pathLen(e lanes.Entry) int {
	n := 0
	for _, u := range append(e.Uses, e.Dispatch...) {
		n += len(u.Path)
	}
	return n
}

// pendingBefore collects the inferred conflicts that packages before this
// one saw whole and left to a later one, by resource key.
func pendingBefore(deps []*lanes.Summary, reported map[string]bool) map[string]lanes.Conflict {
	out := map[string]lanes.Conflict{}
	for _, d := range deps {
		for _, conf := range d.Pending {
			if _, ok := out[conf.Resource.Key]; !ok && !reported[conf.Resource.Key] {
				out[conf.Resource.Key] = conf
			}
		}
	}
	return out
}

func sortedSet(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// withHandlers adds to the entry points found by registration the request
// handlers no known router registers (entrypoints.Handlers: a function that
// takes a request and that nothing here calls directly, as the closures a
// project's own route builder is handed): per request is what takes a
// request, whoever registers it.
func withHandlers(found []entrypoints.Entry, funcs []*ssa.Function) []entrypoints.Entry {
	registered := map[*ssa.Function]bool{}
	for _, e := range found {
		if e.Class == entrypoints.Interactive {
			registered[origin(e.Func)] = true
		}
	}
	for _, e := range entrypoints.Handlers(funcs) {
		if !registered[origin(e.Func)] {
			found = append(found, e)
		}
	}
	return found
}

// resolveDead resolves, here, the calls of an entry through interface
// methods that some implementation shows reach no pool (the dead set): no
// fact carries such a call on, so the implementations visible here (the
// store's backends its package imports) are the only ones that will ever
// resolve it, and those that reach a pool are reached.
func (c *checker) resolveDead(dispatch []lanes.Use) []lanes.Use {
	var out []lanes.Use
	for _, d := range dispatch {
		if c.dead.Has(d.Resource.Key) {
			out = append(out, c.resolveDispatch(d, dispatchDepth)...)
		}
	}
	return out
}

// ownTypes are this package's named, non-generic types outside test
// files: its interfaces, or the others.
func (c *checker) ownTypes(interfaces bool) []*types.Named {
	var out []*types.Named
	scope := c.pass.Pkg.Scope()
	for _, n := range scope.Names() {
		tn, ok := scope.Lookup(n).(*types.TypeName)
		if !ok || tn.IsAlias() || c.isTestFile(tn.Pos()) {
			continue
		}
		named, ok := tn.Type().(*types.Named)
		if ok && named.TypeParams().Len() == 0 && types.IsInterface(named) == interfaces {
			out = append(out, named)
		}
	}
	return out
}

// implOf is what the method f, implementing the interface method of the
// dispatch key, reaches: its pools and its own interface calls.
func (c *checker) implOf(key string, f *types.Func) lanes.Impl {
	uses, dispatch := c.methodReach(f)
	var pools []lanes.Use
	for _, u := range uses {
		if isInferredPool(u) {
			pools = append(pools, u)
		}
	}
	return lanes.Impl{Method: key, Impl: c.hopOfFunc(f), Uses: pools, Dispatch: dispatch}
}

// hopOfFunc names a method of any package on a path, by its object path
// where it has one, for another package to look it up.
func (c *checker) hopOfFunc(f *types.Func) lanes.Hop {
	hop := lanes.Hop{Name: netio.Name(f), Pkg: f.Pkg().Path()}
	if p, err := c.paths.For(f); err == nil {
		hop.Obj = string(p)
	}
	return hop
}
