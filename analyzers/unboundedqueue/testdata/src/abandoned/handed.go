package abandoned

import (
	"context"
	"errors"
)

// Result is a check's answer.
type Result struct {
	Member bool
	Err    error
}

// CheckFunc answers on the channel it is handed: send-only, for it to send
// on.
type CheckFunc func(ctx context.Context, out chan<- Result)

// CheckTuple hands its channel to a check it runs in a goroutine and gives
// up when the request ends: the check's send then waits for ever.
func CheckTuple(ctx context.Context, check CheckFunc) Result {
	resultCh := make(chan Result)
	go check(ctx, resultCh) // want `goroutine abandoned on its send: when the select takes its other case, the function returns and nothing receives from resultCh`
	select {
	case r := <-resultCh:
		return r
	case <-ctx.Done():
		return Result{Err: errors.New("cancelled")}
	}
}

// Inverted returns a check that runs another and gives up when its context
// ends: the select ends the function, so its other case leaves as a return
// would.
func Inverted(check CheckFunc) CheckFunc {
	return func(ctx context.Context, out chan<- Result) {
		innerCh := make(chan Result)
		go check(ctx, innerCh) // want `goroutine abandoned on its send: .* nothing receives from innerCh`
		select {
		case r := <-innerCh:
			r.Member = !r.Member
			out <- r
		case <-ctx.Done():
			out <- Result{Err: ctx.Err()}
		}
	}
}

// lookup sends its answer plainly on the channel it is handed.
func lookup(ctx context.Context, name string, out chan Result) {
	out <- Result{Member: name != ""}
}

// LookupOrGiveUp runs lookup, a function of this package, and gives up.
func LookupOrGiveUp(ctx context.Context, name string) Result {
	ch := make(chan Result)
	go lookup(ctx, name, ch) // want `goroutine abandoned on its send: .* nothing receives from ch`
	select {
	case r := <-ch:
		return r
	case <-ctx.Done():
		return Result{Err: ctx.Err()}
	}
}

// ---- traps: must stay silent ----

// lookupOrLeave sends in a select that also watches the context: it leaves
// when its caller has.
func lookupOrLeave(ctx context.Context, name string, out chan Result) {
	select {
	case out <- Result{Member: name != ""}:
	case <-ctx.Done():
	}
}

// LeavesWithCaller: the goroutine gives up with its caller.
func LeavesWithCaller(ctx context.Context, name string) Result {
	ch := make(chan Result)
	go lookupOrLeave(ctx, name, ch)
	select {
	case r := <-ch:
		return r
	case <-ctx.Done():
		return Result{Err: ctx.Err()}
	}
}

// Relay is a function value whose channel parameter goes both ways: it may
// as well receive, so nothing says it blocks on a send.
type Relay func(ctx context.Context, ch chan Result)

// RelayOrGiveUp hands its channel to a relay.
func RelayOrGiveUp(ctx context.Context, relay Relay) Result {
	ch := make(chan Result)
	go relay(ctx, ch)
	select {
	case r := <-ch:
		return r
	case <-ctx.Done():
		return Result{Err: ctx.Err()}
	}
}

// WaitsInLoop: the select is not the function's end, the loop goes round
// and receives in the end.
func WaitsInLoop(ctx context.Context, check CheckFunc, ticks <-chan struct{}) Result {
	ch := make(chan Result)
	go check(ctx, ch)
	for {
		select {
		case r := <-ch:
			return r
		case <-ticks:
		}
	}
}
