// Package bulkhead is a stub of bhlint's runtime: just the lane-typed API.
package bulkhead

import (
	"context"
	"net/http"
)

type LaneSpec struct{ Name string }

type Lane interface{ Spec() LaneSpec }

type Executor[L Lane] struct{}

func NewExecutor[L Lane]() (*Executor[L], error) { return &Executor[L]{}, nil }

func (e *Executor[L]) Do(ctx context.Context, fn func(ctx context.Context) error) error {
	return fn(ctx)
}

func (e *Executor[L]) Handler(next http.Handler) http.Handler { return next }

func Call[L Lane, T any](ctx context.Context, e *Executor[L], fn func(ctx context.Context) (T, error)) (T, error) {
	return fn(ctx)
}
