package poolbudget_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/bhlint/bhlint/analyzers/poolbudget"
)

func TestPoolBudget(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), poolbudget.Analyzer,
		"budget/...", "multidb/...", "nocfg/...", "tools/...", "registry/...", "urfave/...", "cobra/...")
}

// TestRelatedPointsAtEachPool: the finding at main's name points at each
// pool counted: where main's package creates it, or main's call that
// leads to the constructor in another package, which the message names
// with its file and line.
func TestRelatedPointsAtEachPool(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), poolbudget.Analyzer, "budget/cmd/twopools", "budget/cmd/twice", "multidb/cmd/svc")
	var got []string
	for _, r := range results {
		for _, d := range r.Diagnostics {
			for _, rel := range d.Related {
				p := r.Pass.Fset.Position(rel.Pos)
				got = append(got, fmt.Sprintf("%s:%d: %s", filepath.Base(filepath.Dir(p.Filename)), p.Line, rel.Message))
			}
		}
	}
	want := []string{
		"twopools:10: ordersDB: 20 connections, created here by sql.Open",
		"twopools:12: reportsDB: 20 connections, created here by sql.Open",
		"twice:12: orders: 2 connections, created by sql.Open in store.Open at store/store.go:13",
		"twice:13: reports: 2 connections, created by sql.Open in store.Open at store/store.go:13",
		"svc:13: ordersDB: 60 connections, created here by sql.Open",
		"svc:22: audit: 50 connections, created by sql.Open in main.open at svc/main.go:22",
	}
	if !slices.Equal(got, want) {
		t.Errorf("related:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
