package healthprobe

import (
	"fmt"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/lazyssa"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// check reports the probe if it reaches a shared pool or client: at the
// first call in its own body that leads there.
func (c *checker) check(p probe) {
	if p.lib != nil {
		c.checkLibrary(p)
		return
	}
	if p.elsewhere != nil || len(p.fn.Blocks) == 0 {
		c.checkElsewhere(p)
		return
	}
	if !lazyssa.Fits(c.pass, Code, p.fn) {
		return
	}
	skip := func(site token.Pos) bool { return c.optIn(p.fn, site) || c.memoized(p.fn, site) }
	u := c.firstUseExcept(p.fn, skip)
	if u == nil {
		u = c.firstThroughUse(p, skip)
	}
	if u == nil {
		return
	}
	if !u.site.IsValid() {
		// A wrapper SSA made (an interface's method value): it has no
		// source; the registration stands for it.
		u.site = c.starts.Start(c.pass.Files, p.at)
	}
	if c.bindResource(p, u, funcName(p.fn)) {
		c.report(p, u, funcName(p.fn))
	}
}

// bindResource names a resource the probe knew as a parameter or free
// variable where the probe was registered (the closure's capture, the
// factory's argument, the method value's receiver). It reports false when
// that is a pool opened for the probe alone.
func (c *checker) bindResource(p probe, u *use, handler string) bool {
	if u.Param < 0 {
		return true
	}
	v, where := p.bind(u.Param)
	u.Param = -1
	if v == nil {
		u.Resource = "the " + u.Noun + " passed to " + handler
		return true
	}
	name, param, own := c.resourceOf(where, v, u.Noun)
	if own {
		return false
	}
	u.Resource = name
	if param >= 0 {
		u.Resource = "the " + u.Noun + " passed to " + funcName(where)
	}
	return true
}

// checkElsewhere: a handler whose body is in another package (a method of
// a handler type there, a closure its factory returns) is known by its
// fact; the finding is at the registration, in this package, and the
// related information points at the handler.
func (c *checker) checkElsewhere(p probe) {
	r, handler := p.elsewhere, p.handler
	if r == nil {
		r, handler = c.reachOf(p.fn), funcName(p.fn)
	}
	site := c.starts.Start(c.pass.Files, p.at)
	var u *use
	if r != nil {
		u = &use{reachesShared: *r, site: site}
		if p.fn != nil {
			u.decl = p.fn.Pos()
		}
	} else if p.fn != nil && p.elsewhere == nil {
		u = c.throughUse(p, handler, site, c.throughOf(ssautil.Origin(p.fn).Object().(*types.Func)))
		if u != nil {
			u.probeCall = p.fn.Pos() // the handler, whose call leads to the implementation
		}
	}
	if u == nil {
		return
	}
	if !u.probeCall.IsValid() && r != nil {
		u.probeCall = c.posOf(r.SiteFile, r.SiteLine) // the handler's line that leads on, in its own package
	}
	if c.bindResource(p, u, handler) {
		c.report(p, u, handler)
	}
}

// checkLibrary: a library's own check (DatabasePingCheck(db, …)) uses the
// pool it was given, or a client of its own over a shared transport.
func (c *checker) checkLibrary(p probe) {
	call := callName(p.lib.Common())
	row := catalog.ProbeCheckMakers[catalog.Key(calledMethod(p.lib.Common()))]
	u := &use{reachesShared: reachesShared{Noun: row.Noun, Resource: row.Resource, Call: call, Param: -1}, site: c.starts.Start(c.pass.Files, p.lib.Pos())}
	if row.Resource == "" {
		u.Noun = catalog.ResourceNoun(p.libArg.Type())
		if u.Noun == "" {
			return // not a pool bhlint knows
		}
		name, param, own := c.resourceOf(p.fn, p.libArg, u.Noun)
		if own {
			return
		}
		u.Resource = name
		if param >= 0 {
			u.Resource = "the " + u.Noun + " passed to " + funcName(p.fn)
		}
	}
	c.report(p, u, call)
}

// consequence is what a slow dependency does to the fleet through a probe
// of that kind.
func consequence(kind catalog.ProbeKind) string {
	if kind == catalog.Liveness {
		return "every pod fails its liveness probe at once and is restarted"
	}
	return "every instance fails the probe at once and leaves the load balancer"
}

func (c *checker) report(p probe, u *use, head string) {
	chain := strings.Join(append(append([]string{head}, u.Path...), u.Call), " → ")
	if head == u.Call {
		chain = u.Call
	}
	msg := fmt.Sprintf("%s: %s probe %s (%s) reaches %s that request traffic also uses (%s): "+
		"when it is slow or out of connections, %s; keep the probe shallow (the process is up, its loop "+
		"responds) and let a background check cache the dependency's status, or give the probe a connection of its own",
		Code, p.kind, head, p.route, resourcePhrase(u), chain, consequence(p.kind))
	if c.reported[[2]token.Pos{u.site, u.probeCall}] {
		return // the same probe registered for two routes
	}
	c.reported[[2]token.Pos{u.site, u.probeCall}] = true
	d := analysis.Diagnostic{Pos: u.site, Message: msg}
	if p.at.IsValid() {
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: p.at, Message: "the probe is registered here"})
	}
	end := c.endOf(u)
	// When the probe's own call is the use (db.PingContext in the handler),
	// one line of related information says both.
	if u.probeCall.IsValid() && !ssautil.SameLine(c.pass.Fset, u.probeCall, end) {
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: u.probeCall, Message: "the probe's code that leads to it"})
	}
	if at := end; at.IsValid() {
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: at, Message: resourcePhrase(u) + " is used here: " + u.Call})
	}
	for _, o := range u.others {
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: o.at, Message: "the probe reaches a pool through " + o.name + " too: here"})
	}
	c.pass.Report(d)
}

