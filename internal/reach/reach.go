package reach

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/token"
	"go/types"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/entrypoints"
	"github.com/bhlint/bhlint/internal/lazyssa"
	"github.com/bhlint/bhlint/internal/netio"
	"github.com/bhlint/bhlint/internal/pkgscope"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// Analyzer computes, for `bhlint lanes`, the outbound calls each function
// reaches and what is held at them, and each package's entry points. It
// reports nothing and is not one of the suite's analyzers.
var Analyzer = &analysis.Analyzer{
	Name:      "bhlintreach",
	Doc:       "find the outbound dependencies each entry point waits on, and what it holds meanwhile, for bhlint lanes",
	Requires:  []*analysis.Analyzer{lazyssa.Analyzer},
	FactTypes: []analysis.Fact{new(Outbound), new(holdsDuring), new(releasesParam), new(Entries)},
	Run:       run,
}

// maxPath bounds the call paths facts carry; maxCalls the distinct
// outbound calls a function's fact keeps.
const (
	maxPath  = 8
	maxCalls = 64
)

// scope: a package that reaches none of these cannot make an outbound call.
var scope = append([]string{"os/exec"}, catalog.NetworkPackages...)

type checker struct {
	pass      *analysis.Pass
	funcs     []*ssa.Function
	local     map[*ssa.Function]bool
	held      map[*ssa.Function]map[ssa.Instruction][]Hold
	releasers map[*ssa.Function][]int
	holders   map[*ssa.Function]*holdsDuring
	out       map[*ssa.Function]*Outbound
	starts    ssautil.CallStarts

	inferred   []entrypoints.Entry    // the package's inferred entry points
	entryFuncs map[*ssa.Function]bool // func literals among them
}

func run(pass *analysis.Pass) (res any, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error: %s panicked in package %s: %v", pass.Analyzer.Name, pass.Pkg.Path(), r)
		}
	}()
	if strings.HasSuffix(pass.Pkg.Path(), ".test") || isLibrary(pass) || !pkgscope.Reaches(pass.Pkg, scope) {
		return nil, nil
	}
	c := &checker{
		pass:      pass,
		local:     map[*ssa.Function]bool{},
		held:      map[*ssa.Function]map[ssa.Instruction][]Hold{},
		releasers: map[*ssa.Function][]int{},
		holders:   map[*ssa.Function]*holdsDuring{},
		out:       map[*ssa.Function]*Outbound{},
	}
	for _, fn := range pass.ResultOf[lazyssa.Analyzer].(*lazyssa.Builder).SrcFuncs() {
		if !isTestFile(pass, fn.Pos()) && lazyssa.Size(fn) <= lazyssa.DefaultBudget {
			c.funcs = append(c.funcs, fn)
			c.local[fn] = true
		}
	}
	c.learnReleasers()
	for _, fn := range c.funcs {
		c.held[fn] = c.spans(fn)
	}
	c.learnHolders()
	c.inferred = entrypoints.Find(pass.Pkg, c.funcs)
	c.entryFuncs = map[*ssa.Function]bool{}
	for _, e := range c.inferred {
		// A func literal registered as a handler runs per request, not
		// where it is registered. (A loop started here stays: the starter
		// sees it in a goroutine, as calls it does not wait on.)
		if e.Func != nil && e.Func.Parent() != nil && e.Class == entrypoints.Interactive {
			c.entryFuncs[e.Func] = true
		}
	}
	c.computeReach()
	c.exportEntries()
	return nil, nil
}

// isLibrary: the standard library, the catalogue's client and pool
// libraries and the bulkhead runtime are where calls end, not callers.
func isLibrary(pass *analysis.Pass) bool {
	if catalog.InPackages(pass.Pkg.Path(), append(catalog.LanePackages, catalog.RuntimePath)) {
		return true
	}
	if len(pass.Files) == 0 {
		return false
	}
	goroot := filepath.Join(build.Default.GOROOT, "src") + string(filepath.Separator)
	return strings.HasPrefix(pass.Fset.Position(pass.Files[0].Pos()).Filename, goroot)
}

func isTestFile(pass *analysis.Pass, pos token.Pos) bool {
	return strings.HasSuffix(pass.Fset.Position(pos).Filename, "_test.go")
}

// ---- reach, to a fixed point ----

