package main

import (
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bhlint/bhlint/internal/suite"
)

// sarifScripts is scripts/sarif, made absolute when the test binary starts:
// tests that change directory (t.Chdir) still find the validator.
var sarifScripts, _ = filepath.Abs(filepath.Join("..", "..", "scripts", "sarif"))

// validateSARIF checks a SARIF file against the official 2.1.0 schema with
// scripts/sarif/validate.js (ajv and the schema Microsoft ships on npm).
func validateSARIF(t *testing.T, file string) {
	t.Helper()
	script := filepath.Join(sarifScripts, "validate.js")
	if _, err := os.Stat(filepath.Join(sarifScripts, "node_modules")); err != nil {
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

// TestSARIFSaysWhatTheRunChecked: the SARIF of a run that left packages
// unanalysed is not a clean log — executionSuccessful is false and each
// package is an error notification — and a function over the SSA budget is
// a note of its own, not a result; both validate against the schema.
func TestSARIFSaysWhatTheRunChecked(t *testing.T) {
	for _, tc := range []struct {
		dir        string
		args       []string
		wantCode   int
		successful bool
		notices    []string
	}{
		{"broken", []string{"./..."}, exitError, false, []string{
			"error bhlint/package-not-analysed package example.com/broken/syntaxerr was not analysed: syntaxerr/syntaxerr.go:5:5: missing condition in if statement",
			"error bhlint/package-not-analysed package example.com/broken/typeerr was not analysed: typeerr/typeerr.go:6:9: cannot use",
			"error bhlint/package-not-analysed package example.com/broken/usesbroken was not analysed: imports example.com/broken/typeerr, which does not load",
		}},
		{"robust", []string{"-budget=25", "./generics"}, exitClean, true, []string{
			// One notice per analyzer that skipped the function: heldconn and
			// retryafter (its gRPC and error-value rules read every function
			// that returns an error) both build the SSA of these two.
			"note bhlint/function-skipped-over-budget skipped: function (*DB[L]).ChargeVia too large (32 instructions > budget 25): heldconn did not check it",
			"note bhlint/function-skipped-over-budget skipped: function (*DB[L]).ChargeVia too large (32 instructions > budget 25): retryafter did not check it",
			"note bhlint/function-skipped-over-budget skipped: function With too large (35 instructions > budget 25): heldconn did not check it",
			"note bhlint/function-skipped-over-budget skipped: function With too large (35 instructions > budget 25): retryafter did not check it",
		}},
	} {
		t.Run(tc.dir, func(t *testing.T) {
			t.Chdir(filepath.Join("..", "..", "testdata", tc.dir))
			var stdout, stderr strings.Builder
			if code := runCLI(append([]string{"-format=sarif"}, tc.args...), &stdout, &stderr); code != tc.wantCode {
				t.Errorf("exit %d, want %d\n%s", code, tc.wantCode, stderr.String())
			}
			file := filepath.Join(t.TempDir(), "run.sarif")
			if err := os.WriteFile(file, []byte(stdout.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			var log struct {
				Runs []struct {
					Results     []json.RawMessage
					Invocations []struct {
						ExecutionSuccessful        bool
						ToolExecutionNotifications []struct {
							Level      string
							Descriptor struct{ ID string }
							Message    struct{ Text string }
						}
					}
				}
			}
			if err := json.Unmarshal([]byte(stdout.String()), &log); err != nil || len(log.Runs) != 1 || len(log.Runs[0].Invocations) != 1 {
				t.Fatalf("SARIF: %v, want one run with one invocation:\n%s", err, stdout.String())
			}
			inv := log.Runs[0].Invocations[0]
			if inv.ExecutionSuccessful != tc.successful || len(inv.ToolExecutionNotifications) != len(tc.notices) {
				t.Errorf("executionSuccessful=%v with %d notifications, want %v and %d", inv.ExecutionSuccessful, len(inv.ToolExecutionNotifications), tc.successful, len(tc.notices))
			}
			for i, n := range inv.ToolExecutionNotifications {
				if got := n.Level + " " + n.Descriptor.ID + " " + n.Message.Text; i < len(tc.notices) && !strings.HasPrefix(got, tc.notices[i]) {
					t.Errorf("notification %d: %q, want it to start %q", i, got, tc.notices[i])
				}
			}
			if tc.dir == "robust" && len(log.Runs[0].Results) != 0 {
				t.Errorf("%d results; a skipped function is a notification, not a result", len(log.Runs[0].Results))
			}
			validateSARIF(t, file)
		})
	}
}

// hooksSource has two unboundedqueue findings, in Notify and (*Hub).Notify;
// extra goes above them (moving them down) and more below.
func hooksSource(extra, more string) string {
	return "package sub\n" + extra + `
func Notify(hooks []string, send func(string)) {
	for _, h := range hooks {
		go send(h)
	}
}

type Hub struct{}

func (h *Hub) Notify(hooks []string, send func(string)) {
	for _, hook := range hooks {
		go send(hook)
	}
}
` + more
}

type sarifGateResult struct {
	RuleID              string
	BaselineState       string
	PartialFingerprints map[string]string
	Message             struct{ Text string }
	Locations           []struct {
		PhysicalLocation struct{ Region struct{ StartLine int } }
	}
}

// runSARIF runs bhlint -format=sarif in the working directory, checks the
// log against the schema, and returns its results.
func runSARIF(t *testing.T, wantCode int, args ...string) []sarifGateResult {
	t.Helper()
	var stdout, stderr strings.Builder
	if code := runCLI(append([]string{"-format=sarif"}, args...), &stdout, &stderr); code != wantCode {
		t.Fatalf("bhlint -format=sarif %v: exit %d, want %d\n%s", args, code, wantCode, stderr.String())
	}
	file := filepath.Join(t.TempDir(), "run.sarif")
	if err := os.WriteFile(file, []byte(stdout.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	validateSARIF(t, file)
	var log struct {
		Runs []struct {
			Tool    struct{ Driver struct{ Version string } }
			Results []sarifGateResult
		}
	}
	if err := json.Unmarshal([]byte(stdout.String()), &log); err != nil {
		t.Fatal(err)
	}
	if log.Runs[0].Tool.Driver.Version == "" {
		t.Errorf("the tool driver has no version")
	}
	return log.Runs[0].Results
}

// TestSARIFFingerprintsAndBaselineState: every result has a fingerprint that
// a move of the code does not change; under -baseline each result says
// whether it is new or unchanged, and a finding the baseline holds but the
// run no longer finds is an absent result with the fingerprint it had.
func TestSARIFFingerprintsAndBaselineState(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	os.WriteFile("go.mod", []byte("module example.com/fp\n\ngo 1.26\n"), 0o644)
	os.Mkdir("sub", 0o755)
	source := func(extra, more string) {
		if err := os.WriteFile(filepath.Join("sub", "hooks.go"), []byte(hooksSource(extra, more)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fingerprints := func(rs []sarifGateResult) []string {
		var out []string
		for _, r := range rs {
			fp := r.PartialFingerprints[fingerprintName]
			if fp == "" {
				t.Errorf("result %q has no %s fingerprint", r.Message.Text, fingerprintName)
			}
			out = append(out, fp)
		}
		return out
	}

	source("", "")
	before := fingerprints(runSARIF(t, exitFindings, "./..."))
	if len(before) != 2 || before[0] == before[1] {
		t.Fatalf("fingerprints %q, want two different ones", before)
	}
	source("\n// three lines\n// added above\n", "")
	moved := runSARIF(t, exitFindings, "./...")
	if got := fingerprints(moved); !slices.Equal(got, before) || moved[0].Locations[0].PhysicalLocation.Region.StartLine != 8 {
		t.Errorf("after a 3-line move: fingerprints %q (line %d), want %q", got, moved[0].Locations[0].PhysicalLocation.Region.StartLine, before)
	}

	var stderr strings.Builder
	if code := runCLI([]string{"-write-baseline=baseline.json", "./..."}, io.Discard, &stderr); code != exitClean {
		t.Fatalf("-write-baseline: exit %d\n%s", code, stderr.String())
	}
	// Hub.Notify fixed; Broadcast, the same shape as Notify, added.
	os.WriteFile(filepath.Join("sub", "hooks.go"), []byte(strings.Replace(hooksSource("", "\nfunc Broadcast(hooks []string, send func(string)) {\n\tfor _, h := range hooks {\n\t\tgo send(h)\n\t}\n}\n"), "go send(hook)", "send(hook)", 1)), 0o644)
	results := runSARIF(t, exitFindings, "-baseline=baseline.json", "./...")
	var states []string
	for _, r := range results {
		states = append(states, r.BaselineState)
	}
	if !slices.Equal(states, []string{"new", "unchanged", "absent"}) {
		t.Fatalf("baseline states %q, want new (Broadcast), unchanged (Notify), absent (Hub.Notify)", states)
	}
	got := fingerprints(results)
	if got[1] != before[0] || got[2] != before[1] || got[0] == before[0] {
		t.Errorf("fingerprints %q: want Notify's %s kept, Hub.Notify's %s on the absent result, and a new one for Broadcast", got, before[0], before[1])
	}
}
