// Package bulkhead is a stub of bhlint's runtime, as declared in
// bulkhead/lane.go and bulkhead/executor.go.
package bulkhead

import (
	"context"
	"time"
)

type Lane interface{ Spec() LaneSpec }

type LaneSpec struct {
	Name          string
	MaxConcurrent int
	MaxQueued     int
	QueueTimeout  time.Duration
	Reserved      int
	RetryAfter    time.Duration
}

type Executor[L Lane] struct{}

func NewExecutor[L Lane]() (*Executor[L], error) { return &Executor[L]{}, nil }

func (e *Executor[L]) Do(ctx context.Context, fn func(ctx context.Context) error) error {
	return fn(ctx)
}

func Call[L Lane, T any](ctx context.Context, e *Executor[L], fn func(ctx context.Context) (T, error)) (T, error) {
	return fn(ctx)
}
