package main

import (
	"encoding/json"
	"os"
	"runtime/debug"
	"strings"

	"github.com/bhlint/bhlint/internal/lazyssa"
)

// Garbage collector settings for one vet-tool process. go vet starts one
// short-lived process per package; under the default GOGC=100 the collector
// and the page faults of a heap it keeps small took about a quarter of
// bhlint's CPU time on std (bench/RESULTS.md). A larger growth
// factor lets most packages finish with few or no collections, and the soft
// limit keeps the few big packages near go vet's own peak instead of at five
// times their live heap.
const (
	vetGCPercent   = 400
	vetMemoryLimit = 320 << 20 // bytes
)

// tuneVetTool prepares a vet-tool process: the GC settings above, unless the
// user chose their own with GOGC or GOMEMLIMIT; and, when go vet runs the
// tool on a dependency only for its facts (VetxOnly in the *.cfg file, whose
// diagnostics unitchecker discards), tells the passes so through lazyssa, so
// that they skip work that could only report.
func tuneVetTool(args []string) {
	if os.Getenv("GOGC") == "" && os.Getenv("GOMEMLIMIT") == "" {
		debug.SetGCPercent(vetGCPercent)
		debug.SetMemoryLimit(vetMemoryLimit)
	}
	if len(args) > 0 && strings.HasSuffix(args[len(args)-1], ".cfg") {
		var cfg struct{ VetxOnly bool }
		if data, err := os.ReadFile(args[len(args)-1]); err == nil && json.Unmarshal(data, &cfg) == nil {
			lazyssa.SetFactsOnly(cfg.VetxOnly)
		}
	}
}
