package sharedpool_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/bhlint/bhlint/analyzers/sharedpool"
	"github.com/bhlint/bhlint/internal/testpkgs"
)

func TestSharedPool(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), sharedpool.Analyzer,
		"ledger", "handlers", "server", "server2", "wiring", "clients", "directives", "dispatch")
}

// TestRelated checks that a finding points along its path: the entry
// point, the functions on the way that another package can name (export
// data has no unexported functions), and the resource's declaration.
func TestRelated(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), sharedpool.Analyzer, "handlers")
	for _, r := range results {
		for _, d := range r.Diagnostics {
			if !strings.Contains(d.Message, "by QuoteHandler → ") {
				continue
			}
			related := testpkgs.Related(r, d)
			want := []string{
				"handlers.go:10 lane tax enters at QuoteHandler",
				"ledger.go:23 through ledger.MerchantOf",
				"ledger.go:9 ledger.CardDB belongs to lane card_auth",
			}
			if !slices.Equal(related, want) {
				t.Errorf("related = %q\nwant %q", related, want)
			}
			return
		}
	}
	t.Error("no finding for QuoteHandler")
}

// TestInfer: with no lanes declared, a pool reached from request handlers
// and from a background loop is reported once, where it is created; a pool
// of the background work's own, a goroutine a request starts, interface
// implementations that disagree, declared lanes and lanes.infer: false
// stay silent.
func TestInfer(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), sharedpool.Analyzer,
		"inferdirect", "inferfields", "inferiface", "inferdisagree", "inferapi", "inferapp", "inferdeclared", "infernone", "inferuncarried", "infernilcheck", "infersetup", "inferfieldwire", "inferfieldtwice", "infercaptured", "infercapturedwire", "inferbackends", "inferbackends/server", "inferbackends/splitserver", "inferlinked", "inferstandin", "infergetter", "infergetter/postgres", "infergetterfunc", "infergetterfunc/router", "infergetterfunc/agent", "inferbranchstore", "inferbranchwire")
}

// TestInferORM: an ORM or query-builder handle (jinzhu/gorm, gorm.io,
// pocketbase/dbx) is the pool it wraps; a gorm association or statement,
// dbx params and a user type named gorm.DB are not pools.
func TestInferORM(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), sharedpool.Analyzer, "infergorm", "infergormio", "inferdbx", "infergroup", "inferstmt", "inferstmtopts/media", "inferstmtopts/inbox", "inferstmtopts", "inferstmtoptstwo", "inferprep", "infersqlx", "inferxorm", "infermongo", "infercron", "infercronjob", "inferconsumer", "infercmdable")
}

// TestInferSetupRelated: a pool opened into a package-level variable by a
// setup function of another package is reported at the call of that
// function, pointing at the line that opens it.
func TestInferSetupRelated(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), sharedpool.Analyzer, "infersetup")
	for _, r := range results {
		for _, d := range r.Diagnostics {
			if slices.Contains(testpkgs.Related(r, d), "models.go:24 infersetupmodels.db is opened here, by gorm.Open") {
				return
			}
		}
	}
	t.Error("no finding points at models.go:24, where Setup opens the pool")
}

// TestInferUseSite: an inferred finding points at the line in each class's
// entry point that leads to the pool, the line a reader changes to give
// the background work its own pool, not only at where the work starts.
func TestInferUseSite(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), sharedpool.Analyzer, "inferdirect")
	want := map[string]bool{
		"inferdirect.go:22 interactive work reaches inferdirect.db here": false,
		"inferdirect.go:28 background work reaches inferdirect.db here":  false,
	}
	for _, r := range results {
		for _, d := range r.Diagnostics {
			for _, got := range testpkgs.Related(r, d) {
				if _, ok := want[got]; ok {
					want[got] = true
				}
			}
		}
	}
	for rel, seen := range want {
		if !seen {
			t.Errorf("no related information %q", rel)
		}
	}
}

// TestInferInnerOpen: a pool opened by a function of its package that
// returns what gorm.Open made (openDB) points at that gorm.Open too, the
// line a reader changes, besides the call of the function.
func TestInferInnerOpen(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), sharedpool.Analyzer, "infercapturedwire")
	testpkgs.WantRelated(t, results,
		"store.go:19 infercaptured.Database.DB is opened here, by infercaptured.open",
		"store.go:15 infercaptured.open opens it here, by gorm.Open",
	)
}

