package unboundedqueue

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/netio"
	"github.com/bhlint/bhlint/internal/pkgscope"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// checkSendsPerRequest finds, on a request's path, a plain send on a
// channel every request shares (shape 10): the request waits until a
// consumer takes the value, with no deadline, so while the consumers are
// busy or gone every request waits there, and the queue's only bound is
// the number of requests. A send in a select (with the request's context,
// a timer or a default) is not one; nor a send of struct{} (a signal or a
// semaphore's slot, a bound of its own); nor a send on an actor's mailbox
// (isMailbox), whose consumer only computes between receives.
func (c *checker) checkSendsPerRequest() {
	if !c.serving || !c.sendsOnChannel() {
		return
	}
	sends, sendFrames := onRequestPath(c, func(send *ssa.Send, fr *requestFrame) bool { return c.sharedQueue(send, fr) })
	for _, send := range sends {
		c.reportRequestSend(send, sendFrames[send].entry)
	}
}

// sendsOnChannel reports whether the package has a send statement at all:
// most do not, and need no SSA for this shape.
func (c *checker) sendsOnChannel() bool {
	for _, f := range c.pass.Files {
		if c.isTest(f) {
			continue
		}
		found := false
		ast.Inspect(f, func(n ast.Node) bool {
			_, isSend := n.(*ast.SendStmt)
			found = found || isSend
			return !found
		})
		if found {
			return true
		}
	}
	return false
}

// sharedQueue reports whether send puts a value on a channel that outlives
// the request: a package variable, or a field of a value the request did
// not make (the handler's receiver, what it captures, their fields).
func (c *checker) sharedQueue(send *ssa.Send, fr *requestFrame) bool {
	if isEmptyStruct(send.X.Type()) || returnsToken(send) != nil {
		return false // a signal, or a token given back to the slot it was taken from
	}
	key, named, ok := throughFields(send.Chan)
	if !ok || c.isMailbox(named) || c.handedToImporters(named) {
		return false
	}
	if _, global := key.root.(*ssa.Global); !global && named == nil {
		return false
	}
	return c.sharedRoot(key, fr)
}

// handedToImporters reports whether obj, a channel variable or field of
// this package, is there for importers to receive from: the package makes
// the channel, hands it out (exported, or returned by a function of the
// package: Events() <-chan Event) and receives from it nowhere. Its
// consumer is the importer's code, which this package cannot see (tusd's
// CreatedUploads, read by the hooks of the binary that embeds the
// handler): the escape policy leaves it to them. A channel another package
// made and handed in (crowdsec's DeleteDecisionChannel, made by the papi
// that reads it) is still judged here.
func (c *checker) handedToImporters(obj types.Object) bool {
	if obj == nil || obj.Pkg() != c.pass.Pkg || c.receivedInPackage(obj) || !c.madeInPackage(obj) {
		return false
	}
	return obj.Exported() || c.returnedByPackage(obj)
}

// madeInPackage reports whether a function of the package stores a new
// channel (make(chan …)) in obj: obj = make(…), x.obj = make(…), or
// T{obj: make(…)}.
func (c *checker) madeInPackage(obj types.Object) bool {
	isMake := func(e ast.Expr) bool { return c.makeCall(e) != nil }
	found := false
	for _, f := range c.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for i, lhs := range n.Lhs {
					if id := identOf(lhs); id != nil && c.pass.TypesInfo.ObjectOf(id) == obj && i < len(n.Rhs) && isMake(n.Rhs[i]) {
						found = true
					}
				}
			case *ast.KeyValueExpr:
				if id, ok := n.Key.(*ast.Ident); ok && c.pass.TypesInfo.ObjectOf(id) == obj && isMake(n.Value) {
					found = true
				}
			case *ast.ValueSpec:
				for i, name := range n.Names {
					if c.pass.TypesInfo.Defs[name] == obj && i < len(n.Values) && isMake(n.Values[i]) {
						found = true
					}
				}
			}
			return !found
		})
	}
	return found
}

// returnedByPackage reports whether a function of the package returns the
// value of obj (return s.events).
func (c *checker) returnedByPackage(obj types.Object) bool {
	found := false
	for _, f := range c.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if ret, ok := n.(*ast.ReturnStmt); ok {
				for _, r := range ret.Results {
					if id := identOf(r); id != nil && c.pass.TypesInfo.ObjectOf(id) == obj {
						found = true
					}
				}
			}
			return !found
		})
	}
	return found
}

func isEmptyStruct(t types.Type) bool {
	st, ok := t.Underlying().(*types.Struct)
	return ok && st.NumFields() == 0
}

