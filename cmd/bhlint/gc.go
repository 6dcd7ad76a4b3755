package main

import (
	"encoding/json"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync/atomic"

	"github.com/bhlint/bhlint/internal/lazyssa"
)

// Garbage collector settings for one vet-tool process. go vet starts one
// short-lived process per package; under the default GOGC=100 the collector
// and the page faults of a heap it keeps small took about a quarter of
// bhlint's CPU time on std (bench/RESULTS.md). A larger growth
// factor lets most packages finish with few or no collections, and the soft
// limit keeps the big packages near go vet's own peak instead of at five
// times their live heap.
//
// A fixed limit hurts the few huge packages whose live heap comes near it
// (generated code such as modernc.org/sqlite/lib, ~340 MB live): every
// collection frees little, the next one starts at once, and the collector
// took 44% of the process's CPU. So the limit follows the live heap: after
// each collection it is raised to vetLiveFactor times the live heap when that
// is above the floor, which is what GOGC=100 (go vet's setting) allows such a
// package. The limit is never lowered.
const (
	vetGCPercent   = 400
	vetMemoryLimit = 320 << 20 // bytes: the floor of the soft limit
	vetLiveFactor  = 2
)

// tuneVetTool prepares a vet-tool process: the GC settings above, unless the
// user chose their own with GOGC or GOMEMLIMIT; huge pages for the heap where
// the kernel gives them only on request (preferHugePages); and, when go vet
// runs the tool on a dependency only for its facts (VetxOnly in the *.cfg
// file, whose diagnostics unitchecker discards), tells the passes so through
// lazyssa, so that they skip work that could only report.
func tuneVetTool(args []string) {
	if os.Getenv("GOGC") == "" && os.Getenv("GOMEMLIMIT") == "" {
		debug.SetGCPercent(vetGCPercent)
		debug.SetMemoryLimit(vetMemoryLimit)
		followLiveHeap(vetMemoryLimit, vetLiveFactor)
	}
	preferHugePages()
	if len(args) > 0 && strings.HasSuffix(args[len(args)-1], ".cfg") {
		var cfg struct{ VetxOnly bool }
		if data, err := os.ReadFile(args[len(args)-1]); err == nil && json.Unmarshal(data, &cfg) == nil {
			lazyssa.SetFactsOnly(cfg.VetxOnly)
		}
	}
}

// scaledLimit is the soft memory limit for a live heap of live bytes: floor,
// or factor times the live heap when that is more.
func scaledLimit(live uint64, floor int64, factor uint64) int64 {
	if want := live * factor; want > uint64(floor) && want < 1<<62 {
		return int64(want)
	}
	return floor
}

// followLiveHeap raises the soft memory limit after every collection to
// scaledLimit of the live heap the collection left, never lowering it, until
// stop is called. It runs from a finalizer, which the runtime calls after the
// collection that found its object unreachable; each call arms the next.
func followLiveHeap(floor int64, factor uint64) (stop func()) {
	var stopped atomic.Bool
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	limit := floor
	var arm func()
	arm = func() {
		runtime.SetFinalizer(new([32]byte), func(*[32]byte) {
			if stopped.Load() {
				return
			}
			metrics.Read(sample)
			if sample[0].Value.Kind() == metrics.KindUint64 {
				if l := scaledLimit(sample[0].Value.Uint64(), floor, factor); l > limit {
					limit = l
					debug.SetMemoryLimit(l)
				}
			}
			arm()
		})
	}
	arm()
	return func() { stopped.Store(true) }
}
