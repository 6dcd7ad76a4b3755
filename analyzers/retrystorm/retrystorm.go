package retrystorm

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"strings"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/docs"
	"github.com/bhlint/bhlint/internal/guard"
	"github.com/bhlint/bhlint/internal/lazyssa"
	"github.com/bhlint/bhlint/internal/netio"
	"github.com/bhlint/bhlint/internal/pkgscope"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// Code starts every message of this analyzer.
const Code = "ERR_UNBOUNDED_RETRY_DETECTED"

//go:embed doc.go
var doc string

// Analyzer reports retry loops with no bound or no backoff.
var Analyzer = lazyssa.Budgeted(guard.Wrap(&analysis.Analyzer{
	Name:      "retrystorm",
	Doc:       docs.Extract(doc, "retrystorm"),
	URL:       "https://github.com/bhlint/bhlint/tree/main/analyzers/retrystorm",
	Requires:  []*analysis.Analyzer{lazyssa.Analyzer, netio.Analyzer},
	FactTypes: []analysis.Fact{new(Sleeps)},
	Run:       run,
}, Code))

// Sleeps marks a function that makes its caller wait: it sleeps, waits on a
// timer, backs off or calls a function that does.
type Sleeps struct {
	Growing        bool  // the wait grows or is jittered by itself (backoff, rand)
	DurationParams []int // the wait is taken from these parameters (receiver = 0)
}

// AFact marks Sleeps as an analysis fact.
func (*Sleeps) AFact() {}

func (f *Sleeps) String() string {
	switch {
	case f.Growing:
		return "sleeps(growing)"
	case len(f.DurationParams) > 0:
		return fmt.Sprintf("sleeps(param %v)", f.DurationParams)
	}
	return "sleeps(constant)"
}

func run(pass *analysis.Pass) (any, error) {
	// Both questions are answered from the syntax, so that a package with
	// neither a possible retry loop nor a possible wait never builds SSA.
	// Loops are only ever reported, so they are not looked at when go vet
	// runs this package only for its facts.
	hasLoop := !lazyssa.FactsOnly() && mayRetry(pass)
	pauses := pkgscope.Reaches(pass.Pkg, catalog.PausePackages) && mayPause(pass)
	if !hasLoop && !pauses {
		return nil, nil
	}
	c := &checker{
		pass:     pass,
		net:      pass.ResultOf[netio.Analyzer].(*netio.Result),
		sleeps:   map[*ssa.Function]*Sleeps{},
		visiting: map[*ssa.Function]bool{},
	}
	funcs := pass.ResultOf[lazyssa.Analyzer].(*lazyssa.Builder).SrcFuncs()
	c.fields = fieldFuncs(funcs)
	if pauses {
		for _, fn := range funcs {
			guard.At(fn.Pos(), func() {
				if f := c.sleepsOf(fn); f != nil && fn.Parent() == nil {
					if obj, ok := fn.Object().(*types.Func); ok {
						pass.ExportObjectFact(obj, f)
					}
				}
			})
		}
	}
	if hasLoop {
		for _, fn := range funcs {
			guard.At(fn.Pos(), func() { c.checkLoops(fn) })
		}
	}
	return nil, nil
}

// mayRetry reports whether a function outside the test files could hold a
// loop that checkLoops reports on: a for or range loop with a comparison of
// an error inside it (every retry goes round or leaves on err != nil, and
// that check is in the loop), a goto in a function that compares an error,
// or a loop in a function big enough that lazyssa.Fits might report it as
// skipped. Anything else has no loop for retryIn to find.
func mayRetry(pass *analysis.Pass) bool {
	budget := lazyssa.Budget(pass.Analyzer)
	for _, f := range pass.Files {
		if strings.HasSuffix(pass.Fset.File(f.Pos()).Name(), "_test.go") {
			continue
		}
		for _, decl := range f.Decls {
			if fd, ok := decl.(*ast.FuncDecl); ok {
				if fd.Body != nil && funcMayRetry(pass.TypesInfo, fd.Body, budget) {
					return true
				}
				continue
			}
			// Function literals in package-level initialisers.
			found := false
			ast.Inspect(decl, func(n ast.Node) bool {
				if lit, ok := n.(*ast.FuncLit); ok {
					found = found || funcMayRetry(pass.TypesInfo, lit.Body, budget)
					return false
				}
				return !found
			})
			if found {
				return true
			}
		}
	}
	return false
}

