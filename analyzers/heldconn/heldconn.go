package heldconn

import (
	_ "embed"
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/docs"
	"github.com/bhlint/bhlint/internal/guard"
	"github.com/bhlint/bhlint/internal/lazyssa"
	"github.com/bhlint/bhlint/internal/netio"
	"github.com/bhlint/bhlint/internal/pkgscope"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// Code starts every message of this analyzer.
const Code = "ERR_CONN_HELD_ACROSS_NETWORK_CALL"

//go:embed doc.go
var doc string

// Analyzer reports pooled connections held across network calls.
var Analyzer = lazyssa.Budgeted(guard.Wrap(&analysis.Analyzer{
	Name:      "heldconn",
	Doc:       docs.Extract(doc, "heldconn"),
	URL:       "https://github.com/bhlint/bhlint/tree/main/analyzers/heldconn",
	Requires:  []*analysis.Analyzer{lazyssa.Analyzer, netio.Analyzer},
	FactTypes: []analysis.Fact{new(holdsDuringCallback), new(releasesParam)},
	Run:       run,
}, Code))

// holdsDuringCallback marks a function that calls the func passed as one of
// its parameters while it holds a connection, as pgx.BeginFunc does.
type holdsDuringCallback struct {
	Params []int // parameter indexes, the receiver counting as 0
	Noun   string
}

func (*holdsDuringCallback) AFact() {}
func (f *holdsDuringCallback) String() string {
	return fmt.Sprintf("holdsDuringCallback(%v)", f.Params)
}

// releasesParam marks a function that releases the connection passed as one
// of its parameters (commits it, closes it…).
type releasesParam struct{ Params []int }

func (*releasesParam) AFact()           {}
func (f *releasesParam) String() string { return fmt.Sprintf("releasesParam(%v)", f.Params) }

func run(pass *analysis.Pass) (any, error) {
	if !pkgscope.Reaches(pass.Pkg, catalog.DBPackages) {
		return nil, nil
	}
	c := &checker{
		pass:      pass,
		net:       pass.ResultOf[netio.Analyzer].(*netio.Result),
		reported:  map[[2]token.Pos]bool{},
		holders:   map[*ssa.Function]*holdsDuringCallback{},
		releasers: map[*ssa.Function][]int{},
	}
	funcs := pass.ResultOf[lazyssa.Analyzer].(*lazyssa.Builder).SrcFuncs()
	c.learnReleasers(funcs)
	var spans []heldSpan
	for _, fn := range funcs {
		guard.At(fn.Pos(), func() { spans = append(spans, c.spansIn(fn)...) })
	}
	c.learnHolders(funcs, spans)
	for _, span := range spans {
		c.reportSpan(span)
	}
	for _, fn := range funcs {
		guard.At(fn.Pos(), func() { c.checkCallbacks(fn) })
	}
	return nil, nil
}

type checker struct {
	pass      *analysis.Pass
	net       *netio.Result
	reported  map[[2]token.Pos]bool
	holders   map[*ssa.Function]*holdsDuringCallback // this package's, by origin
	releasers map[*ssa.Function][]int
	starts    ssautil.CallStarts // call Lparen → start of the call expression
	// extraPools are pool acquires the project's .bhlint.yml adds.
	extraPools *catalog.Table
}

// acquisition is a call that returns a held connection.
type acquisition struct {
	call    *ssa.Call
	kind    catalog.HeldKind
	held    map[ssa.Value]bool // the value and what aliases it
	errVal  ssa.Value          // the call's error result, if any
	pool    poolID             // the pool it came from, if known
	fn      *ssa.Function
	display string
}

// heldSpan is what one acquisition reaches before it is released.
type heldSpan struct {
	acq          *acquisition
	network      []networkCall
	callbackArgs []int // func parameters of acq.fn called while held
}

type networkCall struct {
	call *ssa.Call
	path []string
}

// ---- the kinds of held values ----

func heldKindOf(t types.Type) (catalog.HeldKind, bool) {
	if k, ok := exactKind(t); ok {
		return k, true
	}
	// A wrapper: a (pointer to a) struct with a field of a held type.
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return catalog.HeldKind{}, false
	}
	for f := range st.Fields() {
		if k, ok := exactKind(f.Type()); ok {
			return k, true
		}
	}
	return catalog.HeldKind{}, false
}