// resourcePhrase: "the database pool Store.db", or a name that says its
// noun already ("the Redis client passed to api.New").
func resourcePhrase(u *use) string {
	if strings.HasPrefix(u.Resource, "the ") || strings.HasPrefix(u.Resource, "a ") {
		return u.Resource
	}
	return "the " + u.Noun + " " + u.Resource
}

// endOf is where the chain ends: the resource's use, in this package or,
// by the facts, in another; else where the first function of the chain is
// declared.
func (c *checker) endOf(u *use) token.Pos {
	if u.at.IsValid() {
		return u.at
	}
	if at := c.posOf(u.UseFile, u.UseLine); at.IsValid() {
		return at // the use itself, recorded by the package that has it
	}
	return u.decl
}

// optIn: the probe's call at site runs only on one branch of a condition
// that reads the request's own input (ProbeOptInReads): a deep check a
// caller asks for, not what the load balancer polls.
func (c *checker) optIn(fn *ssa.Function, site token.Pos) bool {
	block := c.blockAt(fn, site)
	if block == nil {
		return false
	}
	for _, b := range fn.Blocks {
		ifInstr, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok || b == block || !readsRequest(ifInstr.Cond, 6) {
			continue
		}
		// Only one branch leads to the call (the other does not reach it
		// without coming back to the condition).
		if reaches(b.Succs[0], block, b) != reaches(b.Succs[1], block, b) {
			return true
		}
	}
	return false
}

// blockAt is the block of fn's call that starts at site.
func (c *checker) blockAt(fn *ssa.Function, site token.Pos) *ssa.BasicBlock {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if call, ok := instr.(ssa.CallInstruction); ok && c.starts.Start(c.pass.Files, call.Common().Pos()) == site {
				return b
			}
		}
	}
	return nil
}

// readsRequest: v is computed from a call that reads the request's input.
func readsRequest(v ssa.Value, depth int) bool {
	if depth == 0 || v == nil {
		return false
	}
	switch x := v.(type) {
	case *ssa.Call:
		if m := calledMethod(x.Common()); m != nil && catalog.ProbeOptInReads.Has(m) {
			return true
		}
		for _, arg := range x.Common().Args {
			if readsRequest(arg, depth-1) {
				return true
			}
		}
	case *ssa.BinOp:
		return readsRequest(x.X, depth-1) || readsRequest(x.Y, depth-1)
	case *ssa.UnOp:
		return readsRequest(x.X, depth-1)
	case *ssa.Extract:
		return readsRequest(x.Tuple, depth-1)
	case *ssa.Phi:
		for _, e := range x.Edges {
			if readsRequest(e, depth-1) {
				return true
			}
		}
	}
	return false
}

// reaches: to is reachable from from without passing through via.
func reaches(from, to, via *ssa.BasicBlock) bool {
	seen := map[*ssa.BasicBlock]bool{via: true}
	work := []*ssa.BasicBlock{from}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if b == to {
			return true
		}
		if seen[b] {
			continue
		}
		seen[b] = true
		work = append(work, b.Succs...)
	}
	return false
}
