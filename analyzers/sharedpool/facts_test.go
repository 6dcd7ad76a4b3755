package sharedpool_test

import (
	"bytes"
	"encoding/gob"
	"testing"

	"golang.org/x/tools/go/analysis"
	analysischecker "golang.org/x/tools/go/analysis/checker"

	"github.com/bhlint/bhlint/analyzers/sharedpool"
	"github.com/bhlint/bhlint/internal/lanes"
)

// TestFactsLinear analyses a chain of packages (chain/store, then l1 to
// l4, each importing the one before) and checks that what a package's
// facts file carries grows by about one package's facts per link, not by
// all those before it: a facts file holds the facts of every package
// visible from it, so a summary that copies its dependencies' lists makes
// the files quadratic in the depth of the import graph. Each link adds an
// implementation of an interface method that another reaches no pool
// with (the method is dead: its hash is carried in the dead set), a handler reaching the
// pool (one carried entry per class and pool), and a call through the
// interface by way of the link before (not carried at all, not even in
// the fact of the function that makes it: the method is known dead there).
// (chain/store's own memStore, beside the interface, is a stand-in: no
// proof; l2's Cache is.) chain/top, above l4, declares no implementation: it knows the method is
// dead only from the dead set carried to it, and drops its call all the same.
func TestFactsLinear(t *testing.T) {
	const deadGet = lanes.DispatchPrefix + "(chain/store.Store).Get"
	pkgs := loadTestdata(t, "chain/top")
	graph, err := analysischecker.Analyze([]*analysis.Analyzer{sharedpool.Analyzer}, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range sharedpool.Analyzer.FactTypes {
		gob.Register(f)
	}
	size := map[string]int{}
	for act := range graph.All() {
		if act.Analyzer != sharedpool.Analyzer {
			continue
		}
		path := act.Package.PkgPath
		var facts []analysis.Fact
		for _, pf := range act.AllPackageFacts() {
			facts = append(facts, pf.Fact)
			s, ok := pf.Fact.(*lanes.Summary)
			if !ok || pf.Package.Path() != path {
				continue
			}
			for _, im := range s.Impls {
				if s.Dead.Has(im.Method) {
					t.Errorf("%s: summary carries the implementation %s of %s, which reaches no pool: the dead set is enough", path, im.Impl.Name, im.Method)
				}
			}
			if path != "chain/store" && path != "chain/l1" && !s.Dead.Has(deadGet) {
				t.Errorf("%s: summary's dead set lacks %s (chain/l2's Cache.Get reaches no pool)", path, deadGet)
			}
			slots := map[string]int{}
			for _, cr := range s.Carried {
				for _, u := range append(cr.Entry.Uses, cr.Entry.Dispatch...) {
					slots[cr.Entry.Lane+" "+u.Resource.Key]++
				}
			}
			for slot, n := range slots {
				if n > 1 {
					t.Errorf("%s: summary carries %d entries of %s: one per class and pool is enough", path, n, slot)
				}
			}
		}
		for _, of := range act.AllObjectFacts() {
			facts = append(facts, of.Fact)
			r, ok := of.Fact.(*lanes.Reaches)
			if !ok || of.Object.Pkg().Path() == "chain/l1" {
				continue
			}
			if of.Object.Name() == "Lookup" && len(r.Dispatch) > 0 {
				t.Errorf("%s: %s.Lookup's fact carries %v, a call of a method that reaches no pool, from another package", path, of.Object.Pkg().Path(), r)
			}
		}
		var buf bytes.Buffer
		if err := gob.NewEncoder(&buf).Encode(facts); err != nil {
			t.Fatal(err)
		}
		size[path] = buf.Len()
	}
	t.Logf("facts visible from l1 to l4, encoded: %d, %d, %d, %d bytes", size["chain/l1"], size["chain/l2"], size["chain/l3"], size["chain/l4"])
	d2, d3, d4 := size["chain/l2"]-size["chain/l1"], size["chain/l3"]-size["chain/l2"], size["chain/l4"]-size["chain/l3"]
	if d2 <= 0 || d3 > d2+d2/4 || d4 > d2+d2/4 {
		t.Errorf("the facts grow by %d, %d, then %d bytes a link: more than one link's own", d2, d3, d4)
	}
}
