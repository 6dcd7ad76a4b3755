package lanes

import (
	"bytes"
	"encoding/gob"
	"hash/fnv"
	"reflect"
	"testing"

	"golang.org/x/tools/go/analysis"
)

// TestReachesWire: a Reaches fact and a Summary's implementations go
// through gob, as facts files carry them, whole, and a fact's repeated
// strings are written once.
func TestReachesWire(t *testing.T) {
	db := Resource{Key: "shop.DB", Name: "shop.DB", Noun: "database pool", Pkg: "example.com/shop", Obj: "DB", Pos: "shop.go:9:5", Global: true, Type: "*database/sql.DB"}
	hop := Hop{Name: "shop.Load", Pkg: "example.com/shop", Obj: "Load", File: "/src/example.com/shop/shop.go", Line: 12}
	var in Reaches
	for i := range 20 {
		in.Uses = append(in.Uses, Use{Resource: db, Path: []Hop{hop, {Name: "shop.row", Line: i}}})
	}
	in.Dispatch = []Use{{Resource: Resource{Key: DispatchPrefix + "(example.com/shop.Repo).Get", Name: "(shop.Repo).Get", Pkg: "example.com/shop"}}, {Resource: Resource{Key: DispatchPrefix + "x", Name: "x"}}}
	in.Uses = append(in.Uses, Use{Resource: Resource{Key: "k"}})

	type gobFact struct{ Fact analysis.Fact }
	gob.Register(new(Reaches))
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode([]gobFact{{&in}}); err != nil {
		t.Fatal(err)
	}
	var out []gobFact
	if err := gob.NewDecoder(&buf).Decode(&out); err != nil {
		t.Fatal(err)
	}
	if got := out[0].Fact.(*Reaches); !reflect.DeepEqual(got, &in) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, &in)
	}
	data, _ := in.GobEncode()
	if len(data) > 1000 { // each use alone takes over 150 bytes of strings
		t.Errorf("encoded in %d bytes: the strings of 20 uses of one pool by one path are not written once", len(data))
	}
	for n := range data {
		var r Reaches
		if err := r.GobDecode(data[:n]); err == nil {
			t.Errorf("%d of %d bytes decode with no error", n, len(data))
		}
	}
	sum := &Summary{Pkg: "example.com/shop", Impls: []Impl{
		{Method: DispatchPrefix + "(example.com/shop.Repo).Get", Impl: hop, Uses: in.Uses[:2], Dispatch: in.Dispatch},
		{Method: DispatchPrefix + "(example.com/shop.Cache).Get", Impl: Hop{Name: "(*shop.mem).Get"}},
	}, Dead: DeadSet{}}
	sum.Dead.Add(DispatchPrefix + "(example.com/shop.Audit).Log")
	sum.Dead.Add(DispatchPrefix + "(example.com/shop.Clock).Now")
	gob.Register(new(Summary))
	buf.Reset()
	if err := gob.NewEncoder(&buf).Encode([]gobFact{{sum}}); err != nil {
		t.Fatal(err)
	}
	if err := gob.NewDecoder(&buf).Decode(&out); err != nil {
		t.Fatal(err)
	}
	if got := out[0].Fact.(*Summary); !reflect.DeepEqual(got, sum) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, sum)
	}
	if d := out[0].Fact.(*Summary).Dead; !d.Has(DispatchPrefix+"(example.com/shop.Clock).Now") || d.Has(DispatchPrefix+"(example.com/shop.Repo).Get") {
		t.Errorf("dead set after a round trip: %v", d)
	}
	data, _ = sum.Dead.GobEncode()
	for n := range data {
		var d DeadSet
		if err := d.GobDecode(data[:n]); err == nil {
			t.Errorf("%d of %d bytes of a dead set decode with no error", n, len(data))
		}
	}
	var empty Reaches
	data, _ = empty.GobEncode()
	if err := new(Reaches).GobDecode(data); err != nil {
		t.Error(err)
	}
}

// TestDeadKeyIsFNV1a checks the written-out hash against hash/fnv's: the
// dead sets of facts written by one build are read by the same build only,
// but a wrong hash would still make distinct keys collide more often.
func TestDeadKeyIsFNV1a(t *testing.T) {
	for _, key := range []string{"", DispatchPrefix + "(example.com/shop.Repo).Get", "ü"} {
		h := fnv.New64a()
		h.Write([]byte(key))
		if got, want := deadKey(key), h.Sum64(); got != want {
			t.Errorf("deadKey(%q) = %x, want %x", key, got, want)
		}
	}
}
