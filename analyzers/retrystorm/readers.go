package retrystorm

import (
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/netio"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// ---- which error a check tests ----

// errCondition returns the error value a branch condition tests and the
// index of the successor taken when it reports a failure: err != nil, a
// comparison with a sentinel (err == ErrConflict), a type assertion or a
// case of a type switch (err.(*ConditionFailedError)), errors.Is or
// errors.As, gRPC's status.Code(err) compared with a code, or the negation
// of one of them.
func errCondition(cond ssa.Value) (ssa.Value, int) {
	if v, idx := nilCheck(cond); v != nil {
		return v, idx
	}
	switch cond := cond.(type) {
	case *ssa.UnOp:
		if cond.Op == token.NOT {
			if v, idx := errCondition(cond.X); v != nil {
				return v, 1 - idx
			}
		}
	case *ssa.BinOp:
		if v, idx := grpcCodeCheck(cond); v != nil {
			return v, idx
		}
		// err == ErrConflict: both sides are errors, neither is nil.
		if (cond.Op == token.EQL || cond.Op == token.NEQ) && ssautil.IsError(cond.X.Type()) && ssautil.IsError(cond.Y.Type()) {
			v := cond.X
			if _, isGlobal := unwrapLoad(v).(*ssa.Global); isGlobal {
				v = cond.Y
			}
			if cond.Op == token.EQL {
				return v, 0
			}
			return v, 1
		}
	case *ssa.Extract:
		// case *ConditionFailedError: / _, ok := err.(*T)
		if ta, ok := cond.Tuple.(*ssa.TypeAssert); ok && cond.Index == 1 && ta.CommaOk && ssautil.IsError(ta.X.Type()) {
			return ta.X, 0
		}
	case *ssa.Call:
		if callee := cond.Common().StaticCallee(); callee != nil && len(cond.Common().Args) > 0 {
			if fn, ok := callee.Object().(*types.Func); ok && catalog.ErrorMatchers.Has(fn) {
				return cond.Common().Args[0], 0
			}
		}
	}
	return nil, 0
}

// grpcCodeCheck reads status.Code(err) == codes.Unavailable (the failure
// when equal) and status.Code(err) != codes.OK (the failure when not).
func grpcCodeCheck(cond *ssa.BinOp) (ssa.Value, int) {
	if cond.Op != token.EQL && cond.Op != token.NEQ {
		return nil, 0
	}
	call, _ := cond.X.(*ssa.Call)
	k, _ := cond.Y.(*ssa.Const)
	if call == nil {
		call, _ = cond.Y.(*ssa.Call)
		k, _ = cond.X.(*ssa.Const)
	}
	if call == nil || k == nil || k.Value == nil || len(call.Common().Args) != 1 {
		return nil, 0
	}
	callee := call.Common().StaticCallee()
	if callee == nil {
		return nil, 0
	}
	if fn, ok := callee.Object().(*types.Func); !ok || catalog.Key(fn) != catalog.GRPCStatusCode {
		return nil, 0
	}
	isOK := k.Int64() == 0 // codes.OK
	if (cond.Op == token.EQL) != isOK {
		return call.Common().Args[0], 0
	}
	return call.Common().Args[0], 1
}

func unwrapLoad(v ssa.Value) ssa.Value {
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		return load.X
	}
	return v
}

// ---- reader loops that spin on a persistent error ----