// funcMayRetry looks at one function body, without the function literals
// in it (each is a function of its own, looked at in turn).
func funcMayRetry(info *types.Info, body *ast.BlockStmt, budget int) bool {
	var hasLoop, hasGoto, errCheck, loopErrCheck bool
	nodes := 0
	var lits []*ast.FuncLit
	var visit func(root ast.Node, inLoop bool)
	visit = func(root ast.Node, inLoop bool) {
		ast.Inspect(root, func(n ast.Node) bool {
			if n == nil {
				return false
			}
			switch n := n.(type) {
			case *ast.FuncLit:
				lits = append(lits, n)
				return false
			case *ast.ForStmt, *ast.RangeStmt:
				if n != root {
					hasLoop = true
					visit(n, true)
					return false
				}
			case *ast.BranchStmt:
				hasGoto = hasGoto || n.Tok == token.GOTO
			case *ast.BinaryExpr:
				if (n.Op == token.EQL || n.Op == token.NEQ) && (isErrorExpr(info, n.X) || isErrorExpr(info, n.Y)) {
					errCheck, loopErrCheck = true, loopErrCheck || inLoop
				}
			case *ast.SwitchStmt: // switch err { case nil: … }
				if n.Tag != nil && isErrorExpr(info, n.Tag) {
					errCheck, loopErrCheck = true, loopErrCheck || inLoop
				}
			}
			nodes++
			return true
		})
	}
	visit(body, false)
	// Fits counts SSA instructions. Over the 195,000 functions of std, its
	// tests and bhlint's dependencies, no function has more than 4 per
	// syntax node (the largest ones have under 1.3), so one under budget/8
	// nodes is under budget with room to spare.
	big := budget > 0 && nodes*8 >= budget
	if loopErrCheck || (hasGoto && errCheck) || ((hasLoop || hasGoto) && big) {
		return true
	}
	for _, lit := range lits {
		if funcMayRetry(info, lit.Body, budget) {
			return true
		}
	}
	return false
}

func isErrorExpr(info *types.Info, e ast.Expr) bool {
	t := info.TypeOf(e)
	return t != nil && ssautil.IsError(t)
}

// mayPause reports whether a function of the package could wait, that is
// whether sleepsOf could find anything: a use of a sleep, timer or backoff
// of the catalogue, or of a function another package found to wait (the
// Sleeps fact); a timer's channel field C; or a call through a function
// value that takes a time.Duration (an injected sleep). Every wait sleepsOf
// finds comes down to one of these.
func mayPause(pass *analysis.Pass) bool {
	for _, obj := range pass.TypesInfo.Uses {
		switch obj := obj.(type) {
		case *types.Func:
			if isPauseFunc(pass, obj) {
				return true
			}
		case *types.Var:
			if obj.IsField() && obj.Name() == "C" && obj.Pkg() != nil && obj.Pkg().Path() == "time" {
				return true
			}
		}
	}
	found := false
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok && !found && typeutil.StaticCallee(pass.TypesInfo, call) == nil {
				tv, ok := pass.TypesInfo.Types[call.Fun]
				switch {
				case !ok || tv.Type == nil:
					found = true // unknown: assume the worst
				case tv.IsType() || tv.IsBuiltin():
					// a conversion or a builtin calls nothing
				default:
					sig, _ := tv.Type.Underlying().(*types.Signature)
					if sig == nil {
						break
					}
					for i := range sig.Params().Len() {
						found = found || isDuration(sig.Params().At(i).Type())
					}
				}
			}
			return !found
		})
	}
	return found
}

func isPauseFunc(pass *analysis.Pass, fn *types.Func) bool {
	if catalog.Backoffs.Has(fn) {
		return true
	}
	key := catalog.Key(fn)
	if _, ok := catalog.Sleeps[key]; ok {
		return true
	}
	if _, ok := catalog.Timers[key]; ok {
		return true
	}
	origin := fn.Origin()
	return origin.Pkg() != nil && origin.Pkg() != pass.Pkg && pass.ImportObjectFact(origin, new(Sleeps))
}

type checker struct {
	pass     *analysis.Pass
	net      *netio.Result
	sleeps   map[*ssa.Function]*Sleeps // this package's, nil when it does not wait
	visiting map[*ssa.Function]bool
	fields   map[fieldKey][]*ssa.Function
	starts   ssautil.CallStarts
}

// ---- what waits ----

// pause is how a call or a receive makes a loop wait.
type pause int

const (
	noPause pause = iota
	constantPause
	growingPause
)

// sleepsOf returns how fn makes its caller wait, or nil if it does not.
func (c *checker) sleepsOf(fn *ssa.Function) *Sleeps {
	fn = origin(fn)
	obj, _ := fn.Object().(*types.Func)
	if obj != nil {
		if catalog.Backoffs.Has(obj) {
			return &Sleeps{Growing: true}
		}
		if i, ok := catalog.Sleeps[catalog.Key(obj)]; ok {
			return &Sleeps{DurationParams: []int{i}}
		}
		if obj.Pkg() != nil && obj.Pkg() != c.pass.Pkg {
			var fact Sleeps
			if c.pass.ImportObjectFact(obj, &fact) {
				return &fact
			}
			return nil
		}
	}
	if f, ok := c.sleeps[fn]; ok {
		return f
	}
	if c.visiting[fn] || len(fn.Blocks) == 0 {
		return nil
	}
	c.visiting[fn] = true
	defer delete(c.visiting, fn)
	var fact *Sleeps
	src := paramSource{fn: fn}
	waits := map[*ssa.BasicBlock]bool{}
	direct := false
	looped := map[*ssa.BasicBlock]bool{} // a wait in a loop is a retry or poll, not a sleep helper
	for _, l := range loopsOf(fn) {
		maps.Copy(looped, l.blocks)
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			p, params := c.instrPause(instr, src.classify)
			if p == noPause {
				continue
			}
			waits[b] = true
			direct = direct || (isDirectWait(instr) && !looped[b])
			if fact == nil {
				fact = &Sleeps{}
			}
			fact.Growing = fact.Growing || p == growingPause
			for _, i := range params {
				if !slices.Contains(fact.DurationParams, i) {
					fact.DurationParams = append(fact.DurationParams, i)
				}
			}
		}
	}
	if fact != nil && !direct && returnsWithoutWaiting(fn, waits) {
		fact = nil
	}
	if fact != nil {
		slices.Sort(fact.DurationParams)
		if fact.Growing {
			fact.DurationParams = nil
		}
	}
	c.sleeps[fn] = fact
	return fact
}