func (c *checker) reportRequestSend(send *ssa.Send, entry *ssa.Function) {
	_, named, _ := throughFields(send.Chan)
	// An importer's request path may reach the same send through a call
	// (checkRequestCallsParked): noContextWaitsReported carries it on.
	p := c.pass.Fset.Position(send.Pos())
	c.reportedWaits = append(c.reportedWaits, fmt.Sprintf("%s:%d", p.Filename, p.Line))
	c.reportPerRequest(send.Pos(), entry,
		"send with no deadline on every request: "+entryName(entry)+" waits here until a consumer takes its value from "+
			named.Name()+", a channel every request shares, with no select on the request's context or a timer; "+
			"while the consumers are busy or gone every request waits here, and the queue has no bound but the number of requests; "+
			"select on the request's context (or a timeout) and answer 503, or drop the value when the queue is full (select with default)")
}

// reportPerRequest reports a wait at pos once, with the per-request
// function as related information.
func (c *checker) reportPerRequest(pos token.Pos, entry *ssa.Function, msg string) {
	if !pos.IsValid() || c.reported[pos] {
		return
	}
	c.reported[pos] = true
	d := analysis.Diagnostic{Pos: pos, Message: Code + ": " + msg}
	if at := entry.Pos(); at.IsValid() && at != pos {
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: at, Message: "the per-request function (" + entryName(entry) + ")"})
	}
	c.pass.Report(d)
}

// checkRequestCallsParked finds, on a request's path, a call into another
// package's function that parks on a queue's send (parksOnSend with its
// line): shape 10 through a call, as a handler that calls a service whose
// notification queue's Send does ch <- msg with no deadline. Per-request
// is whatever an entry point reaches, whatever the package the send is
// in; the line to change is the send, reported there once (the first
// package on the imports' way whose request reaches it), with the call
// and the entry point as related information. Silent when the queue hangs
// off a value the request made (the fact's Owner: a connection it
// accepted, with its own consumer).
func (c *checker) checkRequestCallsParked() {
	if !c.serving || !pkgscope.UsesFunc(c.pass.TypesInfo, func(fn *types.Func) bool { return c.foreignQueueSend(fn) != nil }) {
		return
	}
	calls, frames := onRequestPath(c, func(call *ssa.Call, fr *requestFrame) bool {
		f := c.foreignQueueSend(calledFunc(call.Common()))
		return f != nil && c.ownerShared(call.Common(), f, fr)
	})
	var starts ssautil.CallStarts
	for _, call := range calls {
		f := c.foreignQueueSend(calledFunc(call.Common()))
		key := fmt.Sprintf("%s:%d", f.File, f.Line)
		if c.reportedElsewhere()[key] || slices.Contains(c.reportedWaits, key) {
			continue
		}
		c.reportedWaits = append(c.reportedWaits, key)
		entry := frames[call].entry
		d := c.diagnostic(c.posOf(f.File, f.Line), starts.Start(c.pass.Files, call.Pos()), "a request's path calls it here",
			"send with no deadline on every request: %s reaches this send through %s and waits here until a consumer takes its value from %s, "+
				"a channel every request shares, with no select on the request's context or a timer; "+
				"while the consumers are busy or gone every request waits here, and the queue has no bound but the number of requests; "+
				"select on the request's context (or a timeout) and answer 503, or drop the value when the queue is full (select with default)",
			entryName(entry), netio.Name(calledFunc(call.Common())), f.Chan)
		if at := entry.Pos(); at.IsValid() {
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: at, Message: "the per-request function (" + entryName(entry) + ")"})
		}
		c.emit(d)
	}
}

// foreignQueueSend is the parksOnSend fact of fn, a function or interface
// method of another package, when it carries the queue's send line.
func (c *checker) foreignQueueSend(fn *types.Func) *parksOnSend {
	if fn == nil || fn.Pkg() == c.pass.Pkg {
		return nil
	}
	if f := c.parkFact(fn); f != nil && f.File != "" {
		return f
	}
	return nil
}

// ownerShared reports whether the queue a call parks on is one every
// request shares: it hangs off no parameter (a package variable), or off
// an argument (the receiver first) that outlives the request (sharedRoot).
func (c *checker) ownerShared(common *ssa.CallCommon, f *parksOnSend, fr *requestFrame) bool {
	if f.Owner <= 0 {
		return true
	}
	args := common.Args
	if common.IsInvoke() {
		args = append([]ssa.Value{common.Value}, args...)
	}
	if f.Owner-1 >= len(args) {
		return false
	}
	key, _, ok := throughFields(args[f.Owner-1])
	return ok && c.sharedRoot(key, fr)
}