// spinsOnFailure reports whether a loop that also goes round after a
// success (a reader loop) goes round again at once on the call's error:
// every way from the loop's head to the check, and from the failure branch
// back to the head, has no way out of the loop and no wait. A closed
// connection, subscription or listener fails at once every time, so such a
// loop spins and floods the log. The call must wait on a peer (a network
// call or a receive of the catalogue), take the same input each time, and
// not be given a timeout to wait for.
func (c *checker) spinsOnFailure(l *loop, call *ssa.Call, check, fail *ssa.BasicBlock) bool {
	if c.innermost[call.Block()] != l || !c.isPeerCall(call) || l.consumesItem(call.Common()) || waitsItself(call.Common()) {
		return false
	}
	region := l.before(check)
	for b := range l.reach(fail) {
		region[b] = true
	}
	request := c.makesRequest(call)
	for b := range region {
		if len(b.Succs) == 0 {
			return false // a return or a panic
		}
		for _, s := range b.Succs {
			if !l.blocks[s] && !(request && (c.shutdownCheck(l, b) || l.leavesOnOneError(b, call))) {
				return false // a way out: io.EOF, a closed flag, a context, a count
			}
		}
		for _, instr := range b.Instrs {
			if instr == call && request {
				if p, _ := c.instrPause(instr, l.varies); p != noPause || c.pacesFailure(l, call) {
					return false
				}
				continue
			}
			if c.waits(instr, l) || noReturn(instr) {
				return false
			}
		}
	}
	return true
}

// pacedReconnect reports whether a loop that also goes round after a
// success re-sends its request after a failure with a pause taken on the
// failure's way only: centrifugo's LISTEN loop, for { err :=
// c.listenForNotifications(ctx); if err != nil { log; select { case
// <-time.After(time.Second): case <-ctx.Done(): return } } }. The call is a
// long-lived request (a session, a subscription, a long poll) that returns
// when it fails, so the loop is a reconnect loop and the pause paces its
// retries: judged as a retry (a constant pause with no backoff or jitter
// puts every instance back on the recovering server in step). A pause
// every way of the success's takes too makes it a poll, every round paced
// alike; one taken on some successes only (argo-events' queue listener
// sleeping when the queue came back empty) does not pace the failures;
// a handle's read (a listener's Accept) is no request.
func (c *checker) pacedReconnect(l *loop, call *ssa.Call, check, fail, success *ssa.BasicBlock) bool {
	if c.innermost[call.Block()] != l || !c.makesRequest(call) && c.databasePath(call) == nil || l.consumesItem(call.Common()) || waitsItself(call.Common()) {
		return false // a database round trip counts, as for a constant pause in a retry
	}
	if c.waitsIn(l, l.before(check), call) || c.everyWayWaits(l, success, call) {
		return false
	}
	failing := l.reach(fail)
	for b := range failing {
		for _, instr := range b.Instrs {
			if p, _ := c.instrPause(instr, l.varies); p != noPause {
				return true
			}
		}
	}
	return false
}

// everyWayWaits reports whether every way from b back to l's head passes
// an instruction, other than call, that waits.
func (c *checker) everyWayWaits(l *loop, b *ssa.BasicBlock, call *ssa.Call) bool {
	seen := map[*ssa.BasicBlock]bool{}
	stack := []*ssa.BasicBlock{b}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if x == l.header {
			return false
		}
		if seen[x] || !l.blocks[x] {
			continue
		}
		seen[x] = true
		if !c.waitsIn(l, map[*ssa.BasicBlock]bool{x: true}, call) {
			stack = append(stack, x.Succs...)
		}
	}
	return true
}

// waitsIn reports whether an instruction of region, other than call, can
// make a round of l wait.
func (c *checker) waitsIn(l *loop, region map[*ssa.BasicBlock]bool, call *ssa.Call) bool {
	for b := range region {
		for _, instr := range b.Instrs {
			if instr != call && c.waits(instr, l) {
				return true
			}
		}
	}
	return false
}

// makesRequest reports whether the call sends a new request each time (it
// reaches the catalogue's network calls, an HTTP request or a dial, or a
// method of a generated gRPC client) rather than reading from a handle the
// loop keeps (a listener's Accept, a stream's Recv, a subscription's
// receive). A handle fails for ever only once it is closed, which is what
// shutdown does; a request fails every round while its server is down.
func (c *checker) makesRequest(call *ssa.Call) bool {
	if c.net.CallReaches(call.Common()) != nil {
		return true
	}
	fn := calleeFunc(call.Common())
	return fn != nil && isGRPCClientMethod(fn)
}