// returnsWithoutWaiting reports whether fn has a path from its entry to a
// return that passes no waiting block. A function that sleeps or waits on a
// timer itself, outside a loop, is a wait to its callers (sleepCtx returns
// early when d <= 0);
// one that only calls functions that wait must do so on every path: a client
// whose transport waits on timers for its timeouts is not a pause.
func returnsWithoutWaiting(fn *ssa.Function, waits map[*ssa.BasicBlock]bool) bool {
	seen := map[*ssa.BasicBlock]bool{}
	stack := []*ssa.BasicBlock{fn.Blocks[0]}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[b] || waits[b] {
			continue
		}
		seen[b] = true
		if _, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
			return true
		}
		stack = append(stack, b.Succs...)
	}
	return false
}

// isDirectWait reports a wait made by fn itself: time.Sleep, a backoff
// library, a receive from a timer.
func isDirectWait(instr ssa.Instruction) bool {
	call, ok := instr.(*ssa.Call)
	if !ok {
		return true // a receive or select on a timer
	}
	callee := call.Common().StaticCallee()
	if callee == nil {
		return call.Common().IsInvoke() // a backoff interface method
	}
	obj, _ := origin(callee).Object().(*types.Func)
	if obj == nil {
		return false
	}
	_, sleep := catalog.Sleeps[catalog.Key(obj)]
	return sleep || catalog.Backoffs.Has(obj)
}

// durationOf classifies a duration value where it is used: growing (it
// changes between attempts, or is jittered), constant, or taken from the
// given parameters of the enclosing function.
type durationOf func(v ssa.Value) (growing bool, params []int)

// instrPause says whether instr waits, and how.
func (c *checker) instrPause(instr ssa.Instruction, dur durationOf) (pause, []int) {
	switch instr := instr.(type) {
	case *ssa.Call:
		if timer, d := timerCall(instr.Common()); timer {
			// Creating a timer does not wait, but re-arming one inside a
			// loop with a growing delay is how some loops back off.
			if growing, _ := dur(d); growing && instr.Common().StaticCallee().Name() == "Reset" {
				return growingPause, nil
			}
			return noPause, nil
		}
		return c.callPause(instr.Common(), dur)
	case *ssa.UnOp:
		if instr.Op == token.ARROW {
			return timerWait(instr.X, dur)
		}
	case *ssa.Select:
		best, params := noPause, []int(nil)
		for _, st := range instr.States {
			if st.Dir == types.RecvOnly {
				if p, ps := timerWait(st.Chan, dur); p > best {
					best, params = p, ps
				}
			}
		}
		return best, params
	}
	return noPause, nil
}

// timerCall reports whether common creates or re-arms a timer, and the
// duration it is given.
func timerCall(common *ssa.CallCommon) (bool, ssa.Value) {
	callee := common.StaticCallee()
	if callee == nil {
		return false, nil
	}
	obj, ok := origin(callee).Object().(*types.Func)
	if !ok {
		return false, nil
	}
	i, ok := catalog.Timers[catalog.Key(obj)]
	if !ok || i >= len(common.Args) {
		return false, nil
	}
	return true, common.Args[i]
}

// timerWait classifies a receive from ch: a wait when ch is a timer's
// channel (time.After(d), t.C), constant unless the timer's duration grows.
func timerWait(ch ssa.Value, dur durationOf) (pause, []int) {
	if call, ok := ch.(*ssa.Call); ok {
		if timer, d := timerCall(call.Common()); timer {
			return classified(dur(d))
		}
		return noPause, nil
	}
	load, ok := ch.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return noPause, nil
	}
	fa, ok := load.X.(*ssa.FieldAddr)
	if !ok {
		return noPause, nil
	}
	if s := types.TypeString(fa.X.Type(), nil); s != "*time.Timer" && s != "*time.Ticker" {
		return noPause, nil
	}
	if call, ok := fa.X.(*ssa.Call); ok {
		if timer, d := timerCall(call.Common()); timer {
			return classified(dur(d))
		}
	}
	return constantPause, nil
}

func classified(growing bool, params []int) (pause, []int) {
	if growing {
		return growingPause, nil
	}
	return constantPause, params
}

