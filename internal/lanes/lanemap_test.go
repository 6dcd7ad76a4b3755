package lanes_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/bhlint/bhlint/internal/lanes"
)

var (
	cardDB  = lanes.Resource{Key: "pay/ledger.CardDB", Name: "ledger.CardDB", Noun: "database pool", Lane: "card_auth", Pos: "ledger.go:9:5", Global: true}
	auditDB = lanes.Resource{Key: "pay/ledger.AuditDB", Name: "ledger.AuditDB", Noun: "database pool", Pos: "ledger.go:14:5", Global: true}
	shared  = lanes.Resource{Key: "pay/wiring.shared", Name: "wiring.shared", Noun: "database pool", Global: true}
)

// summaries is a service where tax reaches the card pool, both lanes write
// the unlaned audit pool, and one pool is wrapped into card_auth and fraud.
func summaries() []*lanes.Summary {
	merchantOf := lanes.Hop{Name: "ledger.MerchantOf"}
	audit := lanes.Hop{Name: "ledger.Audit"}
	return []*lanes.Summary{
		{Pkg: "pay/card", Seen: []string{"pay/card"}, Entries: []lanes.Entry{
			{Lane: "card_auth", Name: "card.Authorize", Pos: "card.go:12:6", Uses: []lanes.Use{
				{Resource: cardDB, Path: []lanes.Hop{merchantOf}},
				{Resource: auditDB, Path: []lanes.Hop{audit}},
			}},
		}},
		{Pkg: "pay/tax", Seen: []string{"pay/tax"}, Entries: []lanes.Entry{
			{Lane: "tax", Name: "tax.QuoteHandler", Pos: "tax.go:20:6", Uses: []lanes.Use{
				{Resource: cardDB, Path: []lanes.Hop{merchantOf}},
				{Resource: auditDB, Path: []lanes.Hop{audit}},
			}},
		}},
		{Pkg: "pay/wiring", Seen: []string{"pay/wiring"}, Wraps: []lanes.Wrap{
			{Inner: shared, Lane: "card_auth", Outer: "wiring.CardPool", Pos: "wiring.go:5:5"},
			{Inner: shared, Lane: "fraud", Outer: "wiring.FraudPool", Pos: "wiring.go:6:5"},
		}},
		// A package seen twice (its test variant) counts once.
		{Pkg: "pay/tax", Seen: []string{"pay/tax"}, Entries: []lanes.Entry{
			{Lane: "tax", Name: "tax.QuoteHandler", Pos: "tax.go:20:6", Uses: []lanes.Use{
				{Resource: cardDB, Path: []lanes.Hop{merchantOf}},
				{Resource: auditDB, Path: []lanes.Hop{audit}},
			}},
		}},
	}
}

func TestText(t *testing.T) {
	var b bytes.Buffer
	if err := lanes.BuildMap(summaries()).WriteText(&b); err != nil {
		t.Fatal(err)
	}
	want := `lane card_auth
  entry points:
    card.Authorize at card.go:12:6
  resources:
    ledger.AuditDB (database pool, no lane) via card.Authorize → ledger.Audit → ledger.AuditDB
    ledger.CardDB (database pool, lane card_auth) via card.Authorize → ledger.MerchantOf → ledger.CardDB
lane tax
  entry points:
    tax.QuoteHandler at tax.go:20:6
  resources:
    ledger.AuditDB (database pool, no lane) via tax.QuoteHandler → ledger.Audit → ledger.AuditDB
    ledger.CardDB (database pool, lane card_auth) via tax.QuoteHandler → ledger.MerchantOf → ledger.CardDB  ← another lane's
shared between lanes:
  ledger.AuditDB (database pool at ledger.go:14:5) shared by card_auth, tax
    lane card_auth reaches it: card.Authorize → ledger.Audit → ledger.AuditDB
    lane tax reaches it: tax.QuoteHandler → ledger.Audit → ledger.AuditDB
  ledger.CardDB (database pool at ledger.go:9:5) shared by card_auth, tax
    lane card_auth reaches it: card.Authorize → ledger.MerchantOf → ledger.CardDB
    lane tax reaches it: tax.QuoteHandler → ledger.MerchantOf → ledger.CardDB
  wiring.shared (database pool) shared by card_auth, fraud
    wrapped into lane card_auth by wiring.CardPool
    wrapped into lane fraud by wiring.FraudPool
legend:
`
	if got, _, _ := strings.Cut(b.String(), "  lane NAME "); got != want {
		t.Errorf("text map:\n%s\nwant:\n%s", got, want)
	}
}