// leavesOnOneError reports whether b leaves the loop only when call's error
// is a particular one (errors.Is(err, errUnauthorized) true, err ==
// io.EOF): for a request, as for a retry, a way out that one error takes
// leaves the others going round, and a server that is down answers none of
// them. A way out taken on every error but one (!errors.Is(err,
// errRetryable)), or on any error (a nil check), is a way out.
func (l *loop) leavesOnOneError(b *ssa.BasicBlock, call *ssa.Call) bool {
	cond := branch(b)
	if cond == nil {
		return false
	}
	if v, _ := nilCheck(cond.Cond); v != nil {
		return false
	}
	v, matchIdx := errCondition(cond.Cond)
	return v != nil && slices.Contains(errorCalls(v), call) && !l.blocks[b.Succs[matchIdx]] && l.blocks[b.Succs[1-matchIdx]]
}

// shutdownCheck reports whether b leaves the loop only on a shutdown
// signal tested without waiting: a select with a default whose cases
// receive from channels that no deadline closes (a tomb's Dying(), a
// context's Done(), a quit channel), or ctx.Err() of a context with no
// deadline. For a loop that sends a request each round, such a check ends
// the loop when the process stops, not while the server is down: between
// the two it goes round at once on every failure (crowdsec's long-poll
// client).
func (c *checker) shutdownCheck(l *loop, b *ssa.BasicBlock) bool {
	cond := branch(b)
	if cond == nil {
		return false
	}
	bin, ok := cond.Cond.(*ssa.BinOp)
	if !ok {
		return false
	}
	for _, v := range []ssa.Value{bin.X, bin.Y} {
		switch v := v.(type) {
		case *ssa.Extract:
			if sel, ok := v.Tuple.(*ssa.Select); ok && v.Index == 0 {
				return c.pollsShutdown(l, sel)
			}
		case *ssa.Call:
			common := v.Common()
			if common.IsInvoke() && common.Method.Name() == "Err" && ssautil.IsContext(common.Value.Type()) {
				return !c.errOfDeadlineContext(common)
			}
		}
	}
	return false
}

// pollsShutdown reports whether sel is a select with a default whose
// cases all receive from channels no deadline closes.
func (c *checker) pollsShutdown(l *loop, sel *ssa.Select) bool {
	if sel.Blocking || len(sel.States) == 0 {
		return false
	}
	for _, st := range sel.States {
		if st.Dir != types.RecvOnly || c.deadlineChannel(l, st.Chan) {
			return false
		}
	}
	return true
}

// pacesFailure reports whether the function the call runs (a static callee
// of this package) waits on a channel on every path to a return of a
// failure: a send or receive only after its request succeeded (handing the
// events it fetched to a consumer) paces the rounds that succeed, not the
// ones that fail. A callee with no error result is taken to pace the loop
// when it waits on a channel anywhere, as for any other call.
func (c *checker) pacesFailure(l *loop, call *ssa.Call) bool {
	callee := call.Common().StaticCallee()
	if callee == nil || callee.Pkg != l.fn.Pkg || len(callee.Blocks) == 0 {
		return c.waits(call, l)
	}
	results := callee.Signature.Results()
	if results.Len() == 0 || !types.Identical(results.At(results.Len()-1).Type(), types.Universe.Lookup("error").Type()) {
		return c.waits(call, l)
	}
	seen := map[*ssa.BasicBlock]bool{}
	stack := []*ssa.BasicBlock{callee.Blocks[0]}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[b] || slices.ContainsFunc(b.Instrs, blocksOnChannel) {
			continue
		}
		seen[b] = true
		if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && !isNilConst(ret.Results[len(ret.Results)-1]) {
			return false // a failure returned with no wait on the way
		}
		stack = append(stack, b.Succs...)
	}
	return true
}

func isNilConst(v ssa.Value) bool {
	k, ok := v.(*ssa.Const)
	return ok && k.IsNil()
}

