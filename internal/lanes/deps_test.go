package lanes_test

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/bhlint/bhlint/internal/lanes"
)

// depsMap: the tax API is called inside a transaction of the orders pool,
// which browse needs; the audit service only from a background loop.
func depsMap() *lanes.Map {
	quote := lanes.EntryRef{Entry: "shop.quote", Class: "interactive", Pos: "shop.go:9:2", Pkg: "shop"}
	browse := lanes.EntryRef{Entry: "shop.browse", Class: "interactive", Pos: "shop.go:10:2", Pkg: "shop"}
	loop := lanes.EntryRef{Entry: "shop.auditLoop", Class: "background", Pos: "shop.go:11:2", Pkg: "shop"}
	m := lanes.BuildMap(summaries())
	m.Dependencies = []lanes.Dependency{
		{Name: "taxapi.Client.http", Noun: "HTTP client", Pos: "taxapi.go:13:2", Pkg: "taxapi",
			Callers: []lanes.DepCaller{{EntryRef: quote, Path: "shop.quote → (*taxapi.Client).Quote → taxapi.Client.http",
				Held: []lanes.Held{{Key: "shop.DB", Name: "shop.DB", Noun: "transaction", By: "(*sql.DB).BeginTx in shop.InTx"}}}},
			Stalls: []lanes.Stall{{EntryRef: browse, Needs: "shop.DB", HeldBy: "shop.quote", HeldKind: "transaction"}}},
		{Name: "shop.Audit → audit.example.com", Noun: "HTTP client", Host: "audit.example.com",
			Callers: []lanes.DepCaller{{EntryRef: loop, Path: "shop.auditLoop → shop.Audit → audit.example.com", Async: true}}},
		{Name: "webhooks.Notifier.Client", Noun: "HTTP client"},
	}
	lanes.SortDependencies(m.Dependencies)
	return m
}

func TestDepsText(t *testing.T) {
	m := depsMap()
	m.Relative(func(pkg string) (string, bool) { return "internal/" + pkg, true })
	var b bytes.Buffer
	if err := m.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"outbound dependencies (who waits when one slows):\n",
		"  taxapi.Client.http (HTTP client at internal/taxapi/taxapi.go:13:2)\n    called by:\n      shop.quote (interactive, inferred) via shop.quote → (*taxapi.Client).Quote → taxapi.Client.http\n        holding: transaction of shop.DB ((*sql.DB).BeginTx in shop.InTx)\n",
		"    stalls when it slows:\n      shop.browse (interactive, inferred): needs shop.DB, which shop.quote holds (transaction) while it waits\n",
		"      shop.auditLoop (background, inferred) via shop.auditLoop → shop.Audit → audit.example.com\n        in a goroutine it starts: it does not wait on the call\n        holding: nothing\n    stalls when it slows: no other entry point (only its callers wait)\n",
		"  webhooks.Notifier.Client (HTTP client)\n    called by: no entry point found\n",
		"  stalls when it slows              other entry points",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
}

func TestDepsJSON(t *testing.T) {
	var b bytes.Buffer
	if err := depsMap().WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Lanes        []json.RawMessage
		Shared       []json.RawMessage
		Dependencies []struct {
			Name    string
			Host    string
			Callers []struct {
				Entry, Class, Path string
				Async              bool
				Held               []struct{ Name, Kind, By string }
			}
			Stalls []struct{ Entry, Needs, HeldBy, HeldKind string }
		}
	}
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatalf("invalid JSON: %v\n%s", err, b.String())
	}
	if len(got.Lanes) != 2 || len(got.Shared) != 3 {
		t.Errorf("the existing keys changed: %d lanes, %d shared", len(got.Lanes), len(got.Shared))
	}
	if len(got.Dependencies) != 3 {
		t.Fatalf("dependencies = %+v", got.Dependencies)
	}
	tax := got.Dependencies[1]
	if tax.Name != "taxapi.Client.http" || len(tax.Callers) != 1 || tax.Callers[0].Class != "interactive" ||
		len(tax.Callers[0].Held) != 1 || tax.Callers[0].Held[0].Kind != "transaction" || tax.Callers[0].Held[0].Name != "shop.DB" {
		t.Errorf("tax API = %+v", tax)
	}
	if len(tax.Stalls) != 1 || tax.Stalls[0].Entry != "shop.browse" || tax.Stalls[0].Needs != "shop.DB" {
		t.Errorf("tax API stalls = %+v", tax.Stalls)
	}
	for _, key := range []string{`"held_by": "shop.quote"`, `"held_kind": "transaction"`, `"async": true`, `"host": "audit.example.com"`, `"callers": []`, `"held": []`} {
		if !strings.Contains(b.String(), key) {
			t.Errorf("JSON lacks %s:\n%s", key, b.String())
		}
	}
}

func TestDepsDOT(t *testing.T) {
	var b bytes.Buffer
	if err := depsMap().WriteDOT(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`"dep: taxapi.Client.http" [shape=hexagon, label="taxapi.Client.http\nHTTP client"];`,
		`"interactive: shop.quote" [shape=box, style=rounded, label="shop.quote (interactive, inferred)"];`,
		`"dep: taxapi.Client.http" -> "interactive: shop.quote" [color=blue, label="waits"];`,
		`"held: shop.DB" [shape=cylinder, label="shop.DB", color=orange];`,
		`"interactive: shop.quote" -> "held: shop.DB" [color=orange, style=bold, label="holds transaction"];`,
		`"held: shop.DB" -> "interactive: shop.browse" [color=orange, style=dashed, label="stalls"];`,
		"subgraph cluster_legend_deps {",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("DOT lacks %s:\n%s", want, b.String())
		}
	}
	if dot, err := exec.LookPath("dot"); err == nil {
		cmd := exec.Command(dot, "-Tsvg")
		cmd.Stdin = bytes.NewReader(b.Bytes())
		if out, err := cmd.CombinedOutput(); err != nil || !bytes.Contains(out, []byte("<svg")) {
			t.Errorf("dot -Tsvg rejects the map: %v\n%.2000s", err, out)
		}
	} else {
		t.Log("Graphviz (dot) is not installed: the DOT map is checked by its text only")
	}
}

// A map with dependencies but no lanes still has the legend.
func TestDepsLegendWithoutLanes(t *testing.T) {
	m := &lanes.Map{Dependencies: depsMap().Dependencies}
	var b bytes.Buffer
	m.WriteText(&b)
	if !strings.Contains(b.String(), "\nlegend:\n") || !strings.Contains(b.String(), "holding: KIND of P") {
		t.Errorf("no dependencies legend:\n%s", b.String())
	}
}
