package lanes

import "testing"

// TestInferredConflicts: a struct-field pool reached from both inferred
// classes is a conflict; an HTTP client is not; a declared lane anywhere
// turns the inferred classes off.
func TestInferredConflicts(t *testing.T) {
	pool := Resource{Key: "app/store.Store.db", Name: "store.Store.db", Noun: "database pool"}
	client := Resource{Key: "app/store.Store.http", Name: "store.Store.http", Noun: "HTTP client"}
	entry := func(class, name string, rs ...Resource) Entry {
		e := Entry{Lane: class, Name: name, Inferred: true, How: "test"}
		for _, r := range rs {
			e.Uses = append(e.Uses, Use{Resource: r})
		}
		return e
	}
	web := &Summary{Pkg: "app/web", Entries: []Entry{entry("interactive", "web.get", pool, client)}}
	worker := &Summary{Pkg: "app/worker", Entries: []Entry{entry("background", "worker.Run", pool, client)}}
	got := Conflicts([]*Summary{web, worker})
	if len(got) != 1 || got[0].Resource.Key != pool.Key || !got[0].Inferred() {
		t.Fatalf("conflicts = %+v, want one inferred conflict on %s", got, pool.Key)
	}
	declared := &Summary{Pkg: "app/tax", Entries: []Entry{{Lane: "tax", Name: "tax.Quote"}}}
	if got := Conflicts([]*Summary{web, worker, declared}); len(got) != 0 {
		t.Errorf("with a declared lane: conflicts = %+v, want none (declared lanes win)", got)
	}
	if got := Conflicts([]*Summary{web}); len(got) != 0 {
		t.Errorf("one class: conflicts = %+v, want none", got)
	}
}