// TestInferBranchesNamed: a pool opened on whichever branch the
// configuration picks, into a local handed to the package that keeps it,
// is reported at the first opening of its type, and the finding names
// the other branches' openings too (openlist's bootstrap.InitDB).
func TestInferBranchesNamed(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), sharedpool.Analyzer, "inferbranchboot")
	testpkgs.WantRelated(t, results,
		"boot.go:34 or opened here, by gorm.Open",
		"boot.go:36 or opened here, by gorm.Open",
	)
}

// TestInferHandedRelated: a pool opened in one package and handed to a
// constructor of another that keeps it in a field is created where it is
// opened: the finding, reported where the program calls the function that
// opens it, points at that opening call, and at the other branch's.
func TestInferHandedRelated(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), sharedpool.Analyzer, "inferbackends/server")
	testpkgs.WantRelated(t, results,
		"app.go:27 sqlstore.Blobs.DB is opened here, by app.open",
		"app.go:29 or opened here, by sql.Open",
	)
}

// TestInferElsewhere: main reaches the pool's creation by no static call,
// and reports the shared pool where the provider package opens it.
func TestInferElsewhere(t *testing.T) {
	elsewhere := &testpkgs.Elsewhere{T: t}
	analysistest.Run(elsewhere, analysistest.TestData(), sharedpool.Analyzer, "inferelsewhere", "inferelsewhere/provider")
	elsewhere.Done()
}

// TestInferWiredTwice: main calls the pool's constructor twice (the
// server's and a migrate command's), and the finding sits at the one call
// that opens the pool for both, in the store package.
func TestInferWiredTwice(t *testing.T) {
	elsewhere := &testpkgs.Elsewhere{T: t}
	analysistest.Run(elsewhere, analysistest.TestData(), sharedpool.Analyzer, "inferwiredtwice", "inferwiredtwice/store")
	elsewhere.Done()
}

// TestInferModuleInterfaces: in a module, calls through an interface the
// module declares in a package that reaches no database (a store's
// interface, its implementation in a sub-package) are carried to where the
// implementations are seen.
func TestInferModuleInterfaces(t *testing.T) {
	elsewhere := &testpkgs.Elsewhere{T: t}
	analysistest.Run(elsewhere, filepath.Join(analysistest.TestData(), "modstore"), sharedpool.Analyzer, "./...")
	elsewhere.Done()
}

// TestInferConfiguredBackends: a storage opened through an interface from
// a map of configurations (dex's StorageConfig), with an in-memory backend
// beside the database's flavours: main, which sees them all, resolves the
// server's calls through the interface to the pool, and reports it at the
// first flavour's opening.
func TestInferConfiguredBackends(t *testing.T) {
	elsewhere := &testpkgs.Elsewhere{T: t}
	analysistest.Run(elsewhere, filepath.Join(analysistest.TestData(), "moddex"), sharedpool.Analyzer, "./...")
	elsewhere.Done()
}

// TestDependencyState: a pool field of a dependency's type that the
// program opens nowhere (a metrics library's collector around a pool,
// never built) is no pool of the program's, whatever reaches it.
func TestDependencyState(t *testing.T) {
	elsewhere := &testpkgs.Elsewhere{T: t}
	analysistest.Run(elsewhere, filepath.Join(analysistest.TestData(), "modmetrics"), sharedpool.Analyzer, "./...")
	elsewhere.Done()
}

// TestProgramFieldIntoDependency: a pool the program opens into its own
// field and hands into a library's fields (a task queue's client and its
// admin pages) is named by the program's field and reported where main
// calls what opens it, pointing at the opening, though both ends reach it
// only through the library's fields. The same module's second command
// (cmd/separate) opens a pool per lane with the same helper and hands them
// through the same library fields: silent, and the first command's finding
// stays, though the queue's field is filled from two of the program's.
func TestProgramFieldIntoDependency(t *testing.T) {
	results := analysistest.Run(t, filepath.Join(analysistest.TestData(), "modqueue"), sharedpool.Analyzer, "./...")
	testpkgs.WantRelated(t, results,
		"services.go:25 services.Container.Database is opened here, by services.openDB",
		"services.go:32 services.openDB opens it here, by sql.Open",
	)
}