func (c *checker) callPause(common *ssa.CallCommon, dur durationOf) (pause, []int) {
	args := common.Args
	var callees []*ssa.Function
	switch {
	case common.IsInvoke():
		if catalog.Backoffs.Has(common.Method) {
			return growingPause, nil
		}
		return noPause, nil
	case common.StaticCallee() != nil:
		callees = []*ssa.Function{common.StaticCallee()}
	default:
		callees = c.funcsOf(common.Value)
		if callees == nil {
			return c.injectedPause(common, dur)
		}
	}
	best, params := noPause, []int(nil)
	for _, callee := range callees {
		fact := c.sleepsOf(callee)
		if fact == nil {
			continue
		}
		p := constantPause
		if fact.Growing {
			p = growingPause
		}
		for _, i := range fact.DurationParams {
			if i >= len(args) {
				continue
			}
			growing, ps := dur(args[i])
			if growing {
				p = growingPause
			}
			params = append(params, ps...)
		}
		best = max(best, p)
	}
	return best, params
}

// injectedPause treats a call through a function value that cannot be
// resolved, and takes a time.Duration, as a wait: sleep functions are
// injected that way so tests can fake them.
func (c *checker) injectedPause(common *ssa.CallCommon, dur durationOf) (pause, []int) {
	sig := common.Signature()
	for i := range sig.Params().Len() {
		if isDuration(sig.Params().At(i).Type()) && i < len(common.Args) {
			growing, params := dur(common.Args[i])
			if growing {
				return growingPause, nil
			}
			return constantPause, params
		}
	}
	return noPause, nil
}

// ---- func-typed fields ----

type fieldKey struct {
	st    string
	index int
}

// fieldFuncs finds the functions this package stores into func-typed struct
// fields, so a call through the field can be resolved to them.
func fieldFuncs(funcs []*ssa.Function) map[fieldKey][]*ssa.Function {
	out := map[fieldKey][]*ssa.Function{}
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok {
					continue
				}
				fa, ok := st.Addr.(*ssa.FieldAddr)
				if !ok {
					continue
				}
				if f := ssautil.FuncOf(st.Val); f != nil {
					k := fieldKeyOf(fa)
					if !slices.Contains(out[k], f) {
						out[k] = append(out[k], f)
					}
				}
			}
		}
	}
	return out
}

func fieldKeyOf(fa *ssa.FieldAddr) fieldKey {
	return fieldKey{types.TypeString(fa.X.Type(), nil), fa.Field}
}

// funcsOf resolves a function value to the functions it may denote: a
// function or closure, or a func-typed field this package assigns.
func (c *checker) funcsOf(v ssa.Value) []*ssa.Function {
	if f := ssautil.FuncOf(v); f != nil {
		return []*ssa.Function{f}
	}
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		if fa, ok := load.X.(*ssa.FieldAddr); ok {
			return c.fields[fieldKeyOf(fa)]
		}
	}
	return nil
}

// ---- durations inside a helper ----

// paramSource classifies a duration inside a function that waits: from a
// parameter, computed afresh (growing), or constant.
type paramSource struct{ fn *ssa.Function }

func (s paramSource) classify(v ssa.Value) (bool, []int) {
	var params []int
	growing := false
	seen := map[ssa.Value]bool{}
	var walk func(v ssa.Value)
	walk = func(v ssa.Value) {
		if v == nil || seen[v] || growing {
			return
		}
		seen[v] = true
		switch v := v.(type) {
		case *ssa.Parameter:
			if i := slices.Index(s.fn.Params, v); i >= 0 {
				params = append(params, i)
			}
		case *ssa.Call, *ssa.Phi:
			growing = true // a delay computed by a call (rand, NextBackOff) or a loop
		case *ssa.UnOp:
			if v.Op == token.MUL && storedIn(s.fn, v.X) {
				growing = true // a delay the function updates: b.cur *= 2
				return
			}
			walk(v.X)
		default:
			for _, op := range operands(v) {
				walk(op)
			}
		}
	}
	walk(v)
	return growing, params
}

// storedIn reports whether fn stores to the same field as addr.
func storedIn(fn *ssa.Function, addr ssa.Value) bool {
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok {
		return false
	}
	k := fieldKeyOf(fa)
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if st, ok := instr.(*ssa.Store); ok {
				if other, ok := st.Addr.(*ssa.FieldAddr); ok && fieldKeyOf(other) == k {
					return true
				}
			}
		}
	}
	return false
}

func operands(v ssa.Value) []ssa.Value {
	instr, ok := v.(ssa.Instruction)
	if !ok {
		return nil
	}
	var out []ssa.Value
	for _, op := range instr.Operands(nil) {
		if *op != nil {
			out = append(out, *op)
		}
	}
	return out
}

// ---- loops ----

// loop is a natural loop of the SSA control-flow graph: for, range and
// goto loops alike.
type loop struct {
	fn     *ssa.Function
	header *ssa.BasicBlock
	blocks map[*ssa.BasicBlock]bool
}

