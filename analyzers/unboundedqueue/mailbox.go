package unboundedqueue

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/lazyssa"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// A shared channel whose every consumer handles each value in memory is an
// actor's mailbox, not a queue: a request that sends on it waits only for
// the consumer's CPU time between two receives, which no slow dependency can
// stretch (navidrome's event broker, whose one loop adds and removes
// subscribers in a map and hands messages on with a select that drops them
// when a client is full). Its consumers are the functions of the package
// that receive from it (a receive, a range, a select's case); it is a
// mailbox when there is at least one and none of them, through the
// package's static calls, can wait on anything but its next receive.

// isMailbox reports whether the channel named by ch (a field or package
// variable) is such a mailbox.
func (c *checker) isMailbox(ch types.Object) bool {
	if ch == nil {
		return false
	}
	if is, done := c.mailboxes[ch]; done {
		return is
	}
	consumers := c.consumersOf(ch)
	is := len(consumers) > 0
	for _, fn := range consumers {
		is = is && c.handlesInMemory(fn)
	}
	if c.mailboxes == nil {
		c.mailboxes = map[types.Object]bool{}
	}
	c.mailboxes[ch] = is
	return is
}

// consumersOf are the package's functions that receive from ch.
func (c *checker) consumersOf(ch types.Object) []*ssa.Function {
	receivesCh := func(v ssa.Value) bool {
		_, named, ok := throughFields(v)
		return ok && named == ch
	}
	var out []*ssa.Function
	for _, fn := range c.pass.ResultOf[lazyssa.Analyzer].(*lazyssa.Builder).SrcFuncs() {
		if receivesIn(fn, receivesCh) {
			out = append(out, fn)
		}
	}
	return out
}

func receivesIn(fn *ssa.Function, receivesCh func(ssa.Value) bool) bool {
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			switch in := in.(type) {
			case *ssa.UnOp:
				if in.Op == token.ARROW && receivesCh(in.X) {
					return true
				}
			case *ssa.Select:
				for _, st := range in.States {
					if st.Dir == types.RecvOnly && receivesCh(st.Chan) {
						return true
					}
				}
			}
		}
	}
	return false
}

// handlesInMemory reports whether fn, and what it calls in the package,
// never waits but to receive: no plain send and no select that may block
// to send (a select with a default drops the value instead), no network or
// database wait (waitsOnNetwork), no sleep, no Lock (its holder may be
// waiting on anything), no call of a function value, and no call of an
// interface method but context.Context's, reflect.Type's, error's and fmt.Stringer's
// (whatever implements them, they answer at once) and those of the
// package's own interfaces whose implementations there never wait.
func (c *checker) handlesInMemory(fn *ssa.Function) bool {
	c.learnNetworkWaits(true)
	return everyInstr(fn, c.instrNeverWaits)
}

func (c *checker) instrNeverWaits(in ssa.Instruction, walk func(*ssa.Function) bool) bool {
	switch in := in.(type) {
	case *ssa.Send:
		return false
	case *ssa.Select:
		return !in.Blocking || !selectSends(in)
	case *ssa.MakeClosure:
		return walk(in.Fn.(*ssa.Function))
	case *ssa.Go:
		return true // another goroutine's work
	case ssa.CallInstruction:
		return c.callNeverWaits(in.Common(), walk)
	}
	return true
}

func selectSends(sel *ssa.Select) bool {
	for _, st := range sel.States {
		if st.Dir == types.SendOnly {
			return true
		}
	}
	return false
}

func (c *checker) callNeverWaits(common *ssa.CallCommon, walk func(*ssa.Function) bool) bool {
	if _, ok := common.Value.(*ssa.Builtin); ok {
		return true
	}
	if common.IsInvoke() {
		return answersAtOnce(common.Method) || c.implementationsNeverWait(common.Method, walk)
	}
	callee := common.StaticCallee()
	if callee == nil {
		return false // a function value: anything may run
	}
	if obj, ok := callee.Object().(*types.Func); ok {
		if _, sleeps := catalog.Sleeps[obj.FullName()]; sleeps || mutexLocks.Has(obj) {
			return false
		}
	}
	if c.callWaits(common) != "" {
		return false
	}
	if callee.Pkg == c.pass.ResultOf[lazyssa.Analyzer].(*lazyssa.Builder).Package() || callee.Parent() != nil {
		return walk(callee)
	}
	return true
}

// implementationsNeverWait reports whether m is a method of an interface of
// this package that its types implement (navidrome's Event, whose Data
// marshals the event), each with a method that never waits: the
// implementations the package can see, as waitsOnNetwork reads them.
func (c *checker) implementationsNeverWait(m *types.Func, walk func(*ssa.Function) bool) bool {
	if c.methodImpls == nil {
		c.methodImpls = map[*types.Func][]*ssa.Function{}
		prog := c.pass.ResultOf[lazyssa.Analyzer].(*lazyssa.Builder).Package().Prog
		for _, im := range ssautil.LocalImplementationFuncs(c.pass.Pkg, prog) {
			c.methodImpls[im.Method] = append(c.methodImpls[im.Method], im.Impl)
		}
	}
	impls := c.methodImpls[m]
	for _, fn := range impls {
		if !walk(fn) {
			return false
		}
	}
	return len(impls) > 0
}

// answersAtOnce reports whether m is a method of an interface whose every
// implementation answers without waiting: context.Context's (Value, Err,
// Done, Deadline), reflect.Type's, error's Error and fmt.Stringer's String.
func answersAtOnce(m *types.Func) bool {
	switch {
	case m.Pkg() == nil:
		return m.Name() == "Error"
	case m.Pkg().Path() == "context", m.Pkg().Path() == "reflect", m.Pkg().Path() == "fmt" && m.Name() == "String":
		return true
	}
	return false
}