func (c *checker) computeReach() {
	for round := 0; round < 50; round++ {
		changed := false
		for _, fn := range c.funcs {
			r := c.reachOfBody(fn)
			if old := c.out[fn]; old == nil || len(old.Calls) != len(r.Calls) || len(old.Needs) != len(r.Needs) {
				c.out[fn] = r
				changed = true
			}
		}
		if !changed {
			break
		}
	}
	for fn, r := range c.out {
		obj, ok := fn.Object().(*types.Func)
		if ok && fn.Parent() == nil && (len(r.Calls) > 0 || len(r.Needs) > 0) {
			c.pass.ExportObjectFact(obj, r)
		}
	}
}

// reachOf is what a function reaches: its own (this package) or its fact's.
func (c *checker) reachOf(fn *ssa.Function) *Outbound {
	fn = ssautil.Origin(fn)
	if c.local[fn] {
		if r := c.out[fn]; r != nil {
			return r
		}
		return &Outbound{}
	}
	obj, ok := fn.Object().(*types.Func)
	if !ok || obj.Pkg() == nil || obj.Pkg() == c.pass.Pkg {
		return &Outbound{}
	}
	var fact Outbound
	if c.pass.ImportObjectFact(obj, &fact) {
		return &fact
	}
	return &Outbound{}
}

// builder collects a function's outbound calls and needs.
type builder struct {
	calls map[string]Call
	order *[]string
	needs map[string]Need
	// asyncCalls: calls added through this builder are made in a
	// goroutine.
	asyncCalls bool
}

func newBuilder() *builder {
	return &builder{calls: map[string]Call{}, order: new([]string), needs: map[string]Need{}}
}

// async is the builder for the calls of a goroutine started here.
func (b *builder) async() *builder {
	a := *b
	a.asyncCalls = true
	return &a
}

func (b *builder) call(call Call) {
	if len(*b.order) >= maxCalls {
		return
	}
	if b.asyncCalls {
		call.Async = true
	}
	k := call.key()
	if _, ok := b.calls[k]; !ok {
		b.calls[k] = call
		*b.order = append(*b.order, k)
	}
}

func (b *builder) need(n Need) {
	if n.Key != "" {
		b.needs[n.Key] = n
	}
}

func (b *builder) result() *Outbound {
	out := &Outbound{}
	for _, k := range *b.order {
		out.Calls = append(out.Calls, b.calls[k])
	}
	keys := make([]string, 0, len(b.needs))
	for k := range b.needs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		out.Needs = append(out.Needs, b.needs[k])
	}
	return out
}

func (c *checker) reachOfBody(fn *ssa.Function) *Outbound {
	b := newBuilder()
	for _, blk := range fn.Blocks {
		for _, instr := range blk.Instrs {
			frame := c.held[fn][instr]
			switch instr := instr.(type) {
			case *ssa.UnOp:
				if instr.Op == token.MUL && isPool(instr.Type()) {
					c.needOrigin(b, c.addrOrigin(fn, instr.X, 4))
				}
			case *ssa.Field:
				if isPool(instr.Type()) {
					c.needOrigin(b, c.originOf(fn, instr, 4))
				}
			case *ssa.MakeClosure:
				c.closure(fn, instr, b)
			case ssa.CallInstruction:
				c.callSite(fn, instr, frame, b)
			}
		}
	}
	return b.result()
}

func isPool(t types.Type) bool {
	switch catalog.ResourceNoun(t) {
	case "database pool", "pool":
		return true
	}
	return false
}

func (c *checker) needOrigin(b *builder, o origin) {
	if o.known() {
		b.need(Need{Key: o.key, Name: o.name})
	}
}

func (c *checker) callSite(fn *ssa.Function, instr ssa.CallInstruction, frame []Hold, b *builder) {
	common := instr.Common()
	_, async := instr.(*ssa.Go)
	if async {
		frame = nil // a goroutine's calls do not make this frame wait
		b = b.async()
	}
	if dep, client, ok := c.outboundCall(fn, common); ok {
		call := Call{Dep: dep, Param: -1, Held: clone(frame)}
		if client != nil {
			call = c.nameClient(fn, call, client, "")
		}
		b.call(call)
	}
	cbIndex, cbHold, isCallback := c.callbackHold(fn, common)
	if isCallback && cbHold.Noun == "executor slot" {
		b.need(Need{Key: cbHold.Key, Name: cbHold.Name})
	}
	if callee := common.StaticCallee(); callee != nil {
		r := c.reachOf(callee)
		hop := netio.DisplayName(callee)
		for _, cc := range r.Calls {
			b.call(c.through(fn, cc, common.Args, frame, hop))
		}
		for _, n := range r.Needs {
			b.need(n)
		}
	}
	// Named functions passed as arguments run here (closures are handled
	// where they are made); one handed to a lane executor is an entry
	// point of that lane instead.
	for i, arg := range common.Args {
		f, ok := arg.(*ssa.Function)
		if !ok || c.entryFuncs[f] {
			continue
		}
		extra := frame
		if isCallback && i == cbIndex {
			if cbHold.Noun == "executor slot" && executorLane(common) != "" {
				continue // an entry point of the executor's lane
			}
			extra = append(clone(frame), cbHold)
		}
		r := c.reachOf(f)
		for _, cc := range r.Calls {
			b.call(c.through(fn, cc, nil, extra, netio.DisplayName(f)))
		}
		for _, n := range r.Needs {
			b.need(n)
		}
	}
}

