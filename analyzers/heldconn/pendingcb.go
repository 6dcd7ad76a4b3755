package heldconn

import (
	"fmt"
	"go/token"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/pkgscope"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// pendingCallbacks carries the calls through the module's interfaces that
// hand a callback which waits on the network or a subprocess, where no
// implementation the package sees or builds holds while it runs it: dex's
// server hands storage.Storage's UpdateRefreshToken an updater that asks
// the upstream identity provider, and only main imports storage/sql, whose
// implementation runs the updater inside a transaction. The first package
// whose build has an implementation holding that parameter (its implements
// facts) reports the callback's waits, naming the implementation
// (reportPendingCallbacks).
type pendingCallbacks struct{ Sites []pendingCallback }

// pendingCallback is one such call: the interface method (catalog.Key),
// the parameter the callback is (the receiver counted as 0, as implHold's
// Params), the call's place, and the callback's waits.
type pendingCallback struct {
	Method string
	Param  int
	Holder string // the method as the call names it
	Site   place
	Waits  []pendingWait
}

// pendingWait is a wait in the callback: where, what it calls, how to fix
// it, and the line in a function of the module that reaches the network.
type pendingWait struct {
	At        place
	What, Fix string
	Reach     place
}

// place is a position kept as text for another package's file set.
type place struct {
	File string
	Line int
}

func (*pendingCallbacks) AFact() {}
func (f *pendingCallbacks) String() string {
	return fmt.Sprintf("pendingCallbacks(%d)", len(f.Sites))
}

// callbacksReported carries the waits a package and those before it
// reported from pendingCallbacks (file:line), so that each is reported once.
type callbacksReported struct{ Keys []string }

func (*callbacksReported) AFact() {}
func (f *callbacksReported) String() string {
	return fmt.Sprintf("callbacksReported(%d)", len(f.Keys))
}

// maxPendingCallbacks caps a package's sites, and maxPendingWaits a
// callback's waits: a finding per wait a user moves is enough.
const (
	maxPendingCallbacks = 64
	maxPendingWaits     = 4
)

// recordPendingCallbacks exports this package's pendingCallbacks.
func (c *checker) recordPendingCallbacks(funcs []*ssa.Function) {
	if !pkgscope.DeclaredInModule(c.pass.Module, c.pass.Pkg) {
		return
	}
	var sites []pendingCallback
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(*ssa.Call)
				if !ok || len(sites) == maxPendingCallbacks {
					continue
				}
				sites = append(sites, c.pendingAt(call)...)
			}
		}
	}
	if len(sites) > 0 {
		c.pass.ExportPackageFact(&pendingCallbacks{Sites: sites})
	}
}

// pendingAt is the pending sites of one call: an invoke of a module
// interface's method that no implementation here or in the build holds
// during, handed a callback of this package that waits.
func (c *checker) pendingAt(call *ssa.Call) []pendingCallback {
	common := call.Common()
	if !common.IsInvoke() || !hasFuncArg(common) || !pkgscope.DeclaredInModule(c.pass.Module, common.Method.Pkg()) {
		return nil
	}
	if _, known := catalog.TxCallbacks[catalog.Key(common.Method)]; known || c.holderOf(common) != nil {
		return nil // held here: checkCallbacks reports it
	}
	var out []pendingCallback
	for i, arg := range common.Args {
		cb := ssautil.FuncOf(arg)
		if cb == nil || len(cb.Blocks) == 0 {
			continue
		}
		if waits := c.callbackWaits(cb); len(waits) > 0 {
			out = append(out, pendingCallback{Method: catalog.Key(common.Method), Param: i + 1, Holder: callName(common),
				Site: c.placeOf(c.callStart(call.Pos())), Waits: waits})
		}
	}
	return out
}

// callbackWaits are the calls of cb that wait on the network or on a
// subprocess.
func (c *checker) callbackWaits(cb *ssa.Function) []pendingWait {
	var out []pendingWait
	for _, b := range cb.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok || len(out) == maxPendingWaits {
				continue
			}
			w, ok := c.networkOrSubprocess(call.Common())
			if !ok {
				continue
			}
			pw := pendingWait{At: c.placeOf(c.callStart(call.Pos())), What: w.inCallback(), Fix: w.fix(nil)}
			if w.at.IsValid() {
				pw.Reach = c.placeOf(c.callStart(w.at))
			}
			out = append(out, pw)
		}
	}
	return out
}

