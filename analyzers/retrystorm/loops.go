package retrystorm

import (
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/lazyssa"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// loop is a natural loop of the SSA control-flow graph: for, range and
// goto loops alike.
type loop struct {
	fn     *ssa.Function
	header *ssa.BasicBlock
	blocks map[*ssa.BasicBlock]bool
	// recursion, for the pseudo-loop of a function calling itself
	// (recursion.go): the self-call, and the parameters it passes on
	// unchanged.
	recursion *ssa.Call
	invariant map[ssa.Value]bool
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

// innermostLoops maps each block to the smallest loop that holds it.
func innermostLoops(loops []*loop) map[*ssa.BasicBlock]*loop {
	out := map[*ssa.BasicBlock]*loop{}
	for _, l := range loops {
		for b := range l.blocks {
			if in := out[b]; in == nil || len(l.blocks) < len(in.blocks) {
				out[b] = l
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
	return l.derives(v, func(v ssa.Value, _ func(ssa.Value) bool) (bool, bool) {
		switch v := v.(type) {
		case *ssa.Phi, *ssa.Call:
			return true, true
		case *ssa.UnOp:
			if v.Op == token.MUL && l.stores(v.X) {
				return true, true
			}
		}
		return false, false
	}), nil
}

// derives reports whether v, or a value inside the loop it is computed
// from, is a source: source decides a value (found, decided), or leaves it
// to its operands; walk lets it follow other values of its choosing.
func (l *loop) derives(v ssa.Value, source func(v ssa.Value, walk func(ssa.Value) bool) (found, decided bool)) bool {
	seen := map[ssa.Value]bool{}
	var walk func(v ssa.Value) bool
	walk = func(v ssa.Value) bool {
		if v == nil || seen[v] || !l.inLoop(v) {
			return false
		}
		seen[v] = true
		if found, decided := source(v, walk); decided {
			return found
		}
		return slices.ContainsFunc(operands(v), walk)
	}
	return walk(v)
}

// stores reports whether the loop stores to the field or variable at addr.
func (l *loop) stores(addr ssa.Value) bool {
	fa, isField := addr.(*ssa.FieldAddr)
	for b := range l.blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok || l.spills(st) {
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
	fail     *ssa.BasicBlock // errCheck's successor on failure
	// spin: a reader loop, which also goes round after a success, that
	// goes round again at once on the call's error.
	spin bool
	// refusal: the HTTP error status the loop goes round on, when it goes
	// round on the server's answer rather than on an error (0 otherwise).
	refusal int64
	// reconnect: a reader loop that sends a new request each round and
	// waits only when the call failed (pacedReconnect): judged as a retry
	// when that wait is constant.
	reconnect bool
}

// isOwnResult: a value that comes from the retried operation or from the
// accessor that reports its error.
func (r *retry) isOwnResult(v *ssa.Call) bool {
	return v == r.call || v == r.errCall || awaitsToken(v, r.call)
}

// awaitsToken reports whether v waits on the token call returned
// (token.Wait() of token := client.Connect()): the request's own outcome,
// as its error is, not a decision of the loop's.
func awaitsToken(v, call *ssa.Call) bool {
	return v.Call.IsInvoke() && v.Call.Value == ssa.Value(call) &&
		slices.Contains(catalog.AwaitedTokens, catalog.TypeKey(call.Type()))
}

func (c *checker) checkLoops(fn *ssa.Function) {
	if strings.HasSuffix(c.pass.Fset.Position(fn.Pos()).Filename, "_test.go") {
		return // a test's loop against its own server is not a production retry
	}
	if !lazyssa.HasLoop(fn) && !hasSelfCall(fn) || !lazyssa.Fits(c.pass, Code, fn) {
		return
	}
	reported := map[*ssa.Call]bool{}
	loops := loopsOf(fn)
	c.innermost = innermostLoops(loops)
	for _, l := range append(loops, recursions(fn)...) {
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
		errVal, failIdx := errCondition(ifInstr.Cond)
		if errVal == nil {
			errVal, failIdx = successStatus(ifInstr.Cond)
		}
		// A refusal answered with an error status: the branch that goes
		// round may close the response's body, and consumes nothing.
		var refusal int64
		if errVal == nil {
			if call, idx, status := errorStatusRetry(ifInstr.Cond); call != nil {
				errVal, failIdx, refusal = call, idx, status
			}
		}
		byStatus := refusal != 0
		if errVal == nil {
			continue
		}
		fail, ok2 := b.Succs[failIdx], b.Succs[1-failIdx]
		if !l.blocks[fail] {
			continue
		}
		for _, errCall := range errorCalls(errVal) {
			call := c.operationOf(errCall)
			if !l.inLoop(call) || !l.mustCheck(call.Block(), b) || l.iterates(call.Common()) || advances(call.Common()) || !byStatus && l.consumesOnFailure(errCall, fail) || c.searches(l, call) {
				continue
			}
			if l.alwaysLeaves(ok2, call) {
				return &retry{loop: l, call: call, errCall: errCall, errCheck: ifInstr, fail: fail, refusal: refusal}
			}
			if c.spinsOnFailure(l, call, b, fail) {
				return &retry{loop: l, call: call, errCall: errCall, errCheck: ifInstr, fail: fail, spin: true}
			}
			if c.pacedReconnect(l, call, b, fail, ok2) {
				return &retry{loop: l, call: call, errCall: errCall, errCheck: ifInstr, fail: fail, reconnect: true}
			}
		}
	}
	return nil
}

// consumesOnFailure reports whether the failure branch uses the call's other
// results: the "error" reports partial progress to keep (bufio's
// ErrBufferFull with the bytes read so far, a short write), so the loop
// makes progress and is not retrying the same operation. Only the blocks
// the failure branch dominates count: a branch that falls through into the
// success path does not consume anything there.
func (l *loop) consumesOnFailure(call *ssa.Call, fail *ssa.BasicBlock) bool {
	onFailure := map[*ssa.BasicBlock]bool{}
	stack := []*ssa.BasicBlock{fail}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if b == l.header || !l.blocks[b] || onFailure[b] || !fail.Dominates(b) {
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
	if c.networkPath(call) != nil {
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
		case *ssa.FieldAddr: // an accessor promoted from an embedded field: Ping(ctx).Err() is (&cmd.baseCmd).Err()
			recv = v.X
			continue
		case *ssa.Field:
			recv = v.X
			continue
		case *ssa.Call:
			if c.networkPath(v) != nil {
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

// successStatus returns the call whose result's field cond compares with
// an HTTP success status (resp.StatusCode == 200 on a project's own
// response type: httpclient.PostJson returns a struct with the error folded
// in), and the index of the successor taken on failure: the outcome
// decides, as an error does. Other constants (a 404 tested to stop) are
// not an outcome check.
func successStatus(cond ssa.Value) (ssa.Value, int) {
	field, n, op := comparedWithInt(cond)
	if field == nil || n < 200 || n > 299 {
		return nil, 0
	}
	call := fieldOfResult(field)
	if call == nil {
		return nil, 0
	}
	if op == token.EQL {
		return call, 1 // == 200: the false branch is the failure
	}
	return call, 0
}

// fieldOfResult is the call whose one result v is a field of: r.StatusCode
// of r := f(…), or nil.
func fieldOfResult(v ssa.Value) *ssa.Call {
	var x ssa.Value
	switch f := v.(type) {
	case *ssa.Field:
		x = f.X
	case *ssa.UnOp:
		fa, ok := f.X.(*ssa.FieldAddr)
		if !ok || f.Op != token.MUL {
			return nil
		}
		x = fa.X
	default:
		return nil
	}
	if alloc, ok := x.(*ssa.Alloc); ok {
		x = ssautil.StoredOnce(alloc) // resp := f(…), kept in memory: the value stored
	}
	// Only a call whose one result carries its outcome: one that also
	// returns an error (resp, err := client.Do(req)) is judged on that
	// error, and its status then is the server's answer, not a failure.
	if call, ok := x.(*ssa.Call); ok {
		return call
	}
	return nil
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
		case *ssa.UnOp:
			if stored := storedJustBefore(v); stored != nil {
				walk(stored)
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

// storedJustBefore is the value last stored, earlier in the same block, to
// the variable load reads: an error a closure keeps in its enclosing
// function's variable (part, err = bucket.UploadPart(…); if err == nil)
// is read back from memory, not from the call.
func storedJustBefore(load *ssa.UnOp) ssa.Value {
	if load.Op != token.MUL || load.Block() == nil {
		return nil
	}
	var stored ssa.Value
	for _, instr := range load.Block().Instrs {
		if instr == load {
			return stored
		}
		if st, ok := instr.(*ssa.Store); ok && st.Addr == load.X {
			stored = st.Val
		}
	}
	return nil
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

// isStatusCheck reports whether cond tests the status of the response that
// call returned (resp.StatusCode == 503, resp.StatusCode() == 429).
func isStatusCheck(cond ssa.Value, call *ssa.Call) bool {
	bin, ok := cond.(*ssa.BinOp)
	if !ok {
		return false
	}
	return statusOfResult(bin.X) == call || statusOfResult(bin.Y) == call
}

// iterates reports whether the call works on a different item each time
// round (the next element of a range, the next endpoint, the next message),
// which is failover or consumption, not a retry of the same operation.
func (l *loop) iterates(common *ssa.CallCommon) bool {
	if l.feedsBack(common) {
		return true // the recursion hands the call its own failure next round
	}
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
	if common.StaticCallee() == nil && !common.IsInvoke() {
		// A function value, not a method's receiver: a client made again
		// each round is the same dependency asked again.
		if g, _ := l.varies(common.Value); g {
			return true // a different function each time round
		}
	}
	if made, ok := common.Value.(*ssa.Call); ok && common.IsInvoke() && slices.ContainsFunc(made.Common().Args, walk) {
		return true // a client made from the next address
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
			if r.Map == v && l.changesEachRound(r.Value) {
				return true
			}
		case *ssa.FieldAddr:
			for _, use := range ssautil.Referrers(r) {
				if st, ok := use.(*ssa.Store); ok && st.Addr == r && l.changesEachRound(st.Val) {
					return true
				}
			}
		}
	}
	return false
}

// changesEachRound reports whether v differs from one round to the next:
// it derives from a value carried round the loop (a counter, a cursor), a
// receive, an iterator's next item, a random number, or what the loop
// stored the round before. A call is as different as its inputs: a client
// made again from the same address is the same dependency (gubernator's
// peer, an MQTT client remade on every reconnect), not the next item.
func (l *loop) changesEachRound(v ssa.Value) bool {
	return l.derives(v, func(v ssa.Value, walk func(ssa.Value) bool) (bool, bool) {
		switch v := v.(type) {
		case *ssa.Phi:
			return v.Block() == l.header, true
		case *ssa.Next:
			return true, true
		case *ssa.UnOp:
			if v.Op == token.ARROW || v.Op == token.MUL && l.stores(v.X) {
				return true, true
			}
		case *ssa.Call:
			if fn := calleeFunc(v.Common()); fn != nil && fn.Pkg() != nil && (fn.Pkg().Path() == "math/rand" || fn.Pkg().Path() == "math/rand/v2") {
				return true, true
			}
			return slices.ContainsFunc(v.Common().Args, walk) || v.Common().IsInvoke() && walk(v.Common().Value), true
		}
		return false, false
	})
}

// isIteration reports whether the loop is a range over a slice, array,
// string, map, channel or iterator: it visits items, it does not repeat an
// attempt. A range over an integer (for range 3) is an attempt count.
func (l *loop) isIteration() bool {
	if l.recursion != nil {
		return false
	}
	c := l.header.Comment
	return strings.HasPrefix(c, "rangeindex") || strings.HasPrefix(c, "rangeiter") || strings.HasPrefix(c, "rangechan")
}