func exactKind(t types.Type) (catalog.HeldKind, bool) {
	s := catalog.TypeKey(t)
	for _, k := range catalog.HeldKinds {
		if k.Type == s {
			return k, true
		}
	}
	return catalog.HeldKind{}, false
}

func isHeldType(t types.Type) bool {
	_, ok := heldKindOf(t)
	return ok
}

// ---- aliases ----

// aliasesOf returns v and the values that carry the same connection: phis,
// conversions, interface boxing, and loads of the fields of a wrapper.
func aliasesOf(v ssa.Value) map[ssa.Value]bool {
	set := map[ssa.Value]bool{}
	var add func(v ssa.Value)
	add = func(v ssa.Value) {
		if set[v] {
			return
		}
		set[v] = true
		refs := v.Referrers()
		if refs == nil {
			return
		}
		for _, r := range *refs {
			switch r := r.(type) {
			case *ssa.Phi, *ssa.ChangeType, *ssa.MakeInterface, *ssa.ChangeInterface:
				add(r.(ssa.Value))
			case *ssa.TypeAssert:
				if !r.CommaOk {
					add(r)
				}
			case *ssa.Field:
				if isHeldType(r.Type()) {
					add(r)
				}
			case *ssa.FieldAddr:
				if isHeldType(r.Type().(*types.Pointer).Elem()) {
					addLoads(r, add)
				}
			}
		}
	}
	add(v)
	return set
}

func addLoads(addr ssa.Value, add func(ssa.Value)) {
	refs := addr.Referrers()
	if refs == nil {
		return
	}
	for _, r := range *refs {
		if load, ok := r.(*ssa.UnOp); ok && load.Op == token.MUL {
			add(load)
		}
	}
}

// ---- releases ----

// releases reports whether instr releases a value of the set.
func (c *checker) releases(instr ssa.Instruction, held map[ssa.Value]bool, kind catalog.HeldKind) bool {
	call, ok := instr.(*ssa.Call)
	if !ok {
		return false
	}
	common := call.Common()
	if common.IsInvoke() {
		return held[common.Value] && slices.Contains(kind.Release, common.Method.Name())
	}
	callee := common.StaticCallee()
	if callee == nil {
		return false
	}
	if obj := calleeObject(callee); obj != nil {
		if obj.Signature().Recv() != nil && len(common.Args) > 0 && held[common.Args[0]] && slices.Contains(kind.Release, obj.Name()) {
			return true
		}
		if i, ok := catalog.ReleasingFuncs[catalog.Key(obj)]; ok && i < len(common.Args) && held[common.Args[i]] {
			return true
		}
	}
	for _, i := range c.releasedParams(callee) {
		if i < len(common.Args) && held[common.Args[i]] {
			return true
		}
	}
	return false
}

func (c *checker) releasedParams(callee *ssa.Function) []int {
	callee = origin(callee)
	if params, ok := c.releasers[callee]; ok {
		return params
	}
	obj := calleeObject(callee)
	if obj == nil || obj.Pkg() == c.pass.Pkg {
		return nil
	}
	var fact releasesParam
	if c.pass.ImportObjectFact(obj, &fact) {
		return fact.Params
	}
	return nil
}

// learnReleasers finds the functions that release a connection passed to
// them, to a fixed point (a helper that calls a helper that commits).
func (c *checker) learnReleasers(funcs []*ssa.Function) {
	for changed := true; changed; {
		changed = false
		for _, fn := range funcs {
			if _, done := c.releasers[fn]; done {
				continue
			}
			var params []int
			for i, p := range fn.Params {
				kind, ok := heldKindOf(p.Type())
				if ok && c.releasedSomewhere(fn, aliasesOf(p), kind) {
					params = append(params, i)
				}
			}
			if params != nil {
				c.releasers[fn] = params
				changed = true
				if obj := calleeObject(fn); obj != nil && fn.Parent() == nil {
					c.pass.ExportObjectFact(obj, &releasesParam{Params: params})
				}
			}
		}
	}
}

func (c *checker) releasedSomewhere(fn *ssa.Function, held map[ssa.Value]bool, kind catalog.HeldKind) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if c.releases(instr, held, kind) {
				return true
			}
		}
	}
	return false
}