func TestJSON(t *testing.T) {
	var b bytes.Buffer
	if err := lanes.BuildMap(summaries()).WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var got lanes.Map
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatalf("invalid JSON: %v\n%s", err, b.String())
	}
	if len(got.Lanes) != 2 || got.Lanes[0].Name != "card_auth" || got.Lanes[1].Name != "tax" {
		t.Fatalf("lanes = %+v, want card_auth and tax", got.Lanes)
	}
	if e := got.Lanes[1].Entries; len(e) != 1 || e[0].Name != "tax.QuoteHandler" || e[0].Pos != "tax.go:20:6" {
		t.Errorf("tax entries = %+v", e)
	}
	var names []string
	for _, s := range got.Shared {
		names = append(names, s.Name+"="+strings.Join(s.Lanes, "+"))
	}
	if want := "ledger.AuditDB=card_auth+tax ledger.CardDB=card_auth+tax wiring.shared=card_auth+fraud"; strings.Join(names, " ") != want {
		t.Errorf("shared = %s, want %s", strings.Join(names, " "), want)
	}
	for _, key := range []string{`"lanes"`, `"entries"`, `"resources"`, `"shared"`, `"owner": "card_auth"`, `"kind": "database pool"`} {
		if !strings.Contains(b.String(), key) {
			t.Errorf("JSON lacks %s:\n%s", key, b.String())
		}
	}
}

func TestJSONEmpty(t *testing.T) {
	var b bytes.Buffer
	if err := lanes.BuildMap(nil).WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	if got, want := b.String(), "{\n  \"lanes\": [],\n  \"shared\": [],\n  \"dependencies\": []\n}\n"; got != want {
		t.Errorf("empty map = %q, want %q", got, want)
	}
}

func TestDOT(t *testing.T) {
	var b bytes.Buffer
	if err := lanes.BuildMap(summaries()).WriteDOT(&b); err != nil {
		t.Fatal(err)
	}
	want := `digraph lanes {
  rankdir=LR;
  node [fontname="Helvetica"];
  subgraph cluster_0 {
    label="lane card_auth";
    "card_auth: card.Authorize" [shape=box];
  }
  subgraph cluster_1 {
    label="lane tax";
    "tax: tax.QuoteHandler" [shape=box];
  }
  "res: ledger.AuditDB" [shape=cylinder, label="ledger.AuditDB\ndatabase pool", color=red];
  "res: ledger.CardDB" [shape=cylinder, label="ledger.CardDB\ndatabase pool, lane card_auth", color=red];
  "card_auth: card.Authorize" -> "res: ledger.AuditDB" [color=black];
  "card_auth: card.Authorize" -> "res: ledger.CardDB" [color=black];
  "tax: tax.QuoteHandler" -> "res: ledger.AuditDB" [color=black];
  "tax: tax.QuoteHandler" -> "res: ledger.CardDB" [color=red];
  "res: wiring.shared" [shape=cylinder, label="wiring.shared\ndatabase pool", color=red];
  subgraph cluster_legend {
`
	if got, _, _ := strings.Cut(b.String(), `    label="legend";`); got != want {
		t.Errorf("DOT map:\n%s\nwant:\n%s", got, want)
	}
}

// Every entry point of a lane that reaches a resource gets its edge.
func TestDOTEveryEntry(t *testing.T) {
	sums := []*lanes.Summary{{Pkg: "pay/card", Seen: []string{"pay/card"}, Entries: []lanes.Entry{
		{Lane: "card_auth", Name: "card.Authorize", Uses: []lanes.Use{{Resource: cardDB}}},
		{Lane: "card_auth", Name: "card.Capture", Uses: []lanes.Use{{Resource: cardDB}}},
	}}}
	var b bytes.Buffer
	if err := lanes.BuildMap(sums).WriteDOT(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`"card_auth: card.Authorize" -> "res: ledger.CardDB" [color=black];`,
		`"card_auth: card.Capture" -> "res: ledger.CardDB" [color=black];`,
		`"res: ledger.CardDB" [shape=cylinder, label="ledger.CardDB\ndatabase pool, lane card_auth", color=black];`,
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("DOT lacks %s:\n%s", want, b.String())
		}
	}
}

