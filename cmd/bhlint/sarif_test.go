package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bhlint/bhlint/internal/suite"
)

// validateSARIF checks a SARIF file against the official 2.1.0 schema with
// scripts/sarif/validate.js (ajv and the schema Microsoft ships on npm).
func validateSARIF(t *testing.T, file string) {
	t.Helper()
	script := filepath.Join("..", "..", "scripts", "sarif", "validate.js")
	if _, err := os.Stat(filepath.Join("..", "..", "scripts", "sarif", "node_modules")); err != nil {
		msg := "SARIF schema validator not installed: run `npm ci --prefix scripts/sarif` (needs node and npm)"
		if os.Getenv("BHLINT_REQUIRE_SERVICES") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	out, err := exec.Command("node", script, file).CombinedOutput()
	if err != nil {
		t.Fatalf("SARIF does not validate against the 2.1.0 schema: %v\n%s", err, out)
	}
}

func TestSARIFValidatesWithRelatedLocationsAndFixes(t *testing.T) {
	findings := []finding{{
		Analyzer: "heldconn",
		Code:     "ERR_CONN_HELD_ACROSS_NETWORK_CALL",
		Message:  "transaction from (*sql.DB).BeginTx is still held during http.Get",
		Location: location{File: "store/store.go", Line: 30, Column: 15},
		Related:  []location{{File: "store/store.go", Line: 21, Column: 13, Message: "transaction acquired here"}},
		Fixes: []fix{{Message: "move the call", Edits: []edit{
			{File: "store/store.go", Start: 100, End: 120, New: ""},
			{File: "store/store.go", Start: 300, End: 300, New: "resp, err := http.Get(url)\n"},
		}}},
	}}
	file := filepath.Join(t.TempDir(), "out.sarif")
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	sum := newSummary()
	sum.recordAnalysed("example.com/store")
	sum.NotAnalysed = []unanalysed{{"example.com/broken", "broken/broken.go:5:5: missing condition in if statement"}}
	sum.Skipped = []skipNotice{{Analyzer: "heldconn", Message: "skipped: function Huge too large (30001 instructions > budget 20000): heldconn did not check it; split it, or raise the budget with -budget=30001",
		Location: location{File: "store/huge.go", Line: 7, Column: 6}}}
	if err := writeSARIF(findings, sum, f); err != nil {
		t.Fatal(err)
	}
	f.Close()
	validateSARIF(t, file)

	var log struct {
		Runs []struct {
			Invocations []struct {
				ExecutionSuccessful        bool
				ToolExecutionNotifications []struct {
					Level      string
					Descriptor struct{ ID string }
				}
			}
			Tool struct {
				Driver struct {
					Rules []struct{ ID, HelpURI string }
				}
			}
			Results []struct {
				RuleID           string
				RelatedLocations []json.RawMessage
				Fixes            []json.RawMessage
			}
		}
	}
	data, _ := os.ReadFile(file)
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	if len(run.Tool.Driver.Rules) != len(suite.All) {
		t.Errorf("got %d rules, want one per analyzer (%d)", len(run.Tool.Driver.Rules), len(suite.All))
	}
	for _, r := range run.Tool.Driver.Rules {
		if !strings.HasPrefix(r.ID, "ERR_") || r.HelpURI == "" {
			t.Errorf("rule %+v: want a diagnostic code as id and a help URI", r)
		}
	}
	// A run that left a package unanalysed is not a successful execution,
	// and says what it did not check, each notice with its own identity.
	inv := run.Invocations[0]
	var notices []string
	for _, n := range inv.ToolExecutionNotifications {
		notices = append(notices, n.Level+" "+n.Descriptor.ID)
	}
	if inv.ExecutionSuccessful || strings.Join(notices, ", ") != "error bhlint/package-not-analysed, note bhlint/function-skipped-over-budget" {
		t.Errorf("invocation: executionSuccessful=%v, notifications %q; want false, the unanalysed package (error) and the skipped function (note)",
			inv.ExecutionSuccessful, notices)
	}
	res := run.Results[0]
	if res.RuleID != "ERR_CONN_HELD_ACROSS_NETWORK_CALL" || len(res.RelatedLocations) != 1 || len(res.Fixes) != 1 {
		t.Errorf("result = %+v, want ruleId = the code, one related location, one fix", res)
	}
}