// ---- acquisitions and their spans ----

func (c *checker) acquisitionOf(fn *ssa.Function, call *ssa.Call) *acquisition {
	results := call.Common().Signature().Results()
	if results.Len() == 0 {
		return nil
	}
	kind, ok := heldKindOf(results.At(0).Type())
	if !ok {
		return nil
	}
	// A value derived from one already held (tx.Query, tx.Begin for a
	// savepoint) is covered by the span of the one it came from.
	for _, arg := range callArgs(call.Common()) {
		if isHeldType(arg.Type()) {
			return nil
		}
	}
	acq := &acquisition{call: call, kind: kind, fn: fn, display: callName(call.Common())}
	if results.Len() == 1 {
		acq.held = aliasesOf(call)
	} else {
		for _, r := range ssautil.Referrers(call) {
			if ex, ok := r.(*ssa.Extract); ok {
				switch {
				case ex.Index == 0:
					acq.held = aliasesOf(ex)
				case ex.Index == results.Len()-1 && ssautil.IsError(ex.Type()):
					acq.errVal = ex
				}
			}
		}
	}
	if acq.held == nil {
		return nil // result discarded
	}
	if recv := ssautil.Receiver(call.Common()); recv != nil {
		acq.pool = poolOf(recv)
	}
	return acq
}

func (c *checker) spansIn(fn *ssa.Function) []heldSpan {
	var spans []heldSpan
	for _, b := range fn.Blocks {
		for i, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			if acq := c.acquisitionOf(fn, call); acq != nil {
				if !lazyssa.Fits(c.pass, Code, fn) {
					return nil // reported as skipped: too large to follow every path
				}
				spans = append(spans, c.follow(acq, b, i+1))
			}
		}
	}
	return spans
}

// follow walks every control-flow path from the acquisition until a release
// and collects the network calls and callback calls met on the way.
func (c *checker) follow(acq *acquisition, start *ssa.BasicBlock, index int) heldSpan {
	span := heldSpan{acq: acq}
	type point struct {
		b *ssa.BasicBlock
		i int
	}
	visited := map[*ssa.BasicBlock]bool{}
	work := []point{{start, index}}
	for len(work) > 0 {
		p := work[len(work)-1]
		work = work[:len(work)-1]
		released := false
		for _, instr := range p.b.Instrs[p.i:] {
			if instr == acq.call || c.releases(instr, acq.held, acq.kind) {
				released = true
				break
			}
			if call, ok := instr.(*ssa.Call); ok {
				c.classify(acq, call, &span)
			}
		}
		if released {
			continue
		}
		for _, succ := range c.successors(acq, p.b) {
			if !visited[succ] {
				visited[succ] = true
				work = append(work, point{succ, 0})
			}
		}
	}
	return span
}

func (c *checker) classify(acq *acquisition, call *ssa.Call, span *heldSpan) {
	common := call.Common()
	if param, ok := common.Value.(*ssa.Parameter); ok && !common.IsInvoke() {
		if i := slices.Index(acq.fn.Params, param); i >= 0 {
			span.callbackArgs = append(span.callbackArgs, i)
		}
		return
	}
	if recv := ssautil.Receiver(common); recv != nil && acq.held[recv] {
		return // tx.Exec, rows.Scan: work on the held connection itself
	}
	if path := c.net.CallReaches(common); path != nil {
		span.network = append(span.network, networkCall{call, path})
		return
	}
	if c.otherPoolAcquire(acq, common) {
		span.network = append(span.network, networkCall{call, []string{callName(common) + " on another pool"}})
	}
}

func (c *checker) otherPoolAcquire(acq *acquisition, common *ssa.CallCommon) bool {
	callee := common.StaticCallee()
	if callee == nil || acq.pool == (poolID{}) {
		return false
	}
	if obj := calleeObject(callee); !catalog.PoolAcquires.Has(obj) && !c.extraPools.Has(obj) {
		return false
	}
	other := poolOf(ssautil.Receiver(common))
	return other != (poolID{}) && other != acq.pool
}

