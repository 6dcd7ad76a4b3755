package poolbudget

import (
	"bytes"
	"encoding/gob"
	"testing"
)

// TestFactsSurviveGob: drivers that run each package in a process of its
// own (go vet -vettool) carry facts gob-encoded; what a caller needs —
// budgets, parameters, connection strings, the global that keeps a pool —
// survives, and nothing that points into one package's syntax is sent.
func TestFactsSurviveGob(t *testing.T) {
	in := &createsPools{
		Pools: []Pool{{
			Name: "db", Kind: "sql.Open", Via: []string{"store.Open"}, Site: "store/store.go:12",
			Budget: Budget{State: FromParam, Param: 1, Assumed: "the default of flag -max"},
			DSN:    DSN{Env: "DATABASE_URL", Param: -1}, Returned: 0, Global: "example.com/store.db",
			anchor: 42, named: true,
		}},
		Bounds:    []ParamBound{{Param: 0, Budget: Budget{State: Known, N: 10}}},
		Truncated: true,
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(in); err != nil {
		t.Fatal(err)
	}
	var out createsPools
	if err := gob.NewDecoder(&buf).Decode(&out); err != nil {
		t.Fatal(err)
	}
	want := in.Pools[0]
	want.anchor, want.named = 0, false
	got := out.Pools[0]
	if got.String() != want.String() || got.Site != want.Site || got.Budget != want.Budget || got.anchor != 0 || got.named {
		t.Errorf("pool after gob: %+v, want %+v", got, want)
	}
	if out.String() != "createsPools(db sql.Open param 1 via store.Open dsn $DATABASE_URL returned 0 global example.com/store.db; bounds param 0 to 10; truncated)" {
		t.Errorf("fact after gob: %s", out.String())
	}
	var lim laneLimit
	buf.Reset()
	if err := gob.NewEncoder(&buf).Encode(&laneLimit{MaxConcurrent: 15}); err != nil {
		t.Fatal(err)
	}
	if err := gob.NewDecoder(&buf).Decode(&lim); err != nil || lim.MaxConcurrent != 15 {
		t.Errorf("laneLimit after gob: %+v, %v", lim, err)
	}
}

// TestPackageFactsSurviveGob: the package facts a main package resolves
// against (registered constructors, flags by name, field values) survive
// the encoding a go vet driver puts them through.
func TestPackageFactsSurviveGob(t *testing.T) {
	for _, in := range []interface{ String() string }{
		&registries{Entries: []Entry{{Registry: "example.com/storage.providers", Ctor: "mysql.newProvider",
			Pools: []Pool{{Name: "db", Kind: "sql.Open", Budget: Budget{State: Unbounded, Assumed: "the default of flag -max"}, DSN: noDSN(), Returned: -1}}}}},
		&flagNames{Flags: []flagDefault{{Name: "database.connection.open", Value: 0}}},
		&fieldValues{Values: map[string][]Budget{"example.com/db.config.MaxOpen": {{State: Known, N: 5, Assumed: "the default of flag -max"}}}},
	} {
		var buf bytes.Buffer
		if err := gob.NewEncoder(&buf).Encode(in); err != nil {
			t.Fatal(err)
		}
		var got string
		switch in.(type) {
		case *registries:
			var out registries
			err := gob.NewDecoder(&buf).Decode(&out)
			got = out.String() + errString(err)
		case *flagNames:
			var out flagNames
			err := gob.NewDecoder(&buf).Decode(&out)
			got = out.String() + errString(err)
		case *fieldValues:
			var out fieldValues
			err := gob.NewDecoder(&buf).Decode(&out)
			got = out.String() + errString(err)
		}
		if got != in.String() {
			t.Errorf("after gob: %s, want %s", got, in.String())
		}
	}
}

func errString(err error) string {
	if err != nil {
		return " " + err.Error()
	}
	return ""
}