// closure adds what a function literal reaches to the function that makes
// it, with what is held where it runs: nothing in a goroutine, the
// callback's hold when it is handed to a transaction helper.
func (c *checker) closure(fn *ssa.Function, mc *ssa.MakeClosure, b *builder) {
	anon, ok := mc.Fn.(*ssa.Function)
	if !ok {
		return
	}
	frame, async, skip := c.closureFrame(fn, mc)
	if skip || c.entryFuncs[anon] {
		return // work of its own lane, or a handler registered here: not called here
	}
	if async {
		b = b.async()
	}
	r := c.reachOf(anon)
	for _, cc := range r.Calls {
		b.call(c.freeVars(fn, mc, cc, frame))
	}
	for _, n := range r.Needs {
		b.need(n)
	}
}

// closureFrame is what is held where a function literal runs, whether it
// runs in a goroutine, and whether it is an entry point of its own (work
// handed to a lane executor).
func (c *checker) closureFrame(fn *ssa.Function, mc *ssa.MakeClosure) (frame []Hold, async, skip bool) {
	for _, ref := range ssautil.Referrers(mc) {
		call, ok := ref.(ssa.CallInstruction)
		if !ok {
			continue
		}
		common := call.Common()
		if _, isGo := call.(*ssa.Go); isGo && common.Value == mc {
			return nil, true, false
		}
		if common.Value == mc {
			return c.held[fn][call], false, false
		}
		if i, hold, ok := c.callbackHold(fn, common); ok && i < len(common.Args) && common.Args[i] == mc {
			if hold.Noun == "executor slot" && executorLane(common) != "" {
				return nil, false, true // an entry point of the executor's lane
			}
			return append(clone(c.held[fn][call]), hold), false, false
		}
	}
	return c.held[fn][mc], false, false
}

// freeVars names, where the closure is made, the clients and pools the
// closure knew only as captured variables.
func (c *checker) freeVars(fn *ssa.Function, mc *ssa.MakeClosure, cc Call, frame []Hold) Call {
	out := cc
	out.Held = clone(frame)
	for _, h := range cc.Held {
		if h.Param >= freeVarBase && h.Param-freeVarBase < len(mc.Bindings) {
			h = c.resolveHold(fn, Hold{Key: h.Key, Name: h.Name, Noun: h.Noun, By: h.By, Param: 0}, []ssa.Value{mc.Bindings[h.Param-freeVarBase]}, netio.DisplayName(fn))
		} else if h.Param >= 0 {
			h.Param, h.Key, h.Name = -1, "unknown:"+h.By, "a pool passed to a function literal"
		}
		out.Held = append(out.Held, h)
	}
	if cc.Param >= freeVarBase && cc.Param-freeVarBase < len(mc.Bindings) {
		return c.nameClient(fn, out, mc.Bindings[cc.Param-freeVarBase], netio.DisplayName(fn))
	}
	if cc.Param >= 0 {
		out = unknownClient(out, "a function literal in "+netio.DisplayName(fn))
	}
	return out
}

// through is a callee's outbound call as seen from the caller: one more
// hop, the caller's frame's holds, and the callee's parameters named by
// the caller's arguments (args nil: not known).
func (c *checker) through(fn *ssa.Function, cc Call, args []ssa.Value, frame []Hold, hop string) Call {
	out := Call{Dep: cc.Dep, Param: -1, Path: capPath(append([]string{hop}, cc.Path...)), Held: clone(frame), Async: cc.Async}
	for _, h := range cc.Held {
		if args == nil && h.Param >= 0 {
			h.Param, h.Key, h.Name = -1, "unknown:"+hop, "the pool passed to "+hop
		}
		out.Held = append(out.Held, c.resolveHold(fn, h, args, hop))
	}
	if cc.Param < 0 {
		return out
	}
	if args == nil || cc.Param >= len(args) {
		return unknownClient(out, hop)
	}
	return c.nameClient(fn, out, args[cc.Param], hop)
}