// successors are the blocks the held value reaches after b. On the branch
// where the acquiring call failed nothing is held, and after the last
// rows.Next() the rows are closed.
func (c *checker) successors(acq *acquisition, b *ssa.BasicBlock) []*ssa.BasicBlock {
	ifInstr, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		return b.Succs
	}
	switch cond := ifInstr.Cond.(type) {
	case *ssa.BinOp:
		if acq.errVal != nil && comparesWithNil(cond, acq.errVal) {
			if cond.Op == token.NEQ {
				return b.Succs[1:] // err != nil: the failure branch holds nothing
			}
			return b.Succs[:1]
		}
	case *ssa.Call:
		if acq.kind.NextReleases && isNextOn(cond.Common(), acq.held) {
			return b.Succs[:1]
		}
	}
	return b.Succs
}

func comparesWithNil(cond *ssa.BinOp, v ssa.Value) bool {
	if cond.Op != token.NEQ && cond.Op != token.EQL {
		return false
	}
	return (cond.X == v && ssautil.IsNil(cond.Y)) || (cond.Y == v && ssautil.IsNil(cond.X))
}

func isNextOn(common *ssa.CallCommon, held map[ssa.Value]bool) bool {
	if common.IsInvoke() {
		return common.Method.Name() == "Next" && held[common.Value]
	}
	callee := common.StaticCallee()
	return callee != nil && callee.Name() == "Next" && len(common.Args) == 1 && held[common.Args[0]]
}

// ---- callbacks run while holding ----

// learnHolders exports holdsDuringCallback for functions that call a func
// parameter while holding, or pass one on to such a function.
func (c *checker) learnHolders(funcs []*ssa.Function, spans []heldSpan) {
	for _, span := range spans {
		if len(span.callbackArgs) > 0 {
			c.addHolder(span.acq.fn, span.callbackArgs, span.acq.kind.Noun)
		}
	}
	for changed := true; changed; {
		changed = false
		for _, fn := range funcs {
			for _, site := range c.callbackSites(fn) {
				param, ok := site.arg.(*ssa.Parameter)
				if !ok {
					continue
				}
				if i := slices.Index(fn.Params, param); i >= 0 && c.addHolder(fn, []int{i}, site.noun) {
					changed = true
				}
			}
		}
	}
	for fn, fact := range c.holders {
		if obj := calleeObject(fn); obj != nil && fn.Parent() == nil {
			c.pass.ExportObjectFact(obj, fact)
		}
	}
}

func (c *checker) addHolder(fn *ssa.Function, params []int, noun string) bool {
	fact := c.holders[fn]
	if fact == nil {
		fact = &holdsDuringCallback{Noun: noun}
		c.holders[fn] = fact
	}
	added := false
	for _, p := range params {
		if !slices.Contains(fact.Params, p) {
			fact.Params = append(fact.Params, p)
			slices.Sort(fact.Params)
			added = true
		}
	}
	return added
}

// callbackSite is a call to a function that runs one of its arguments while
// holding a connection.
type callbackSite struct {
	call   *ssa.Call
	arg    ssa.Value
	holder string
	noun   string
}

func (c *checker) callbackSites(fn *ssa.Function) []callbackSite {
	var sites []callbackSite
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			params, noun := c.heldCallbackParams(call.Common())
			for _, i := range params {
				if i < len(call.Common().Args) {
					sites = append(sites, callbackSite{call, call.Common().Args[i], callName(call.Common()), noun})
				}
			}
		}
	}
	return sites
}

func (c *checker) heldCallbackParams(common *ssa.CallCommon) ([]int, string) {
	callee := common.StaticCallee()
	if callee == nil {
		return nil, ""
	}
	callee = origin(callee)
	obj := calleeObject(callee)
	if obj != nil {
		if i, ok := catalog.TxCallbacks[catalog.Key(obj)]; ok {
			return []int{i}, "transaction"
		}
	}
	if fact, ok := c.holders[callee]; ok {
		return fact.Params, fact.Noun
	}
	if obj == nil || obj.Pkg() == c.pass.Pkg {
		return nil, ""
	}
	var fact holdsDuringCallback
	if c.pass.ImportObjectFact(obj, &fact) {
		return fact.Params, fact.Noun
	}
	return nil, ""
}

