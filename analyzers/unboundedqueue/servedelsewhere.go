package unboundedqueue

import (
	"fmt"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/netio"
	"github.com/bhlint/bhlint/internal/pkgscope"
)

// servedElsewhere carries the calls a package's request paths make through
// an interface that another package of the module declares and whose
// implementations neither package sees: dex's server calls
// s.storage.UpdateRefreshToken on storage.Storage, which storage/sql and
// storage/ent implement, and only main imports them. Per-request is
// whatever an entry point reaches, through the interfaces it calls: the
// first package that sees both this fact and an implementation that waits
// with no context (its waitsNoContext fact) reports the wait where it is
// (reportServedElsewhere).
type servedElsewhere struct{ Calls []servedCall }

// servedCall is one such call: the interface method (its package, type and
// name), where the request's path calls it, and its entry point.
type servedCall struct {
	Pkg, Iface, Method string
	At, Entry          pendingPlace
	EntryName          string
}

func (*servedElsewhere) AFact() {}

func (f *servedElsewhere) String() string { return fmt.Sprintf("servedElsewhere(%d)", len(f.Calls)) }

// maxServedCalls caps the calls a package's fact carries: one per
// interface method is enough to name a request that reaches it.
const maxServedCalls = 128

// recordServedElsewhere keeps this package's request paths' calls through
// another package's interfaces of the module that carry no wait of their
// own, one per method, and exports them; c.servedCalls also holds those of
// the packages before it, which reportServedElsewhere reads.
func (c *checker) recordServedElsewhere() {
	calls := c.importedServedCalls()
	var own []servedCall
	if c.serving && !c.dependency {
		served := map[*ssa.Call]*types.Func{}
		found, frames := onRequestPath(c, func(call *ssa.Call, _ *requestFrame) bool {
			if m := c.servedThroughInterface(call.Common()); m != nil {
				served[call] = m
				return true
			}
			return false
		})
		for _, call := range found {
			m := served[call]
			named := types.Unalias(m.Signature().Recv().Type()).(*types.Named)
			sc := servedCall{Pkg: m.Pkg().Path(), Iface: named.Obj().Name(), Method: m.Name(),
				At:        c.placeOf(call.Pos(), "a request's path calls it here, through "+netio.Name(m)),
				Entry:     c.placeOf(frames[call].entry.Pos(), "the request's entry point"),
				EntryName: netio.DisplayName(frames[call].entry)}
			own = addServedCall(own, sc)
		}
	}
	for _, sc := range own {
		calls = addServedCall(calls, sc)
	}
	c.servedCalls = calls
	if len(own) > 0 {
		c.pass.ExportPackageFact(&servedElsewhere{Calls: own})
	}
}

func addServedCall(calls []servedCall, sc servedCall) []servedCall {
	if len(calls) == maxServedCalls || slices.ContainsFunc(calls, func(o servedCall) bool {
		return o.Pkg == sc.Pkg && o.Iface == sc.Iface && o.Method == sc.Method
	}) {
		return calls
	}
	return append(calls, sc)
}

// importedServedCalls are the calls of the packages before this one whose
// facts it sees.
func (c *checker) importedServedCalls() []servedCall {
	var calls []servedCall
	for _, pf := range c.pass.AllPackageFacts() {
		if f, ok := pf.Fact.(*servedElsewhere); ok && pf.Package != c.pass.Pkg {
			for _, sc := range f.Calls {
				calls = addServedCall(calls, sc)
			}
		}
	}
	return calls
}

// servedThroughInterface is the method a call invokes on an interface
// declared at the top level of another package of the module, when no
// wait is known for it here.
func (c *checker) servedThroughInterface(common *ssa.CallCommon) *types.Func {
	if !common.IsInvoke() {
		return nil
	}
	m := common.Method
	if m.Pkg() == nil || m.Pkg() == c.pass.Pkg || !pkgscope.DeclaredInModule(c.pass.Module, m.Pkg()) {
		return nil
	}
	named, ok := types.Unalias(m.Signature().Recv().Type()).(*types.Named)
	if !ok || named.Obj().Parent() != m.Pkg().Scope() || len(c.noContextWaitsOf(m)) > 0 {
		return nil
	}
	return m
}

