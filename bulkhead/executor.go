package bulkhead

import (
	"context"
	"log/slog"
)

// Executor runs work in lane L: at most L's MaxConcurrent calls at once, at
// most MaxQueued callers waiting, each for at most QueueTimeout. Create one
// per lane per process and share it; every Executor has its own slots.
type Executor[L Lane] struct {
	l *limiter
}

// Option configures an Executor.
type Option func(*options)

type options struct {
	clock     Clock
	observers []Observer
	breaker   Breaker
	logger    *slog.Logger
}

// WithClock sets the executor's time source; tests use it to drive queue
// timeouts and lane states without sleeping.
func WithClock(c Clock) Option { return func(o *options) { o.clock = c } }

// WithObserver adds an observer of the executor's events (admissions,
// rejections, state changes), such as the promlane collector.
func WithObserver(obs Observer) Option {
	return func(o *options) { o.observers = append(o.observers, obs) }
}

// NewExecutor creates the executor of lane L from L's Spec. The error says
// what in the spec to fix.
func NewExecutor[L Lane](opts ...Option) (*Executor[L], error) {
	spec, err := resolveSpec[L]()
	if err != nil {
		return nil, err
	}
	o := options{clock: realClock{}}
	for _, opt := range opts {
		opt(&o)
	}
	e := &Executor[L]{l: newLimiter(spec, &o)}
	if o.breaker != nil {
		e.l.breakerState = o.breaker.State()
		if err := o.breaker.Bind(spec.Name, e.l.breakerChanged); err != nil {
			return nil, err
		}
	}
	e.l.emit(Event{Kind: EventAttached, Lane: spec.Name, Source: e})
	return e, nil
}

// MustExecutor is NewExecutor for package-level variables: it panics if L's
// spec is invalid.
func MustExecutor[L Lane](opts ...Option) *Executor[L] {
	e, err := NewExecutor[L](opts...)
	if err != nil {
		panic(err)
	}
	return e
}

// Do runs fn in the lane once a slot is free, and returns fn's error. If the
// lane does not run fn it returns a [*Rejection] (or, if the caller's context
// was canceled, an error wrapping context.Canceled) and fn is never called.
//
// fn gets the caller's ctx, marked with the lane (see [LaneOf]) and otherwise
// unchanged: its deadline is the caller's, so the time spent in the queue has
// already been taken from it. The slot is released when fn
// returns or panics; a panic goes on up after the release.
//
// With a breaker ([WithBreaker]) an open breaker rejects the work at once;
// with a MaxRunTime the work's context is cancelled once it has run that
// long, and the slot is still released only when fn returns.
func (e *Executor[L]) Do(ctx context.Context, fn func(ctx context.Context) error) error {
	if e.l.guarded {
		return e.l.run(ctx, e.critical(ctx), fn)
	}
	if err := e.l.acquire(ctx, e.critical(ctx)); err != nil {
		return err
	}
	defer e.l.release()
	err := fn(inLane(ctx, e.l.spec.Name))
	if e.l.lag.Load() != lagIdle {
		e.l.noteOutcome(DependencyFailure(err))
	}
	return err
}

// Call is Do for work that returns a value.
func Call[L Lane, T any](ctx context.Context, e *Executor[L], fn func(ctx context.Context) (T, error)) (T, error) {
	if e.l.guarded {
		var v T
		err := e.l.run(ctx, e.critical(ctx), func(ctx context.Context) (err error) {
			v, err = fn(ctx)
			return err
		})
		return v, err
	}
	if err := e.l.acquire(ctx, e.critical(ctx)); err != nil {
		var zero T
		return zero, err
	}
	defer e.l.release()
	v, err := fn(inLane(ctx, e.l.spec.Name))
	if e.l.lag.Load() != lagIdle {
		e.l.noteOutcome(DependencyFailure(err))
	}
	return v, err
}

// critical looks up the critical mark only for lanes that reserve slots,
// keeping the context walk off the common path.
func (e *Executor[L]) critical(ctx context.Context) bool {
	return e.l.spec.Reserved > 0 && IsCritical(ctx)
}

// Spec is the lane's resolved spec, defaults filled in.
func (e *Executor[L]) Spec() LaneSpec { return e.l.spec }

// State is the lane's current state.
func (e *Executor[L]) State() State { return e.Stats().State }

// Stats is a snapshot of the lane.
func (e *Executor[L]) Stats() Stats { return e.l.stats() }

type criticalKey struct{}

// WithCritical marks work done with the returned context as critical: it may
// use the slots a lane reserves with LaneSpec.Reserved.
func WithCritical(ctx context.Context) context.Context {
	return context.WithValue(ctx, criticalKey{}, true)
}

// IsCritical reports whether ctx was marked with WithCritical.
func IsCritical(ctx context.Context) bool {
	v, _ := ctx.Value(criticalKey{}).(bool)
	return v
}