func (c *checker) checkCallbacks(fn *ssa.Function) {
	for _, site := range c.callbackSites(fn) {
		cb := ssautil.FuncOf(site.arg)
		if cb == nil {
			continue
		}
		if len(cb.Blocks) == 0 { // declared elsewhere: report at the holder call
			if path := c.net.FuncReaches(cb); path != nil {
				c.reportCallback(site, site.call, path)
			}
			continue
		}
		for _, b := range cb.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(*ssa.Call)
				if !ok {
					continue
				}
				if path := c.net.CallReaches(call.Common()); path != nil {
					c.reportCallback(site, call, path)
				}
			}
		}
	}
}

// ---- reporting ----

func (c *checker) reportSpan(span heldSpan) {
	acq := span.acq
	for _, nc := range span.network {
		c.report(nc.call, acq.call.Pos(), fmt.Sprintf(
			"%s: %s from %s is still held during %s, which waits on the network; %s",
			Code, acq.kind.Noun, acq.display, describe(nc.path), fixFor(acq)),
			acq.kind.Noun+" acquired here")
	}
}

func (c *checker) reportCallback(site callbackSite, call *ssa.Call, path []string) {
	c.report(call, site.call.Pos(), fmt.Sprintf(
		"%s: %s calls %s while the %s it runs in is held; %s",
		Code, callbackName(site), describe(path), site.noun,
		"make the call before the transaction starts or after it ends, and pass the result in"),
		site.noun+" held by "+site.holder+" here")
}

func callbackName(site callbackSite) string {
	if cb := ssautil.FuncOf(site.arg); cb != nil && cb.Parent() != nil {
		return "the function passed to " + site.holder
	}
	return "the callback of " + site.holder
}

func (c *checker) report(call *ssa.Call, relatedPos token.Pos, msg, relatedMsg string) {
	pos := c.callStart(call.Pos())
	key := [2]token.Pos{relatedPos, pos}
	if !pos.IsValid() || c.reported[key] {
		return
	}
	c.reported[key] = true
	d := analysis.Diagnostic{Pos: pos, Message: msg}
	if relatedPos.IsValid() {
		d.Related = []analysis.RelatedInformation{{Pos: c.callStart(relatedPos), Message: relatedMsg}}
	}
	c.pass.Report(d)
}

// callStart maps the Lparen position SSA records for a call to the start of
// the call expression, where a user expects the finding.
func (c *checker) callStart(lparen token.Pos) token.Pos {
	return c.starts.Start(c.pass.Files, lparen)
}

func describe(path []string) string {
	if len(path) == 1 {
		return path[0]
	}
	return path[0] + " (→ " + strings.Join(path[1:], " → ") + ")"
}

func fixFor(acq *acquisition) string {
	switch acq.kind.Noun {
	case "open rows":
		return "read the rows and close them (or pgx.CollectRows) before the call"
	case "connection":
		return "release the connection before the call, or make the call before acquiring it"
	}
	return "commit or roll back before the call, or move the call before " + acq.display
}

// ---- small SSA helpers ----

func origin(fn *ssa.Function) *ssa.Function { return ssautil.Origin(fn) }

func calleeObject(fn *ssa.Function) *types.Func {
	obj, _ := origin(fn).Object().(*types.Func)
	return obj
}

func callName(common *ssa.CallCommon) string {
	if common.IsInvoke() {
		return netio.Name(common.Method)
	}
	if callee := common.StaticCallee(); callee != nil {
		if obj := calleeObject(callee); obj != nil {
			return netio.Name(obj)
		}
		return callee.Name()
	}
	return "a call"
}

func callArgs(common *ssa.CallCommon) []ssa.Value {
	if common.IsInvoke() {
		return append([]ssa.Value{common.Value}, common.Args...)
	}
	return common.Args
}

// poolID names a pool by where it lives: a package-level variable or a
// struct field. The zero value means unknown.
type poolID struct {
	global *ssa.Global
	field  string
}

func poolOf(v ssa.Value) poolID {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return poolID{}
	}
	switch addr := load.X.(type) {
	case *ssa.Global:
		return poolID{global: addr}
	case *ssa.FieldAddr:
		st := addr.X.Type().Underlying().(*types.Pointer).Elem()
		return poolID{field: types.TypeString(st, nil) + "." + st.Underlying().(*types.Struct).Field(addr.Field).Name()}
	}
	return poolID{}
}
