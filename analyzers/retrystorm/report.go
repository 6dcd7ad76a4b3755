package retrystorm

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/netio"
)

func (c *checker) judge(r *retry) {
	if r.spin {
		c.reportSpin(r)
		return
	}
	if c.serverPaced(r) || c.statusPoll(r) {
		return
	}
	bound := c.boundsOf(r)
	p, where := c.pauseOf(r.loop)
	if r.reconnect && p != constantPause {
		return // a reconnect loop with backoff, or paced by a consumer: its pause grows or is not the clock's
	}
	if bound.any() && p == growingPause {
		return
	}
	// A bounded loop that resends after the server asked for credentials
	// (401: authenticate, then retry) follows the protocol: at most one more
	// request per renewed credential, not a storm.
	if bound.any() && r.refusal == 401 {
		return
	}
	// A poll that waits between attempts and gives up at a deadline it
	// reads from the clock (a readiness check: dial every 500ms for at most
	// 10s) sends a known, small number of attempts and ends by itself: not
	// a storm. A context checked in the loop may never end (cancelled only
	// at shutdown), so it is no such deadline.
	if bound.clock && p == constantPause {
		return
	}
	// A bounded loop that goes round only when the datastore answered that
	// another writer won (an optimistic transaction's conflict) retries a
	// lost race on the data, however it pauses: the server is up.
	if bound.any() && c.retriesOnlyConflicts(r) {
		return
	}
	// A bounded loop that retries a local operation at once (a conflict, a
	// bad pooled connection) multiplies no remote load: only a bounded retry
	// of a network call needs a growing pause.
	network, reaches := c.networkPath(r.call), "a network call"
	if network == nil && p == constantPause {
		network, reaches = c.databasePath(r.call), "a database call"
	}
	if bound.any() && network == nil || network == nil && c.staysLocal(r.call) {
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
	subject := "this loop"
	if r.loop.recursion != nil {
		subject = "this call of " + r.loop.fn.Name() + " by itself"
	}
	d := analysis.Diagnostic{
		Pos: c.loopStart(r),
		Message: fmt.Sprintf("%s: %s retries %s %s %s; %s", Code, subject,
			c.operationNameAs(r.call, network, reaches), r.when(), strings.Join(problems, ", "), fixFor(bound, p)),
		Related: c.retriedCall(r),
	}
	if where != nil && where.Pos().IsValid() && p == constantPause {
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: c.callStart(where.Pos()), Message: "the constant wait"})
	}
	if d.Pos.IsValid() {
		c.pass.Report(d)
	}
}

// loopStart is where a retry is reported: the for statement of the loop,
// the line a fix changes (its bound, its pause), which is also where a
// reader of the code sees the retry; the call retried is related
// information. A loop made with goto has no statement: its call stands in;
// a recursion's is the call of itself.
func (c *checker) loopStart(r *retry) token.Pos {
	if r.loop.recursion != nil {
		return c.callStart(r.loop.recursion.Pos()) // a recursion's round starts where it calls itself
	}
	lo, hi := token.NoPos, token.NoPos
	for b := range r.loop.blocks {
		for _, in := range b.Instrs {
			if _, phi := in.(*ssa.Phi); phi {
				continue // placed at the variable's declaration, before the loop
			}
			if p := in.Pos(); p.IsValid() {
				if !lo.IsValid() || p < lo {
					lo = p
				}
				hi = max(hi, p)
			}
		}
	}
	var best ast.Node
	for _, f := range c.pass.Files {
		if f.Pos() > lo || lo > f.End() {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if n == nil || n.Pos() > lo || n.End() <= hi {
				return n == nil || n.Pos() <= lo && n.End() > lo
			}
			switch n.(type) {
			case *ast.ForStmt, *ast.RangeStmt:
				best = n // the innermost loop holding every instruction of the SSA loop
			}
			return true
		})
	}
	if best == nil {
		return c.callStart(r.call.Pos())
	}
	return best.Pos()
}

func (c *checker) retriedCall(r *retry) []analysis.RelatedInformation {
	pos := c.callStart(r.call.Pos())
	if !pos.IsValid() {
		return nil
	}
	return []analysis.RelatedInformation{{Pos: pos, Message: "the call retried"}}
}

// reportSpin reports a reader loop that goes round again at once on an
// error.
func (c *checker) reportSpin(r *retry) {
	pos := c.loopStart(r)
	if !pos.IsValid() {
		return
	}
	why := "once its listener, connection, stream or subscription is closed every call fails at once, and the loop spins and floods the log; " +
		"return the error (or leave on the errors that persist, such as net.ErrClosed or io.EOF), or wait with exponential backoff and jitter before the next attempt"
	if c.makesRequest(r.call) {
		why = "while its server is down every request fails at once, and the loop sends the next one back to back until the process stops; " +
			"wait with exponential backoff and jitter before the next attempt, or return the error"
	}
	c.pass.Report(analysis.Diagnostic{
		Pos:     pos,
		Related: c.retriedCall(r),
		Message: fmt.Sprintf("%s: this loop calls %s again at once when it fails, with no pause and no way out on an error: %s", Code,
			c.operationName(r.call, c.networkPath(r.call)), why),
	})
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
	return c.operationNameAs(call, path, "a network call")
}

// operationNameAs names the call and, when it reaches its wait through
// other functions, the path, as reaching what ("a database call").
func (c *checker) operationNameAs(call *ssa.Call, path []string, reaches string) string {
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
		return name + " (" + reaches + ": → " + strings.Join(path[1:], " → ") + ")"
	}
	return name
}

// callStart maps the Lparen position SSA records for a call to the start of
// the call expression.
func (c *checker) callStart(lparen token.Pos) token.Pos {
	return c.starts.Start(c.pass.Files, lparen)
}
