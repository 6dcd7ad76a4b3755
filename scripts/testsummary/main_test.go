package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeModule writes a throwaway module whose tests pass, fail, skip with
// and without a reason, and one package that does not build.
func writeModule(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n",
		"a/a_test.go": `package a

import "testing"

func TestPasses(t *testing.T) {}

func TestFails(t *testing.T) { t.Log("context first"); t.Error("wrong answer") }

func TestNeedsServer(t *testing.T) {
	t.Log("looking for the server")
	t.Skip("no PostgreSQL at 127.0.0.1:5432: connection refused")
}

func TestSubtests(t *testing.T) {
	t.Run("ok", func(t *testing.T) {})
	t.Run("later", func(t *testing.T) { t.SkipNow() })
}
`,
		"b/b_test.go": "package b\n\nimport \"testing\"\n\nfunc TestBroken(t *testing.T) { undefined() }\n",
	}
	for name, text := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestRealGoTest runs a real `go test -json` through gotest and report.
func TestRealGoTest(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test on a throwaway module")
	}
	dir := writeModule(t)
	t.Setenv("GOWORK", "off")
	t.Setenv("GOFLAGS", "")
	results := filepath.Join(t.TempDir(), "results.jsonl")

	var log, errs bytes.Buffer
	if code := run([]string{"gotest", "-results", results, "-C", dir, "--", "-count=1", "./..."}, &log, &errs); code != 1 {
		t.Fatalf("gotest: exit %d, want 1 (the module has failures); stderr:\n%s", code, errs.String())
	}
	for _, want := range []string{
		"--- SKIP: example.com/m/a TestNeedsServer: no PostgreSQL at 127.0.0.1:5432: connection refused",
		"--- output of failed test example.com/m/a TestFails:",
		"a_test.go:7: context first", // a failed test's whole output
		"wrong answer",
		"undefined: undefined", // the build error, passed through
	} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, log.String())
		}
	}

	var summary bytes.Buffer
	if code := run([]string{"report", results}, &summary, &errs); code != 1 {
		t.Errorf("report: exit %d, want 1 (there are failures)", code)
	}
	got := summary.String()
	for _, want := range []string{
		"  FAIL example.com/m/a TestFails\n",
		"  FAIL example.com/m/b (package)\n",
		"  SKIP example.com/m/a TestNeedsServer: no PostgreSQL at 127.0.0.1:5432: connection refused\n",
		"  SKIP example.com/m/a TestSubtests/later: (no reason given)\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("summary lacks %q:\n%s", want, got)
		}
	}
	// Passed: TestPasses, TestSubtests/ok, and TestSubtests itself: a
	// skipped subtest does not fail its parent.
	if last := lastLine(got); last != "3 passed, 2 failed, 2 skipped" {
		t.Errorf("last line %q, want %q", last, "3 passed, 2 failed, 2 skipped")
	}
}

// TestGoCommandError: go test failing before it says anything in JSON
// (here, a bad GOFLAGS) is a failure in the summary, not nothing.
func TestGoCommandError(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test on a throwaway module")
	}
	dir := writeModule(t)
	t.Setenv("GOWORK", "off")
	t.Setenv("GOFLAGS", "-mod=nosuch")
	results := filepath.Join(t.TempDir(), "results.jsonl")
	var log, errs, summary bytes.Buffer
	if code := run([]string{"gotest", "-results", results, "-C", dir, "--", "./..."}, &log, &errs); code != 1 {
		t.Fatalf("gotest: exit %d, want 1; stderr:\n%s", code, errs.String())
	}
	run([]string{"report", results}, &summary, &errs)
	if !strings.Contains(summary.String(), "FAIL go test -json ./... (in "+dir+")") || lastLine(summary.String()) != "0 passed, 1 failed, 0 skipped" {
		t.Errorf("summary:\n%s", summary.String())
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}

// TestInterruptedRun: a test that started and never ended is a failure, not
// a test that silently vanished.
func TestInterruptedRun(t *testing.T) {
	stream := `{"Action":"start","Package":"p"}
{"Action":"run","Package":"p","Test":"TestHangs"}
{"Action":"output","Package":"p","Test":"TestHangs","Output":"=== RUN   TestHangs\n"}
`
	var log bytes.Buffer
	acc := newAccount(&log)
	if err := acc.read(strings.NewReader(stream)); err != nil {
		t.Fatal(err)
	}
	acc.finish()
	var summary bytes.Buffer
	if code := report(acc.results, &summary); code != 1 {
		t.Errorf("report: exit %d, want 1", code)
	}
	if !strings.Contains(summary.String(), "FAIL p TestHangs") || lastLine(summary.String()) != "0 passed, 1 failed, 0 skipped" {
		t.Errorf("summary:\n%s", summary.String())
	}
	if !strings.Contains(log.String(), "go test was interrupted") {
		t.Errorf("log does not say the test was cut off:\n%s", log.String())
	}
}

// TestChecks: steps that are not Go tests count too, and bad input is an
// error naming what is wrong.
func TestChecks(t *testing.T) {
	results := filepath.Join(t.TempDir(), "results.jsonl")
	var out, errs bytes.Buffer
	for _, args := range [][]string{
		{"check", "-results", results, "-name", "gofmt", "-status", "pass"},
		{"check", "-results", results, "-name", "gopls", "-status", "skip", "-reason", "BHLINT_GOPLS not set"},
	} {
		if code := run(args, &out, &errs); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs.String())
		}
	}
	if code := run([]string{"report", results}, &out, &errs); code != 0 {
		t.Errorf("report: exit %d, want 0", code)
	}
	if !strings.Contains(out.String(), "SKIP gopls: BHLINT_GOPLS not set") || lastLine(out.String()) != "1 passed, 0 failed, 1 skipped" {
		t.Errorf("summary:\n%s", out.String())
	}

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"check", "-results", results, "-name", "x", "-status", "ok"}, `-status "ok"`},
		{[]string{"check", "-results", results, "-name", "x", "-status", "skip"}, "needs a -reason"},
		{[]string{"check", "-name", "x", "-status", "pass"}, "-results is required"},
		{[]string{"frobnicate"}, `unknown command "frobnicate"`},
	} {
		errs.Reset()
		if code := run(tc.args, &out, &errs); code != 2 || !strings.Contains(errs.String(), tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 naming %q", tc.args, code, errs.String(), tc.want)
		}
	}

	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	os.WriteFile(bad, []byte(`{"check":"x","status":"pass"}`+"\nnot json\n"), 0o644)
	errs.Reset()
	if code := run([]string{"report", bad}, &out, &errs); code != 2 || !strings.Contains(errs.String(), "bad.jsonl:2") {
		t.Errorf("report of a corrupt file: exit %d, stderr %q; want exit 2 naming line 2", code, errs.String())
	}
}

// TestEmptyReport: a summary of nothing is a failure: the script ran no test.
func TestEmptyReport(t *testing.T) {
	empty := filepath.Join(t.TempDir(), "empty.jsonl")
	os.WriteFile(empty, nil, 0o644)
	var out, errs bytes.Buffer
	if code := run([]string{"report", empty}, &out, &errs); code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	if lastLine(out.String()) != "0 passed, 0 failed, 0 skipped" {
		t.Errorf("summary:\n%s", out.String())
	}
}