// networkOrSubprocess is the waits a call makes whatever is held: the
// network (also through the module's interfaces) and subprocesses. waitIn
// asks it first; a pending callback asks only it, since a second
// connection depends on which pool is held, which the package that
// reports does not know.
func (c *checker) networkOrSubprocess(common *ssa.CallCommon) (waitOn, bool) {
	if common.IsInvoke() && pkgscope.DeclaredInModule(c.pass.Module, common.Method.Pkg()) {
		if w, ok := c.interfaceWait(common.Method); ok {
			return w, true // named by the implementation that waits
		}
	}
	if path := c.net.CallReaches(common); path != nil {
		return waitOn{kind: network, path: path, at: c.reachedAt(common)}, true
	}
	if path := c.subprocessCall(common); path != nil {
		return waitOn{kind: subprocess, path: path}, true
	}
	return waitOn{}, false
}

func (c *checker) placeOf(pos token.Pos) place {
	p := c.pass.Fset.Position(pos)
	return place{p.Filename, p.Line}
}

func (c *checker) posOf(pl place) token.Pos {
	return ssautil.LinePos(c.pass.Fset, pl.File, pl.Line)
}

// reportPendingCallbacks reports the waits of the callbacks the packages
// before this one handed through an interface, where this package's build
// has an implementation that holds while running that parameter; and
// exports what it and those before it reported.
func (c *checker) reportPendingCallbacks() {
	reported := c.callbacksReportedBefore()
	var keys []string
	for _, pf := range c.pass.AllPackageFacts() {
		f, ok := pf.Fact.(*pendingCallbacks)
		if !ok || pf.Package == c.pass.Pkg {
			continue
		}
		for _, site := range f.Sites {
			h, ok := c.buildHolds(site.Method, site.Param)
			if !ok {
				continue
			}
			for _, w := range site.Waits {
				key := fmt.Sprintf("%s:%d", w.At.File, w.At.Line)
				if reported[key] || slices.Contains(keys, key) {
					continue
				}
				keys = append(keys, key)
				c.reportPending(site, w, h)
			}
		}
	}
	for k := range reported {
		keys = append(keys, k)
	}
	if len(keys) > 0 {
		slices.Sort(keys)
		c.pass.ExportPackageFact(&callbacksReported{Keys: slices.Compact(keys)})
	}
}

func (c *checker) reportPending(site pendingCallback, w pendingWait, h implHold) {
	d := analysis.Diagnostic{
		Pos: c.posOf(w.At),
		Message: fmt.Sprintf("%s: the function passed to %s calls %s while the %s it runs in is held (by %s, in the program's build); %s",
			Code, site.Holder, w.What, h.Noun, h.Impl, w.Fix),
		Related: []analysis.RelatedInformation{{Pos: c.posOf(site.Site), Message: h.Noun + " held by " + site.Holder + " [implemented by " + h.Impl + "] here"}},
	}
	if w.Reach.File != "" && w.Reach != w.At {
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: c.posOf(w.Reach), Message: "the call that reaches the network"})
	}
	c.pass.Report(d)
}

// buildHolds is an implementation in this package's build, its own
// included, that holds while running the parameter of the interface method
// (by key).
func (c *checker) buildHolds(method string, param int) (implHold, bool) {
	holds := c.inBuild().holds[method]
	if c.exported != nil {
		holds = append(slices.Clone(holds), c.exported.Holds...)
	}
	for _, h := range holds {
		if h.Method != method {
			continue
		}
		if slices.Contains(h.Params, param) {
			return h, true
		}
	}
	return implHold{}, false
}

// callbacksReportedBefore is what the packages this one imports, and those
// before them, reported.
func (c *checker) callbacksReportedBefore() map[string]bool {
	out := map[string]bool{}
	for _, imp := range c.pass.Pkg.Imports() {
		var f callbacksReported
		if c.pass.ImportPackageFact(imp, &f) {
			for _, k := range f.Keys {
				out[k] = true
			}
		}
	}
	return out
}
