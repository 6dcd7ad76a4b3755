// Package bulkhead is a stub of bhlint's runtime: just the lane-typed API.
package bulkhead

import "context"

type LaneSpec struct{ Name string }

type Lane interface{ Spec() LaneSpec }

type Executor[L Lane] struct{}

func NewExecutor[L Lane]() (*Executor[L], error) { return &Executor[L]{}, nil }

func (e *Executor[L]) Do(ctx context.Context, fn func(ctx context.Context) error) error {
	return fn(ctx)
}
