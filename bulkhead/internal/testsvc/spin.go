package testsvc

import "sync/atomic"

var sink atomic.Uint64

// Spin is a few hundred nanoseconds of work, for benchmarks that hold a
// slot long enough for other callers to queue behind it.
func Spin() {
	x := uint64(1)
	for i := range 200 {
		x = x*6364136223846793005 + uint64(i)
	}
	sink.Add(x & 1)
}