func loopsOf(fn *ssa.Function) []*loop {
	byHeader := map[*ssa.BasicBlock]*loop{}
	var out []*loop
	for _, b := range fn.Blocks {
		for _, h := range b.Succs {
			if !h.Dominates(b) {
				continue
			}
			l := byHeader[h]
			if l == nil {
				l = &loop{fn: fn, header: h, blocks: map[*ssa.BasicBlock]bool{h: true}}
				byHeader[h] = l
				out = append(out, l)
			}
			stack := []*ssa.BasicBlock{b}
			for len(stack) > 0 {
				x := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if l.blocks[x] {
					continue
				}
				l.blocks[x] = true
				stack = append(stack, x.Preds...)
			}
		}
	}
	return out
}

// inLoop reports whether v is computed inside the loop.
func (l *loop) inLoop(v ssa.Value) bool {
	instr, ok := v.(ssa.Instruction)
	return ok && instr.Block() != nil && l.blocks[instr.Block()]
}

// varies classifies a duration used inside the loop: growing if it changes
// from one attempt to the next (a loop variable, a call such as rand or
// NextBackOff, a field the loop updates); constant otherwise.
func (l *loop) varies(v ssa.Value) (bool, []int) {
	seen := map[ssa.Value]bool{}
	var walk func(v ssa.Value) bool
	walk = func(v ssa.Value) bool {
		if v == nil || seen[v] || !l.inLoop(v) {
			return false
		}
		seen[v] = true
		switch v := v.(type) {
		case *ssa.Phi, *ssa.Call:
			return true
		case *ssa.UnOp:
			if v.Op == token.MUL && l.stores(v.X) {
				return true
			}
		}
		return slices.ContainsFunc(operands(v), walk)
	}
	return walk(v), nil
}

// stores reports whether the loop stores to the field or variable at addr.
func (l *loop) stores(addr ssa.Value) bool {
	fa, isField := addr.(*ssa.FieldAddr)
	for b := range l.blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok {
				continue
			}
			if st.Addr == addr {
				return true
			}
			if other, ok := st.Addr.(*ssa.FieldAddr); ok && isField && fieldKeyOf(other) == fieldKeyOf(fa) {
				return true
			}
		}
	}
	return false
}

// retry is a loop that repeats a failing call: on the call's error the loop
// goes round again, and on success it leaves.
type retry struct {
	loop     *loop
	call     *ssa.Call // the operation retried
	errCall  *ssa.Call // the call whose error is checked: call, or an accessor on its result (Cmd.Result)
	errCheck *ssa.If
}

// isOwnResult: a value that comes from the retried operation or from the
// accessor that reports its error.
func (r *retry) isOwnResult(v *ssa.Call) bool { return v == r.call || v == r.errCall }

func (c *checker) checkLoops(fn *ssa.Function) {
	if strings.HasSuffix(c.pass.Fset.Position(fn.Pos()).Filename, "_test.go") {
		return // a test's loop against its own server is not a production retry
	}
	if !lazyssa.HasLoop(fn) || !lazyssa.Fits(c.pass, Code, fn) {
		return
	}
	reported := map[*ssa.Call]bool{}
	for _, l := range loopsOf(fn) {
		if l.isIteration() {
			continue
		}
		r := c.retryIn(l)
		if r == nil || reported[r.call] {
			continue
		}
		reported[r.call] = true
		c.judge(r)
	}
}

// retryIn finds the first call whose error decides whether the loop goes
// round again: the failure branch stays in the loop and the success branch
// leaves it before coming back to the loop's head.
func (c *checker) retryIn(l *loop) *retry {
	for _, b := range l.fn.Blocks {
		if !l.blocks[b] {
			continue
		}
		ifInstr, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		errVal, failIdx := nilCheck(ifInstr.Cond)
		if errVal == nil {
			continue
		}
		fail, ok2 := b.Succs[failIdx], b.Succs[1-failIdx]
		if !l.blocks[fail] {
			continue
		}
		for _, errCall := range errorCalls(errVal) {
			call := c.operationOf(errCall)
			if l.inLoop(call) && l.alwaysLeaves(ok2, call) && l.mustCheck(call.Block(), b) && !l.iterates(call.Common()) && !l.consumesOnFailure(errCall, fail) {
				return &retry{loop: l, call: call, errCall: errCall, errCheck: ifInstr}
			}
		}
	}
	return nil
}

// consumesOnFailure reports whether the failure branch uses the call's other
// results: the "error" reports partial progress to keep (bufio's
// ErrBufferFull with the bytes read so far, a short write), so the loop
// makes progress and is not retrying the same operation.
func (l *loop) consumesOnFailure(call *ssa.Call, fail *ssa.BasicBlock) bool {
	onFailure := map[*ssa.BasicBlock]bool{}
	stack := []*ssa.BasicBlock{fail}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if b == l.header || !l.blocks[b] || onFailure[b] {
			continue
		}
		onFailure[b] = true
		stack = append(stack, b.Succs...)
	}
	tuple, ok := call.Type().(*types.Tuple)
	if !ok {
		return false
	}
	for _, r := range ssautil.Referrers(call) {
		ex, ok := r.(*ssa.Extract)
		if !ok || ex.Index == tuple.Len()-1 {
			continue
		}
		for _, use := range ssautil.Referrers(ex) {
			if _, isPhi := use.(*ssa.Phi); !isPhi && onFailure[use.Block()] {
				return true
			}
		}
	}
	return false
}