// before returns the blocks on some path from the loop's head to check.
func (l *loop) before(check *ssa.BasicBlock) map[*ssa.BasicBlock]bool {
	fwd := map[*ssa.BasicBlock]bool{}
	stack := []*ssa.BasicBlock{l.header}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if fwd[b] || !l.blocks[b] {
			continue
		}
		fwd[b] = true
		if b != check {
			stack = append(stack, b.Succs...)
		}
	}
	out := map[*ssa.BasicBlock]bool{}
	stack = []*ssa.BasicBlock{check}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if out[b] || !fwd[b] {
			continue
		}
		out[b] = true
		if b != l.header {
			stack = append(stack, b.Preds...)
		}
	}
	return out
}

// reach returns the blocks of the loop reachable from b before the head.
func (l *loop) reach(b *ssa.BasicBlock) map[*ssa.BasicBlock]bool {
	out := map[*ssa.BasicBlock]bool{}
	stack := []*ssa.BasicBlock{b}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if x == l.header || out[x] || !l.blocks[x] {
			continue
		}
		out[x] = true
		stack = append(stack, x.Succs...)
	}
	return out
}

// waits reports whether instr can make a round of the loop wait: a pause of
// the catalogue, a channel receive, send or blocking select (the loop is
// paced by its producer or consumer), or a call to a function of this
// package that does one of these.
func (c *checker) waits(instr ssa.Instruction, l *loop) bool {
	if p, _ := c.instrPause(instr, l.varies); p != noPause {
		return true
	}
	if blocksOnChannel(instr) {
		return true
	}
	if call, ok := instr.(*ssa.Call); ok {
		if callee := call.Common().StaticCallee(); callee != nil && callee.Pkg == l.fn.Pkg {
			for _, b := range callee.Blocks {
				if slices.ContainsFunc(b.Instrs, blocksOnChannel) {
					return true
				}
			}
		}
	}
	return false
}

func blocksOnChannel(instr ssa.Instruction) bool {
	switch instr := instr.(type) {
	case *ssa.UnOp:
		return instr.Op == token.ARROW
	case *ssa.Send:
		return true
	case *ssa.Select:
		return instr.Blocking
	case *ssa.Call:
		// A condition variable or a wait group: the loop waits for another
		// goroutine.
		if fn := calleeFunc(instr.Common()); fn != nil && fn.Name() == "Wait" && fn.Pkg() != nil && fn.Pkg().Path() == "sync" {
			return true
		}
	}
	return false
}

// noReturn reports a call that does not come back: os.Exit, runtime.Goexit,
// a logger's Fatal or Panic (log.Fatalf, zap's, logrus's), a test's
// Fatal. SSA goes on after them as after any call, so a failure branch
// that ends the program would otherwise fall through into the next round.
func noReturn(instr ssa.Instruction) bool {
	call, ok := instr.(*ssa.Call)
	if !ok {
		return false
	}
	fn := calleeFunc(call.Common())
	if fn == nil {
		return false
	}
	name := fn.Name()
	return name == "Exit" || name == "Goexit" || strings.HasPrefix(name, "Fatal") || strings.HasPrefix(name, "Panic")
}

// consumesItem reports whether the call works on something another call of
// the loop produced (the next tuple of an iterator, a decoded record): when
// it fails, continue skips that item and the next round has different
// input. It also covers the items of iterates.
func (l *loop) consumesItem(common *ssa.CallCommon) bool {
	if l.iterates(common) {
		return true
	}
	seen := map[ssa.Value]bool{}
	var walk func(v ssa.Value) bool
	walk = func(v ssa.Value) bool {
		if v == nil || seen[v] || !l.inLoop(v) {
			return false
		}
		seen[v] = true
		if _, ok := v.(*ssa.Call); ok {
			return true
		}
		return slices.ContainsFunc(operands(v), walk)
	}
	for _, a := range common.Args {
		if ssautil.IsContext(a.Type()) {
			continue // a context derived in the loop (WithTimeout) is the same request
		}
		if walk(a) {
			return true
		}
	}
	return common.IsInvoke() && walk(common.Value)
}

// advances reports an iterator's Next: each call moves on to the next item,
// so going round again after its error skips an item, it does not repeat
// the call.
func advances(common *ssa.CallCommon) bool {
	fn := calleeFunc(common)
	return fn != nil && fn.Name() == "Next" && fn.Signature().Recv() != nil
}

