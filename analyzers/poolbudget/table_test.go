package poolbudget_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/bhlint/bhlint/analyzers/poolbudget"
	"github.com/bhlint/bhlint/internal/testpkgs"
)

// TestTable: the arithmetic of every main package against every declared
// database and dependency, within the limits or not, with facts carried
// in memory from the store package to the commands that call it.
func TestTable(t *testing.T) {
	pkgs := testpkgs.Load(t, packages.LoadAllSyntax, "budget/cmd/twopools", "budget/cmd/within", "budget/cmd/lanes", "budget/cmd/unbounded", "nocfg/cmd/svc")
	rows, err := poolbudget.Table(pkgs)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rows {
		got = append(got, fmt.Sprintf("%s: %s [exceeds %v, per replica %d]", r.Command, r.Arithmetic(), r.Exceeds(), r.PerReplica))
	}
	want := []string{
		"budget/cmd/lanes: 30 replicas × (5 taxDB + 40 cardDB) = 1350 connections to database main, which allows 97 (max-connections 100 − reserved 3) [exceeds true, per replica 3]",
		"budget/cmd/lanes: 30 replicas × (30 fraudExec) = 900 concurrent calls to dependency fraud-api, which can take 200 [exceeds true, per replica 6]",
		"budget/cmd/lanes: 30 replicas × (8 taxAPI) = 240 concurrent calls to dependency tax-api, which can take 100 [exceeds true, per replica 3]",
		"budget/cmd/twopools: 30 replicas × (20 ordersDB + 20 reportsDB) = 1200 connections to database main, which allows 97 (max-connections 100 − reserved 3) [exceeds true, per replica 3]",
		"budget/cmd/unbounded: db has no maximum, so 30 replicas may open as many connections to database main as their load asks for, which allows 97 (max-connections 100 − reserved 3) [exceeds true, per replica 3]",
		"budget/cmd/within: 30 replicas × (3 db) = 90 connections to database main, which allows 97 (max-connections 100 − reserved 3) [exceeds false, per replica 3]",
	}
	if !slices.Equal(got, want) {
		t.Errorf("table:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