// reportServedElsewhere reports the waits of the implementations this
// package sees (its own methods and its imports', by their facts) of the
// interface methods the request paths before it call (servedElsewhere),
// each where it is, once, with the call and the entry point as related
// information.
func (c *checker) reportServedElsewhere() {
	if len(c.servedCalls) == 0 {
		return
	}
	ifaces := c.servedInterfaces()
	reported := c.noContextWaitsReportedBefore()
	for _, impl := range c.methodsThatWaitNoContext() {
		for _, sc := range c.servedCalls {
			iface := ifaces[sc.Pkg+"."+sc.Iface]
			if iface == nil || impl.Name() != sc.Method || !implementsIface(impl, iface) {
				continue
			}
			for _, w := range c.noContextWaitsOf(impl) {
				key := fmt.Sprintf("%s:%d", w.File, w.Line)
				if reported[key] || slices.Contains(c.reportedWaits, key) {
					continue
				}
				d := analysis.Diagnostic{Pos: c.waitPos(w), Message: Code + ": " + noContextWaitMessage(w, sc.EntryName)}
				d.Related = []analysis.RelatedInformation{
					{Pos: c.placePos(sc.At), Message: sc.At.Message},
					{Pos: c.placePos(sc.Entry), Message: sc.Entry.Message},
				}
				if w.Pending || (w.Handed != "" || w.NeedsMax) && !c.poolsLimitedHere() {
					c.pend(d)
					continue
				}
				c.reportedWaits = append(c.reportedWaits, key)
				c.emit(d)
			}
		}
	}
}

// servedInterfaces finds the interfaces the served calls name among the
// packages this one sees, by path and name.
func (c *checker) servedInterfaces() map[string]*types.Interface {
	want := map[string]bool{}
	for _, sc := range c.servedCalls {
		want[sc.Pkg] = true
	}
	out := map[string]*types.Interface{}
	seen := map[*types.Package]bool{}
	var walk func(p *types.Package)
	walk = func(p *types.Package) {
		if seen[p] {
			return
		}
		seen[p] = true
		if want[p.Path()] {
			for _, sc := range c.servedCalls {
				if sc.Pkg != p.Path() {
					continue
				}
				if tn, ok := p.Scope().Lookup(sc.Iface).(*types.TypeName); ok {
					if it, ok := tn.Type().Underlying().(*types.Interface); ok {
						out[sc.Pkg+"."+sc.Iface] = it
					}
				}
			}
		}
		for _, imp := range p.Imports() {
			if pkgscope.DeclaredInModule(c.pass.Module, imp) {
				walk(imp)
			}
		}
	}
	walk(c.pass.Pkg)
	return out
}

// methodsThatWaitNoContext are the methods, of this package and of the
// packages whose facts it sees, that wait with no context.
func (c *checker) methodsThatWaitNoContext() []*types.Func {
	var out []*types.Func
	for fn, waits := range c.noCtxWaits {
		if len(waits) > 0 && fn.Signature().Recv() != nil {
			out = append(out, fn)
		}
	}
	for _, f := range c.pass.AllObjectFacts() {
		if _, ok := f.Fact.(*waitsNoContext); !ok {
			continue
		}
		if fn, ok := f.Object.(*types.Func); ok && fn.Signature().Recv() != nil && fn.Pkg() != c.pass.Pkg {
			out = append(out, fn)
		}
	}
	slices.SortFunc(out, func(a, b *types.Func) int { return int(a.Pos() - b.Pos()) })
	return out
}

// implementsIface reports whether m's receiver type, or a pointer to it,
// implements iface (an interface's own method does not).
func implementsIface(m *types.Func, iface *types.Interface) bool {
	t := m.Signature().Recv().Type()
	return !types.IsInterface(t) && implementedBy(t, iface)
}
