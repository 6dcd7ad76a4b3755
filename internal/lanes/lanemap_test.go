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
`
	if got := b.String(); got != want {
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
	if got, want := b.String(), "{\n  \"lanes\": [],\n  \"shared\": []\n}\n"; got != want {
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
}
`
	if got := b.String(); got != want {
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