// operationOf returns the call a result accessor reports on: with
// go-redis, `v, err := rdb.Get(ctx, k).Result()` fails because Get failed,
// so Get (a network call) is the operation the loop retries, not Result.
// Other calls are their own operation.
func (c *checker) operationOf(call *ssa.Call) *ssa.Call {
	if c.net.CallReaches(call.Common()) != nil {
		return call
	}
	var recv ssa.Value
	common := call.Common()
	switch {
	case common.IsInvoke():
		recv = common.Value
	case common.StaticCallee() != nil && common.StaticCallee().Signature.Recv() != nil && len(common.Args) > 0:
		recv = common.Args[0]
	}
	for {
		switch v := recv.(type) {
		case *ssa.ChangeType:
			recv = v.X
			continue
		case *ssa.MakeInterface:
			recv = v.X
			continue
		case *ssa.Call:
			if c.net.CallReaches(v.Common()) != nil {
				return v
			}
		}
		return call
	}
}

// nilCheck returns the error value compared with nil by cond and the index of
// the successor taken when it is not nil.
func nilCheck(cond ssa.Value) (ssa.Value, int) {
	bin, ok := cond.(*ssa.BinOp)
	if !ok || (bin.Op != token.NEQ && bin.Op != token.EQL) {
		return nil, 0
	}
	v := bin.X
	if !ssautil.IsNil(bin.Y) {
		if !ssautil.IsNil(bin.X) {
			return nil, 0
		}
		v = bin.Y
	}
	if !ssautil.IsError(v.Type()) {
		return nil, 0
	}
	if bin.Op == token.NEQ {
		return v, 0
	}
	return v, 1
}

// errorCalls returns the calls whose error result v may be.
func errorCalls(v ssa.Value) []*ssa.Call {
	var out []*ssa.Call
	seen := map[ssa.Value]bool{}
	var walk func(v ssa.Value)
	walk = func(v ssa.Value) {
		if seen[v] {
			return
		}
		seen[v] = true
		switch v := v.(type) {
		case *ssa.Extract:
			if call, ok := v.Tuple.(*ssa.Call); ok && v.Index == call.Type().(*types.Tuple).Len()-1 {
				out = append(out, call)
			}
		case *ssa.Call:
			out = append(out, v)
		case *ssa.Phi:
			for _, e := range v.Edges {
				walk(e)
			}
		case *ssa.ChangeInterface:
			walk(v.X)
		case *ssa.MakeInterface:
			walk(v.X)
		}
	}
	walk(v)
	return out
}

// mustCheck reports whether every way round the loop from the call's block
// passes the error check in block check: the error alone decides. A read
// loop that tests n == 0 first, and can go round without the check, does
// not retry.
func (l *loop) mustCheck(from, check *ssa.BasicBlock) bool {
	if from == check {
		return true
	}
	seen := map[*ssa.BasicBlock]bool{}
	stack := slices.Clone(from.Succs)
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if x == check || !l.blocks[x] || seen[x] {
			continue
		}
		if x == l.header {
			return false
		}
		seen[x] = true
		stack = append(stack, x.Succs...)
	}
	return true
}

// alwaysLeaves reports whether every path from b leaves the loop before
// its head is reached again: the success branch of a retry. A loop that goes
// round again after a success (a read loop) is not retrying; one that goes
// round again on the response's status (a 503 or 429) still is.
func (l *loop) alwaysLeaves(b *ssa.BasicBlock, call *ssa.Call) bool {
	seen := map[*ssa.BasicBlock]bool{}
	stack := []*ssa.BasicBlock{b}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if !l.blocks[x] || seen[x] {
			continue
		}
		if x == l.header {
			return false
		}
		seen[x] = true
		if ifInstr, ok := x.Instrs[len(x.Instrs)-1].(*ssa.If); ok && isStatusCheck(ifInstr.Cond, call) {
			continue
		}
		stack = append(stack, x.Succs...)
	}
	return true
}

// isStatusCheck reports whether cond tests the StatusCode of the
// *http.Response that call returned.
func isStatusCheck(cond ssa.Value, call *ssa.Call) bool {
	bin, ok := cond.(*ssa.BinOp)
	if !ok {
		return false
	}
	for _, v := range []ssa.Value{bin.X, bin.Y} {
		load, ok := v.(*ssa.UnOp)
		if !ok || load.Op != token.MUL {
			continue
		}
		fa, ok := load.X.(*ssa.FieldAddr)
		if !ok || types.TypeString(fa.X.Type(), nil) != "*net/http.Response" {
			continue
		}
		if fa.X.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Struct).Field(fa.Field).Name() != "StatusCode" {
			continue
		}
		if ex, ok := fa.X.(*ssa.Extract); ok && ex.Tuple == call {
			return true
		}
	}
	return false
}