// A struct field with no lane that two lanes reach is shared through one
// value of its struct: listed as shared, marked so, and drawn dashed red. A
// resource known by its type alone (a parameter) is not shared.
func TestFieldShared(t *testing.T) {
	field := lanes.Resource{Key: "pay/service.Server.db", Name: "service.Server.db", Noun: "database pool", Pkg: "pay/service", Obj: "T.db", Pos: "service.go:7:2"}
	param := lanes.Resource{Key: "*pgxpool.Pool", Name: "*pgxpool.Pool", Noun: "database pool"}
	sums := []*lanes.Summary{{Pkg: "pay/service", Seen: []string{"pay/service"}, Entries: []lanes.Entry{
		{Lane: "card_auth", Name: "service.authorize", Uses: []lanes.Use{{Resource: field}, {Resource: param}}},
		{Lane: "fraud", Name: "service.score", Uses: []lanes.Use{{Resource: field}, {Resource: param}}},
	}}}
	m := lanes.BuildMap(sums)
	if len(m.Shared) != 1 || m.Shared[0].Name != "service.Server.db" || !m.Shared[0].Field {
		t.Fatalf("shared = %+v, want the field alone, marked Field", m.Shared)
	}
	var text, dot bytes.Buffer
	m.WriteText(&text)
	m.WriteDOT(&dot)
	if want := "  service.Server.db (database pool at service.go:7:2) shared by card_auth, fraud, through one value of its struct\n"; !strings.Contains(text.String(), want) {
		t.Errorf("text lacks %q:\n%s", want, text.String())
	}
	if want := `"res: service.Server.db" [shape=cylinder, label="service.Server.db\ndatabase pool", color=red, style=dashed];`; !strings.Contains(dot.String(), want) {
		t.Errorf("DOT lacks %s:\n%s", want, dot.String())
	}
}

// The legend names every mark the text and the DOT use.
func TestLegend(t *testing.T) {
	var text, dot bytes.Buffer
	m := lanes.BuildMap(summaries())
	m.WriteText(&text)
	m.WriteDOT(&dot)
	_, legend, ok := strings.Cut(text.String(), "\nlegend:\n")
	if !ok {
		t.Fatalf("text has no legend:\n%s", text.String())
	}
	for _, mark := range []string{"lane NAME", "no lane", "via ", "← another lane's", "shared between lanes", "through one value of its struct", "from the module root"} {
		if !strings.Contains(legend, mark) {
			t.Errorf("text legend does not explain %q:\n%s", mark, legend)
		}
	}
	_, dotLegend, ok := strings.Cut(dot.String(), "subgraph cluster_legend {")
	if !ok {
		t.Fatalf("DOT has no legend:\n%s", dot.String())
	}
	for _, mark := range []string{"shape=box", "shape=cylinder", "color=red]", "color=red, style=dashed", `[color=black, label="reaches"]`, `[color=red, label="reaches another lane's"]`} {
		if !strings.Contains(dotLegend, mark) {
			t.Errorf("DOT legend lacks %s:\n%s", mark, dotLegend)
		}
	}
	var empty bytes.Buffer
	lanes.BuildMap(nil).WriteText(&empty)
	if strings.Contains(empty.String(), "legend") {
		t.Errorf("a map with no lanes has a legend:\n%s", empty.String())
	}
}