// nameClient names the dependency of a call by the client value: its
// variable or field, or the caller's parameter it came in by.
func (c *checker) nameClient(fn *ssa.Function, call Call, client ssa.Value, callee string) Call {
	o := c.originOf(fn, client, 6)
	if !o.known() && o.param < 0 {
		if t, ok := typedOrigin(client.Type()); ok {
			o = t
		}
	}
	switch {
	case o.known():
		d := c.named(Dep{Noun: call.Dep.Noun, Host: call.Dep.Host, Pos: o.pos, Pkg: o.pkg}, o.key, o.nameAs(call.Dep.Noun))
		call.Dep, call.Param = d, -1
	case o.param >= 0:
		call.Param = o.param
	default:
		where := callee
		if where == "" {
			where = netio.DisplayName(fn)
		}
		call = unknownClient(call, where)
	}
	return call
}

func unknownClient(call Call, where string) Call {
	call.Param = -1
	d := call.Dep
	d.Key, d.Name = "unknown:"+d.Noun+":"+where, "the "+d.Noun+" passed to "+where
	if d.Host != "" {
		d.Key, d.Name = "host:"+d.Host, d.Host
	}
	call.Dep = d
	return call
}

func capPath(path []string) []string {
	if len(path) > maxPath {
		return append(path[:1:1], path[len(path)-maxPath+1:]...)
	}
	return path
}

func clone(h []Hold) []Hold { return append([]Hold(nil), h...) }

// ---- entry points ----

func (c *checker) exportEntries() {
	var entries []Entry
	cfg := c.config()
	declared := c.declaredEntries(cfg)
	for _, fn := range c.funcs {
		lane, ok := declared[fn]
		if !ok {
			continue
		}
		r := c.reachOf(fn)
		entries = append(entries, c.entry(Entry{Name: netio.DisplayName(fn), Lane: lane, How: "declared", Pos: c.posString(fn.Pos())}, r.Calls, r.Needs))
	}
	for _, fn := range c.funcs {
		entries = append(entries, c.runnerEntries(fn)...)
	}
	fromRequests := c.reachedFromRequests()
	for _, e := range c.inferred {
		if e.Func == nil || (cfg != nil && !cfg.InferLanes()) {
			continue
		}
		if _, isDeclared := declared[ssautil.Origin(e.Func)]; isDeclared {
			continue
		}
		if e.Class == entrypoints.Background && e.Parent != nil && fromRequests[e.Parent] {
			continue // a goroutine a request starts is part of the request
		}
		r := c.reachOf(e.Func)
		entries = append(entries, c.entry(Entry{Name: netio.DisplayName(e.Func), Class: string(e.Class), How: e.How, Pos: c.posString(e.Pos)}, r.Calls, r.Needs))
	}
	deps := c.packageDeps()
	if len(entries) == 0 && len(deps) == 0 {
		return
	}
	c.pass.ExportPackageFact(&Entries{Pkg: c.pass.Pkg.Path(), Entries: entries, Deps: deps, Roots: c.roots(entries)})
}

// roots are the package's functions that reach a dependency and that
// nothing in the package calls or refers to, and are no entry point.
func (c *checker) roots(entries []Entry) []Entry {
	used := map[*ssa.Function]bool{}
	for _, fn := range c.funcs {
		for _, blk := range fn.Blocks {
			for _, instr := range blk.Instrs {
				if call, ok := instr.(ssa.CallInstruction); ok {
					if callee := call.Common().StaticCallee(); callee != nil {
						used[ssautil.Origin(callee)] = true
					}
				}
				for _, op := range instr.Operands(nil) {
					if f, ok := (*op).(*ssa.Function); ok {
						used[ssautil.Origin(f)] = true
					}
				}
			}
		}
	}
	isEntry := map[string]bool{}
	for _, e := range entries {
		isEntry[e.Name] = true
	}
	var out []Entry
	for _, fn := range c.funcs {
		r := c.out[fn]
		if fn.Parent() != nil || used[fn] || r == nil || len(r.Calls) == 0 || isEntry[netio.DisplayName(fn)] || fn.Synthetic != "" {
			continue
		}
		out = append(out, c.entry(Entry{Name: netio.DisplayName(fn), Pos: c.posString(fn.Pos())}, r.Calls, nil))
	}
	return out
}