// iterates reports whether the call works on a different item each time
// round (the next element of a range, the next endpoint, the next message),
// which is failover or consumption, not a retry of the same operation.
func (l *loop) iterates(common *ssa.CallCommon) bool {
	seen := map[ssa.Value]bool{}
	var walk func(v ssa.Value) bool
	walk = func(v ssa.Value) bool {
		if v == nil || seen[v] {
			return false
		}
		if l.writtenEachRound(v) {
			return true // config["port"] = nextPort before each call
		}
		if !l.inLoop(v) {
			return false
		}
		seen[v] = true
		switch v := v.(type) {
		case *ssa.IndexAddr:
			if g, _ := l.varies(v.Index); g {
				return true
			}
		case *ssa.Index:
			if g, _ := l.varies(v.Index); g {
				return true
			}
		case *ssa.Next:
			return true
		case *ssa.UnOp:
			if v.Op == token.ARROW {
				return true
			}
		case *ssa.Phi:
			// A value carried round the loop (lvs = append(lvs, x), the
			// next cursor) makes each call a different one.
			return v.Block() == l.header && !ssautil.IsError(v.Type())
		case *ssa.Call:
			return false
		}
		return slices.ContainsFunc(operands(v), walk)
	}
	if common.StaticCallee() == nil {
		if g, _ := l.varies(common.Value); g {
			return true // a different function each time round
		}
	}
	return slices.ContainsFunc(common.Args, walk) || walk(common.Value)
}

// writtenEachRound reports whether the loop writes a value that changes
// between rounds into v, a map or a struct made before the loop: the call it
// is passed to asks for something different each time (the next port).
func (l *loop) writtenEachRound(v ssa.Value) bool {
	for _, ref := range ssautil.Referrers(v) {
		if !l.blocks[ref.Block()] {
			continue
		}
		switch r := ref.(type) {
		case *ssa.MapUpdate:
			if g, _ := l.varies(r.Value); r.Map == v && g {
				return true
			}
		case *ssa.FieldAddr:
			for _, use := range ssautil.Referrers(r) {
				if st, ok := use.(*ssa.Store); ok && st.Addr == r {
					if g, _ := l.varies(st.Val); g {
						return true
					}
				}
			}
		}
	}
	return false
}

// isIteration reports whether the loop is a range over a slice, array,
// string, map, channel or iterator: it visits items, it does not repeat an
// attempt. A range over an integer (for range 3) is an attempt count.
func (l *loop) isIteration() bool {
	c := l.header.Comment
	return strings.HasPrefix(c, "rangeindex") || strings.HasPrefix(c, "rangeiter") || strings.HasPrefix(c, "rangechan")
}

// ---- bounds and pauses ----

// boundKind is what can end the loop other than the call's success.
type boundKind struct {
	count, deadline, other bool
}

func (b boundKind) any() bool { return b.count || b.deadline || b.other }

func (c *checker) boundsOf(r *retry) boundKind {
	var bk boundKind
	for blk := range r.loop.blocks {
		ifInstr, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.If)
		if !ok || (r.loop.blocks[blk.Succs[0]] && r.loop.blocks[blk.Succs[1]]) {
			continue
		}
		c.classifyExit(r, ifInstr.Cond, &bk)
	}
	return bk
}

// classifyExit records what an exit condition of the loop tests.
func (c *checker) classifyExit(r *retry, cond ssa.Value, bk *boundKind) {
	var fromCall, counter, deadline, other bool
	seen := map[ssa.Value]bool{}
	var walk func(v ssa.Value)
	walk = func(v ssa.Value) {
		if v == nil || seen[v] {
			return
		}
		seen[v] = true
		if !r.loop.inLoop(v) {
			if _, ok := v.(*ssa.Const); !ok {
				other = true // a flag or limit set before the loop
			}
			return
		}
		switch v := v.(type) {
		case *ssa.Call:
			if r.isOwnResult(v) {
				fromCall = true
				return
			}
			if isDeadlineCall(v.Common()) {
				deadline = true
				return
			}
			if inspectsError(v.Common()) {
				for _, a := range v.Common().Args {
					walk(a)
				}
				return
			}
			other = true // a retry policy's decision: shouldRetry(err), budget.Allow()
			return
		case *ssa.Select:
			deadline = true
			return
		case *ssa.Phi:
			if v.Block() == r.loop.header && isInteger(v.Type()) {
				counter = true
				return
			}
			if calls := errorCalls(v); slices.Contains(calls, r.call) || slices.Contains(calls, r.errCall) {
				fromCall = true
				return
			}
		case *ssa.Extract:
			if call, ok := v.Tuple.(*ssa.Call); ok && r.isOwnResult(call) {
				fromCall = true
				return
			}
		}
		for _, op := range operands(v) {
			walk(op)
		}
	}
	walk(cond)
	switch {
	case counter:
		bk.count = true
	case deadline:
		bk.deadline = true
	case other && !fromCall:
		bk.other = true
	}
}