// waitsItself reports a receive given a time to wait for (NextMsg(timeout),
// ReceiveTimeout(ctx, timeout), BLPop(ctx, timeout, keys...)): a
// time.Duration parameter named for a timeout or a wait, so that the call
// itself paces the loop. An expiry (SetNX's expiration) is not a wait.
func waitsItself(common *ssa.CallCommon) bool {
	params := common.Signature().Params()
	for i := range params.Len() {
		p := params.At(i)
		name := strings.ToLower(p.Name())
		if isDuration(p.Type()) && (strings.Contains(name, "timeout") || strings.Contains(name, "wait") || strings.Contains(name, "block")) {
			return true
		}
	}
	return false
}

// ---- calls that reach a peer ----

// networkPath returns how the call reaches the network: through netio's
// catalogue and facts, a method of a generated gRPC client interface, a
// gRPC stream's Recv, or a receive from a broker of the catalogue.
func (c *checker) networkPath(call *ssa.Call) []string {
	common := call.Common()
	if path := c.net.CallReaches(common); path != nil {
		return path
	}
	if path := c.awaitedPath(call); path != nil {
		return path
	}
	fn := calleeFunc(common)
	if fn == nil {
		return nil
	}
	switch {
	case isGRPCClientMethod(fn), isGRPCStreamRecv(common, fn):
		return []string{netio.Name(fn)}
	case c.peers.Has(fn):
		return []string{netio.Name(fn)}
	}
	return nil
}

// awaitedPath is how a request that returns a token reaches the network:
// through the wait on its token in the same function (paho's
// token := client.Connect(); token.Wait() && token.Error() != nil). The
// request is the operation a loop around it retries, though the client
// only queued it: its failure is read from the token after the wait.
func (c *checker) awaitedPath(call *ssa.Call) []string {
	if !slices.Contains(catalog.AwaitedTokens, catalog.TypeKey(call.Type())) {
		return nil
	}
	fn := calleeFunc(call.Common())
	if fn == nil {
		return nil
	}
	for _, ref := range ssautil.Referrers(call) {
		wait, ok := ref.(*ssa.Call)
		if !ok || !wait.Call.IsInvoke() || wait.Call.Value != ssa.Value(call) {
			continue
		}
		if path := c.net.CallReaches(wait.Common()); path != nil {
			return append([]string{netio.Name(fn)}, path...)
		}
	}
	return nil
}

// isPeerCall: the call waits on a peer — it reaches the network, or
// receives the next connection or message.
func (c *checker) isPeerCall(call *ssa.Call) bool {
	if c.networkPath(call) != nil {
		return true
	}
	fn := calleeFunc(call.Common())
	return fn != nil && catalog.ReceiveCalls.Has(fn)
}

func calleeFunc(common *ssa.CallCommon) *types.Func {
	if common.IsInvoke() {
		return common.Method
	}
	if callee := common.StaticCallee(); callee != nil {
		fn, _ := origin(callee).Object().(*types.Func)
		return fn
	}
	return nil
}

// isGRPCClientMethod: a method whose last parameter is ...grpc.CallOption,
// as every method of a generated client has.
func isGRPCClientMethod(fn *types.Func) bool {
	sig := fn.Signature()
	if sig.Recv() == nil || !sig.Variadic() {
		return false
	}
	last := sig.Params().At(sig.Params().Len() - 1).Type()
	s, ok := last.(*types.Slice)
	return ok && catalog.TypeKey(s.Elem()) == catalog.GRPCCallOption
}

// isGRPCStreamRecv: Recv on a gRPC stream, client or server side.
func isGRPCStreamRecv(common *ssa.CallCommon, fn *types.Func) bool {
	if fn.Name() != "Recv" || fn.Signature().Recv() == nil {
		return false
	}
	recv := fn.Signature().Recv().Type()
	if common.IsInvoke() {
		recv = common.Value.Type()
	}
	return catalog.IsGRPCStream(recv)
}
