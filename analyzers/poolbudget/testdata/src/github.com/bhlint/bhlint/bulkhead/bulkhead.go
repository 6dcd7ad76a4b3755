// Package bulkhead is a stub of bhlint's runtime: the lane type and the
// executor.
package bulkhead

type LaneSpec struct {
	Name          string
	MaxConcurrent int
}

type Lane interface{ Spec() LaneSpec }

type Option func()

type Executor[L Lane] struct{}

func NewExecutor[L Lane](opts ...Option) (*Executor[L], error) { return &Executor[L]{}, nil }

func MustExecutor[L Lane](opts ...Option) *Executor[L] { return &Executor[L]{} }
