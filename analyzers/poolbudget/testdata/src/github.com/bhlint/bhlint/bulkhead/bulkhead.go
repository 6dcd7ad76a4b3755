// Package bulkhead is a stub of bhlint's runtime: the lane type.
package bulkhead

type LaneSpec struct {
	Name          string
	MaxConcurrent int
}

type Lane interface{ Spec() LaneSpec }
