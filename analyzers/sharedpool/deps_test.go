package sharedpool

import (
	"go/types"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/bhlint/bhlint/internal/lanes"
)

// The driver hands package facts over in map order; the summaries must come
// out in import-path order (they decide which implementations are carried
// on past maxImpls), and without the package's own.
func TestDepSummariesInPathOrder(t *testing.T) {
	self := types.NewPackage("example.com/svc", "svc")
	var facts []analysis.PackageFact
	for _, path := range []string{"example.com/store", "example.com/api", "example.com/svc", "example.com/cache"} {
		pkg := types.NewPackage(path, "p")
		if path == self.Path() {
			pkg = self
		}
		facts = append(facts, analysis.PackageFact{Package: pkg, Fact: &lanes.Summary{Pkg: path}})
	}
	facts = append(facts, analysis.PackageFact{Package: types.NewPackage("example.com/aaa", "aaa"), Fact: new(runsInLane)})
	var got []string
	for _, s := range depSummaries(self, facts) {
		got = append(got, s.Pkg)
	}
	want := []string{"example.com/api", "example.com/cache", "example.com/store"}
	if len(got) != len(want) {
		t.Fatalf("depSummaries = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("depSummaries = %v, want %v", got, want)
		}
	}
	if facts[0].Package.Path() != "example.com/store" {
		t.Errorf("depSummaries reordered its argument")
	}
}