// inspectsError reports calls that only look at an error (errors.Is,
// errors.As, err.Error(), a Temporary() method): a condition made of them is
// still the retried call's own result.
func inspectsError(common *ssa.CallCommon) bool {
	if common.IsInvoke() {
		return ssautil.IsError(common.Value.Type()) || common.Method.Name() == "Temporary" || common.Method.Name() == "Timeout"
	}
	callee := common.StaticCallee()
	if callee == nil {
		return false
	}
	fn, _ := origin(callee).Object().(*types.Func)
	return fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "errors"
}

// isDeadlineCall reports calls that tell time or a context's state:
// ctx.Err(), time.Since, time.Now().After(deadline)…
func isDeadlineCall(common *ssa.CallCommon) bool {
	var fn *types.Func
	if common.IsInvoke() {
		fn = common.Method
	} else if callee := common.StaticCallee(); callee != nil {
		fn, _ = origin(callee).Object().(*types.Func)
	}
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	return fn.Pkg().Path() == "time" || fn.Pkg().Path() == "context"
}

// pauseOf returns how the loop waits between attempts, and where.
func (c *checker) pauseOf(l *loop) (pause, ssa.Instruction) {
	best, where := noPause, ssa.Instruction(nil)
	for _, b := range l.fn.Blocks {
		if !l.blocks[b] {
			continue
		}
		for _, instr := range b.Instrs {
			p, _ := c.instrPause(instr, l.varies)
			if p > best {
				best, where = p, instr
			}
		}
	}
	return best, where
}

// ---- reporting ----

func (c *checker) judge(r *retry) {
	bound := c.boundsOf(r)
	p, where := c.pauseOf(r.loop)
	if bound.any() && p == growingPause {
		return
	}
	// A bounded loop that retries a local operation at once (a conflict, a
	// bad pooled connection) multiplies no remote load: only a bounded retry
	// of a network call needs a growing pause.
	network := c.net.CallReaches(r.call.Common())
	if bound.any() && network == nil {
		return
	}
	var problems []string
	switch {
	case !bound.any():
		problems = append(problems, "with no bound on attempts")
	case p == noPause && !bound.count && !bound.other:
		problems = append(problems, "bounded only by its context's deadline")
	}
	switch p {
	case noPause:
		problems = append(problems, "with no pause between attempts")
	case constantPause:
		problems = append(problems, "waiting "+c.constantWait(where)+" between attempts with no backoff or jitter")
	}
	d := analysis.Diagnostic{
		Pos: c.callStart(r.call.Pos()),
		Message: fmt.Sprintf("%s: this loop retries %s when it fails %s; %s", Code,
			c.operationName(r.call, network), strings.Join(problems, ", "), fixFor(bound, p)),
	}
	if where != nil && where.Pos().IsValid() && p == constantPause {
		d.Related = []analysis.RelatedInformation{{Pos: c.callStart(where.Pos()), Message: "the constant wait"}}
	}
	if d.Pos.IsValid() {
		c.pass.Report(d)
	}
}

func fixFor(bound boundKind, p pause) string {
	switch {
	case !bound.any() && p == growingPause:
		return "stop after a few attempts (e.g. 3) or a deadline, and return the error"
	case bound.any():
		return "wait with exponential backoff and jitter between attempts (cenkalti/backoff), so callers do not retry in step"
	}
	return "bound the attempts (e.g. 3) and wait with exponential backoff and jitter between them (cenkalti/backoff), or return the error to the caller"
}

// constantWait names the constant wait: "a constant 50ms" when it is known.
func (c *checker) constantWait(where ssa.Instruction) string {
	if call, ok := where.(*ssa.Call); ok {
		for _, a := range call.Common().Args {
			if k, ok := a.(*ssa.Const); ok && isDuration(k.Type()) && k.Value != nil {
				if n, exact := constant.Int64Val(k.Value); exact {
					return "a constant " + time.Duration(n).String()
				}
			}
		}
	}
	return "a constant time"
}

func (c *checker) operationName(call *ssa.Call, path []string) string {
	common := call.Common()
	name := "a function value"
	switch {
	case common.IsInvoke():
		name = netio.Name(common.Method)
	case common.StaticCallee() != nil:
		callee := origin(common.StaticCallee())
		if obj, ok := callee.Object().(*types.Func); ok {
			name = netio.Name(obj)
		} else {
			name = callee.Name()
		}
	}
	if len(path) > 1 {
		return name + " (a network call: → " + strings.Join(path[1:], " → ") + ")"
	}
	return name
}

// callStart maps the Lparen position SSA records for a call to the start of
// the call expression.
func (c *checker) callStart(lparen token.Pos) token.Pos {
	return c.starts.Start(c.pass.Files, lparen)
}

// ---- small helpers ----

func origin(fn *ssa.Function) *ssa.Function { return ssautil.Origin(fn) }

func isDuration(t types.Type) bool { return types.TypeString(t, nil) == "time.Duration" }

func isInteger(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0 && !isDuration(t)
}