// Relative leads each position by its package's directory from the module
// root, or by the import path of a package outside the module.
func TestRelative(t *testing.T) {
	m := lanes.BuildMap(summaries())
	m.Relative(func(pkg string) (string, bool) {
		switch pkg {
		case "pay/card":
			return "internal/card", true
		case "pay/tax":
			return ".", true
		}
		return "", false
	})
	var b bytes.Buffer
	m.WriteText(&b)
	for _, want := range []string{
		"card.Authorize at internal/card/card.go:12:6\n", // in the module
		"tax.QuoteHandler at tax.go:20:6\n",              // at the module root
		"ledger.CardDB (database pool at ledger.go:9:5)", // no package recorded: left alone
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
	cardDB := cardDB
	cardDB.Pkg = "example.com/ledger"
	m = lanes.BuildMap([]*lanes.Summary{{Pkg: "pay/card", Seen: []string{"pay/card"}, Entries: []lanes.Entry{
		{Lane: "card_auth", Name: "card.Authorize", Uses: []lanes.Use{{Resource: cardDB}}},
	}}})
	m.Relative(func(string) (string, bool) { return "", false })
	m.Relative(func(string) (string, bool) { return "", false }) // twice changes nothing more
	if got := m.Lanes[0].Resources[0].Pos; got != "example.com/ledger/ledger.go:9:5" {
		t.Errorf("position of a resource outside the module = %q, want it led by its import path", got)
	}
}

// inferredSums: a service with no lane declared, whose handler and loop
// sharedpool inferred.
func inferredSums() []*lanes.Summary {
	return []*lanes.Summary{{Pkg: "pay/app", Seen: []string{"pay/app"}, Entries: []lanes.Entry{
		{Lane: "interactive", Name: "app.Checkout", Pos: "app.go:30:2", Inferred: true, How: "net/http handler registered with http.HandleFunc",
			Uses: []lanes.Use{{Resource: auditDB, Path: []lanes.Hop{{Name: "ledger.Audit"}}}}},
		{Lane: "background", Name: "app.sweep", Pos: "app.go:31:2", Inferred: true, How: "ticker loop started by go sweep()",
			Uses: []lanes.Use{{Resource: auditDB}}},
	}}}
}

// Inferred workload classes are shown as inferred, with what made each
// entry point one, in the three formats.
func TestInferred(t *testing.T) {
	m := lanes.BuildMap(inferredSums())
	var text, js, dot bytes.Buffer
	m.WriteText(&text)
	m.WriteJSON(&js)
	m.WriteDOT(&dot)
	for _, want := range []string{
		"lane background (inferred: loops started at start-up; no lane is declared)\n  entry points:\n    app.sweep at app.go:31:2 (ticker loop started by go sweep())\n",
		"lane interactive (inferred: request handlers; no lane is declared)\n  entry points:\n    app.Checkout at app.go:30:2 (net/http handler registered with http.HandleFunc)\n",
		"  (inferred: …)  ",
	} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}
	for _, want := range []string{`"inferred": true`, `"how": "ticker loop started by go sweep()"`} {
		if !strings.Contains(js.String(), want) {
			t.Errorf("JSON lacks %s:\n%s", want, js.String())
		}
	}
	// An HTTP client both classes reach is not shared between them: only
	// pools are, as sharedpool reports them.
	client := lanes.Resource{Key: "pay/app.Client.http", Name: "app.Client.http", Noun: "HTTP client", Pkg: "pay/app", Obj: "T.http"}
	sums := inferredSums()
	sums[0].Entries[0].Uses = append(sums[0].Entries[0].Uses, lanes.Use{Resource: client})
	sums[0].Entries[1].Uses = append(sums[0].Entries[1].Uses, lanes.Use{Resource: client})
	for _, s := range lanes.BuildMap(sums).Shared {
		if s.Name == "app.Client.http" {
			t.Errorf("an HTTP client is shown shared between inferred classes: %+v", s)
		}
	}
	if want := "label=\"lane interactive (inferred)\";\n    style=dashed;\n"; !strings.Contains(dot.String(), want) {
		t.Errorf("DOT lacks %q:\n%s", want, dot.String())
	}
	// Declared lanes win: once one is declared, the inferred classes go.
	m = lanes.BuildMap(append(inferredSums(), summaries()...))
	for _, l := range m.Lanes {
		if l.Inferred || l.Name == "interactive" || l.Name == "background" {
			t.Errorf("inferred lane %s shown beside declared ones", l.Name)
		}
	}
}

// KeepInferred drops the inferred entry points of packages outside the
// module, what only they reach, and a sharing only they made.
func TestKeepInferred(t *testing.T) {
	sums := inferredSums()
	sums = append(sums, &lanes.Summary{Pkg: "golang.org/x/net/http2", Seen: []string{"golang.org/x/net/http2"}, Entries: []lanes.Entry{
		{Lane: "background", Name: "(*http2.serverConn).readFrames", Inferred: true, How: "receive loop", Uses: []lanes.Use{{Resource: cardDB}}},
		{Lane: "interactive", Name: "(*http2.Server).handler", Inferred: true, How: "net/http handler", Uses: []lanes.Use{{Resource: cardDB}}},
	}})
	m := lanes.BuildMap(sums)
	m.KeepInferred(func(pkg string) bool { return pkg == "pay/app" })
	var text bytes.Buffer
	m.WriteText(&text)
	if strings.Contains(text.String(), "http2") || strings.Contains(text.String(), "ledger.CardDB") {
		t.Errorf("the dependency's entry points, or what only they reach, are still shown:\n%s", text.String())
	}
	if len(m.Shared) != 1 || m.Shared[0].Name != "ledger.AuditDB" {
		t.Errorf("shared = %+v, want the audit pool alone (both classes of the module reach it)", m.Shared)
	}
	for _, want := range []string{"    app.sweep at app.go:31:2", "    app.Checkout at app.go:30:2"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}
}
