package sharedpool_test

import (
	"bytes"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/bhlint/bhlint/analyzers/sharedpool"
	"github.com/bhlint/bhlint/internal/testpkgs"
)

// TestLaneMap computes the map of the analyzer's test packages, as the
// `bhlint lanes` command does, and checks what it shows.
func TestLaneMap(t *testing.T) {
	pkgs := loadTestdata(t, "server", "handlers", "wiring")
	m, err := sharedpool.LaneMap(pkgs)
	if err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	if err := m.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"lane card_auth\n",
		"    apicard.Capture at apicard.go:7:6\n",
		"    handlers.QuoteHandler at handlers.go:",
		"    ledger.CardDB (database pool, lane card_auth) via handlers.QuoteHandler → ledger.MerchantOf → ledger.merchantRow → ledger.CardDB  ← another lane's\n",
		"  ledger.AuditDB (database pool at ledger.go:14:5) shared by card_auth, tax\n",
		"  wiring.shared (database pool at wiring.go:26:5) shared by card_auth, tax\n",
	} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("lane map lacks %q:\n%s", want, text.String())
		}
	}
	var dot, js bytes.Buffer
	if err := m.WriteDOT(&dot); err != nil || !strings.Contains(dot.String(), `"tax: handlers.QuoteHandler" -> "res: ledger.CardDB" [color=red];`) {
		t.Errorf("DOT map (err %v) lacks the tax → card pool edge:\n%s", err, dot.String())
	}
	if err := m.WriteJSON(&js); err != nil || !strings.Contains(js.String(), `"name": "ledger.AuditDB"`) {
		t.Errorf("JSON map (err %v) lacks the audit pool:\n%s", err, js.String())
	}
}

// loadTestdata loads test packages of testdata/src as LaneMap needs them.
func loadTestdata(t *testing.T, patterns ...string) []*packages.Package {
	t.Helper()
	return testpkgs.Load(t, sharedpool.LoadMode, patterns...)
}
