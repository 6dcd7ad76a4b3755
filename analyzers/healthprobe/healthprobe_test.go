package healthprobe_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/bhlint/bhlint/analyzers/healthprobe"
	"github.com/bhlint/bhlint/internal/testpkgs"
)

func TestHealthProbe(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), healthprobe.Analyzer, "app", "grpcsvc", "libchecks", "router", "healthiface", "gormstore", "service", "wiring", "wiredmain", "wiredtest", "enginecheck", "srvmain", "fieldprobe", "fieldapp", "fieldroutes", "ownrouter", "fiberprobe", "hprobe", "ctxpool", "moovchecks", "github.com/stretchr/testify/assert")
}

// TestElsewhereRelated: a probe whose handler's body is in another package
// (a method of a handler type there, the closure a factory there returns)
// is reported at its registration, and points at the handler's line that
// leads to the pool (the line a fix changes) and at the pool's use, which
// another package's facts record; one line when they are the same.
func TestElsewhereRelated(t *testing.T) {
	want := map[int][]string{
		15: {"router.go:15 the probe is registered here", "handlers.go:17 the database pool Health.db is used here: (*sql.DB).PingContext"},
		16: {"router.go:16 the probe is registered here", "handlers.go:27 the database pool passed to router.Setup is used here: (*sql.DB).PingContext"},
		19: {"router.go:19 the probe is registered here", "handlers.go:42 the probe's code that leads to it", "handlers.go:49 the database pool passed to router.Setup is used here: (*sql.DB).PingContext"},
	}
	results := analysistest.Run(t, analysistest.TestData(), healthprobe.Analyzer, "router")
	seen := 0
	for _, r := range results {
		for _, d := range r.Diagnostics {
			line := r.Pass.Fset.Position(d.Pos).Line
			if w, ok := want[line]; ok {
				seen++
				if got := testpkgs.Related(r, d); !slices.Equal(got, w) {
					t.Errorf("router.go:%d related = %q\nwant %q", line, got, w)
				}
			}
		}
	}
	if seen != len(want) {
		t.Errorf("%d of the %d registrations reported", seen, len(want))
	}
}

// TestEveryChecker: a probe that asks each of its checkers through one
// interface names every implementation that reaches a pool, not only the
// first: each is a line a fix changes.
func TestEveryChecker(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), healthprobe.Analyzer, "checkall/cmd")
	related := testpkgs.AllRelated(results)
	for _, w := range []string{"connectors.go:12", "pipelines.go:12"} {
		if !slices.ContainsFunc(related, func(s string) bool { return strings.HasPrefix(s, w+" ") }) {
			t.Errorf("no related information at %s; got %q", w, related)
		}
	}
	// Trap: the in-memory checker reaches no pool.
	if slices.ContainsFunc(related, func(s string) bool { return strings.HasPrefix(s, "connectors.go:18 ") }) {
		t.Errorf("the in-memory checker is named: %q", related)
	}
}

// TestPgxV4Pool: pgx v4's pool is a pool as v5's is (the catalogue's module
// alias): a health handler a factory returns, borrowing a connection from
// the services' one pool behind a struct field (exposure-notifications-
// server's HandleHealthz), is reported at its registration; a probe that
// reads a cached status, one that reads the pool's statistics and one that
// opens its own pool stay silent.
func TestPgxV4Pool(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), healthprobe.Analyzer, "pgx4svc")
}

// TestOwnPoolElsewhere: a probe whose handler comes from another package's
// factory, and opens a pool of its own there (per probe, per handler, or
// handed to a helper that keeps nothing), is clean; one that borrows its
// caller's pool, or keeps the pool it opens where request code reads it,
// is reported.
func TestOwnPoolElsewhere(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), healthprobe.Analyzer, "ownchecks", "ownsvc")
}

// TestUseInOtherModule: a probe that reaches the shared client through
// another module's code (a generated API client) points its related
// information at its own module's call into that module, the line a fix
// changes, not at the client module's.
func TestUseInOtherModule(t *testing.T) {
	results := analysistest.Run(t, filepath.Join(analysistest.TestData(), "modprobe"), healthprobe.Analyzer, "./...")
	related := testpkgs.AllRelated(results)
	for _, w := range []string{"main.go:19", "lists.go:24"} {
		if !slices.ContainsFunc(related, func(s string) bool { return strings.HasPrefix(s, w+" ") }) {
			t.Errorf("no related information at %s, the module's call into the client; got %q", w, related)
		}
	}
	if slices.ContainsFunc(related, func(s string) bool { return strings.HasPrefix(s, "apiclient.go:") }) {
		t.Errorf("related information points into the client's module: %q", related)
	}
}