// packageDeps are the dependencies the package's functions call, named.
func (c *checker) packageDeps() []Dep {
	seen := map[string]bool{}
	var out []Dep
	generated := map[string]bool{}
	for _, f := range c.pass.Files {
		if ast.IsGenerated(f) {
			generated[c.pass.Fset.File(f.Pos()).Name()] = true
		}
	}
	for _, fn := range c.funcs {
		r := c.out[fn]
		// Generated code (gRPC clients, gateways) is plumbing: its calls
		// are listed where a caller reaches them, not on their own.
		if r == nil || generated[c.pass.Fset.Position(fn.Pos()).Filename] {
			continue
		}
		for _, cc := range r.Calls {
			if cc.Param < 0 && cc.Dep.Key != "" && !strings.HasPrefix(cc.Dep.Key, "unknown:") && !seen[cc.Dep.Key] {
				seen[cc.Dep.Key] = true
				out = append(out, cc.Dep)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// reachedFromRequests are the package's functions that its interactive
// entry points reach by static calls and the function literals they make.
func (c *checker) reachedFromRequests() map[*ssa.Function]bool {
	seen := map[*ssa.Function]bool{}
	var work []*ssa.Function
	for _, e := range c.inferred {
		if e.Class == entrypoints.Interactive && e.Func != nil && !seen[e.Func] {
			seen[e.Func] = true
			work = append(work, e.Func)
		}
	}
	for len(work) > 0 {
		fn := work[len(work)-1]
		work = work[:len(work)-1]
		for _, blk := range fn.Blocks {
			for _, instr := range blk.Instrs {
				var next *ssa.Function
				switch instr := instr.(type) {
				case *ssa.MakeClosure:
					next, _ = instr.Fn.(*ssa.Function)
				case ssa.CallInstruction:
					next = instr.Common().StaticCallee()
				}
				if next != nil && c.local[ssautil.Origin(next)] && !seen[next] {
					seen[next] = true
					work = append(work, next)
				}
			}
		}
	}
	return seen
}

// runnerEntries are the functions fn hands to a lane executor: entry
// points of its lane, which hold one of its slots while they run.
func (c *checker) runnerEntries(fn *ssa.Function) []Entry {
	var out []Entry
	for _, blk := range fn.Blocks {
		for _, instr := range blk.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			common := call.Common()
			i, hold, ok := c.callbackHold(fn, common)
			if !ok || hold.Noun != "executor slot" {
				continue
			}
			lane := executorLane(common)
			target := ssautil.FuncOf(unwrapFunc(common.Args[i]))
			if lane == "" || target == nil {
				continue
			}
			name := netio.DisplayName(target)
			if target.Parent() != nil {
				name = "the func literal passed to " + callName(common) + " in " + netio.DisplayName(fn)
			}
			r := c.reachOf(target)
			var calls []Call
			for _, cc := range r.Calls {
				if mc, ok := unwrapFunc(common.Args[i]).(*ssa.MakeClosure); ok {
					cc = c.freeVars(fn, mc, cc, nil)
				}
				cc.Held = append([]Hold{hold}, cc.Held...)
				calls = append(calls, cc)
			}
			needs := append([]Need{{Key: hold.Key, Name: hold.Name}}, r.Needs...)
			out = append(out, c.entry(Entry{Name: name, Lane: lane, How: callName(common), Pos: c.posString(c.starts.Start(c.pass.Files, call.Pos()))}, calls, needs))
		}
	}
	return out
}

func unwrapFunc(v ssa.Value) ssa.Value {
	for {
		switch x := v.(type) {
		case *ssa.MakeInterface:
			v = x.X
		case *ssa.ChangeType:
			v = x.X
		case *ssa.Convert:
			v = x.X
		default:
			return v
		}
	}
}

func executorLane(common *ssa.CallCommon) string {
	for _, arg := range common.Args {
		if lane, kind, ok := catalog.LaneTyped(arg.Type()); ok && kind == "executor" {
			return catalog.LaneName(lane.Obj().Name())
		}
	}
	return ""
}

// entry finishes an entry point: a client or pool still known only as a
// parameter of the entry point is named by it.
func (c *checker) entry(e Entry, calls []Call, needs []Need) Entry {
	for _, cc := range calls {
		for j, h := range cc.Held {
			if h.Param >= 0 {
				h.Param, h.Key, h.Name = -1, "unknown:"+e.Name, "the pool passed to "+e.Name
				cc.Held[j] = h
			}
		}
		if cc.Param >= 0 {
			cc = unknownClient(cc, e.Name)
		}
		e.Calls = append(e.Calls, cc)
	}
	e.Needs = needs
	return e
}

func (c *checker) posString(pos token.Pos) string {
	if !pos.IsValid() {
		return ""
	}
	p := c.pass.Fset.Position(pos)
	return fmt.Sprintf("%s:%d:%d", filepath.Base(p.Filename), p.Line, p.Column)
}
