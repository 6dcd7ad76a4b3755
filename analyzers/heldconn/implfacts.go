package heldconn

import (
	"go/types"
	"maps"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/netio"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// implements is a package fact: the interface methods, declared in this
// package or one it imports, that a type of this package implements with a
// method that holds while it runs a callback (those that wait on the
// network are netio's ImplementedInBuild). A caller that sees no implementation of an interface it calls
// through resolves the call with these facts of the packages in its build:
// facts reach only importers, and an implementation the caller's build
// includes is one the program may run (openim's storage controllers call
// the tools module's tx.Tx, implemented by its mongoutil, and their cache
// interfaces, implemented by cache/redis: both are in the controllers'
// build, neither among their direct imports, where visible
// implementations are looked for).
type implements struct {
	Holds []implHold
}

// implHold is an implementation that holds while running its callbacks.
type implHold struct {
	Method string // the interface method's catalog.Key
	Impl   string
	Params []int
	Noun   string
	Via    []string
}

func (*implements) AFact() {}
func (f *implements) String() string {
	var parts []string
	for _, h := range f.Holds {
		parts = append(parts, "holds "+h.Method+" by "+h.Impl)
	}
	return "implements(" + strings.Join(parts, ", ") + ")"
}

// exportImplements exports this package's implements fact: its types'
// methods that hold (learned by learnHolders), for the interfaces of this
// package and of its imports that they implement; and, beside them, those its imports' facts carry. The
// go command's vet driver keeps a dependency's facts only where that
// dependency's types are reachable from the direct imports' API, and an
// implementation wired in behind an interface seldom is: carried by each
// importer, they reach every package whose build includes them.
func (c *checker) exportImplements(funcs func() []*ssa.Function) {
	fact := &implements{}
	if len(c.holders) > 0 {
		c.ownImplements(funcs(), fact)
	}
	fact.Holds = carried(fact.Holds, c.inBuild().holds)
	c.exported = fact
	if len(fact.Holds) > 0 {
		c.pass.ExportPackageFact(fact)
	}
}

// ownImplements adds this package's own implementations to fact.
func (c *checker) ownImplements(funcs []*ssa.Function, fact *implements) {
	holding := map[*types.Func]*holdsDuringCallback{}
	for _, fn := range funcs {
		obj, ok := fn.Object().(*types.Func)
		if !ok || fn.Parent() != nil || obj.Signature().Recv() == nil {
			continue
		}
		if h, ok := c.holders[fn]; ok {
			holding[obj] = h
		}
	}
	if len(holding) == 0 {
		return
	}
	for _, im := range c.implementedInterfaces(holding) {
		h := holding[im.Impl]
		fact.Holds = append(fact.Holds, implHold{Method: catalog.Key(im.Method), Impl: netio.Name(im.Impl), Params: h.Params, Noun: h.Noun, Via: h.Via})
	}
}

// carried is own followed by the build's entries it lacks, by interface
// method in key order.
func carried(own []implHold, built map[string][]implHold) []implHold {
	seen := map[[2]string]bool{}
	for _, e := range own {
		seen[e.id()] = true
	}
	for _, key := range slices.Sorted(maps.Keys(built)) {
		for _, e := range built[key] {
			if !seen[e.id()] {
				seen[e.id()] = true
				own = append(own, e)
			}
		}
	}
	return own
}

func (h implHold) id() [2]string { return [2]string{h.Method, h.Impl} }

// implementedInterfaces are the interface methods, of this package's and
// its imports' interfaces, that one of the given methods implements. Only
// interfaces with a method of one of their names are tried.
func (c *checker) implementedInterfaces(holding map[*types.Func]*holdsDuringCallback) []ssautil.MethodImplementation {
	names := map[string]bool{}
	recvs := map[*types.Named]bool{}
	for _, m := range keysOf(holding) {
		names[m.Name()] = true
		if named := receiverNamed(m); named != nil {
			recvs[named] = true
		}
	}
	var out []ssautil.MethodImplementation
	seen := map[[2]*types.Func]bool{}
	for _, pkg := range append([]*types.Package{c.pass.Pkg}, c.pass.Pkg.Imports()...) {
		for iface := range ssautil.Interfaces(pkg) {
			if !hasMethodNamed(iface, names) {
				continue
			}
			for named := range recvs {
				for m := range iface.Methods() {
					if !names[m.Name()] {
						continue
					}
					impl := ssautil.Implementation(named, iface, m)
					if impl == nil || seen[[2]*types.Func{m, impl}] {
						continue
					}
					seen[[2]*types.Func{m, impl}] = true
					out = append(out, ssautil.MethodImplementation{Method: m, Impl: impl})
				}
			}
		}
	}
	return out
}

func keysOf[V any](m map[*types.Func]V) []*types.Func {
	out := make([]*types.Func, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Pos() < out[j].Pos() })
	return out
}

func receiverNamed(m *types.Func) *types.Named {
	t := m.Signature().Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	named, _ := types.Unalias(t).(*types.Named)
	if named == nil || named.TypeParams().Len() > 0 {
		return nil
	}
	return named
}

func hasMethodNamed(iface *types.Interface, names map[string]bool) bool {
	for m := range iface.Methods() {
		if names[m.Name()] {
			return true
		}
	}
	return false
}

// buildImplements is what the packages in this package's build implement,
// by interface method key, read once from their facts in package path
// order.
type buildImplements struct {
	holds map[string][]implHold
}

func (c *checker) inBuild() *buildImplements {
	if c.built != nil {
		return c.built
	}
	c.built = &buildImplements{holds: map[string][]implHold{}}
	facts := c.pass.AllPackageFacts()
	sort.Slice(facts, func(i, j int) bool { return facts[i].Package.Path() < facts[j].Package.Path() })
	for _, pf := range facts {
		f, ok := pf.Fact.(*implements)
		if !ok || pf.Package == c.pass.Pkg {
			continue
		}
		for _, h := range f.Holds {
			if !slices.ContainsFunc(c.built.holds[h.Method], func(o implHold) bool { return o.id() == h.id() }) {
				c.built.holds[h.Method] = append(c.built.holds[h.Method], h)
			}
		}
	}
	return c.built
}

// heldInBuild is the holder an implementation in the build gives the
// interface method m, when every one that holds holds the same parameters.
func (c *checker) heldInBuild(m *types.Func) *holder {
	holds := c.inBuild().holds[catalog.Key(m)]
	if len(holds) == 0 {
		return nil
	}
	first := holds[0]
	for _, h := range holds[1:] {
		if !slices.Equal(h.Params, first.Params) || h.Noun != first.Noun {
			return nil // the holding implementations disagree on what they hold
		}
	}
	var args []int
	for _, p := range first.Params {
		args = append(args, p-1) // the receiver is not among an invoke's Args
	}
	return &holder{args: args, noun: first.Noun, via: first.Via, impl: first.Impl}
}

// waitInBuild is the wait an implementation in the build gives the
// module's interface method m (netio's ImplementedInBuild), or false.
func (c *checker) waitInBuild(m *types.Func) (waitOn, bool) {
	path, at := c.net.WaitingInBuild(m)
	if path == nil {
		return waitOn{}, false
	}
	return waitOn{kind: network, path: path, at: at}, true
}
