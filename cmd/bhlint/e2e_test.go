package main_test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// buildBhlint builds the real binary once per test binary run.
func buildBhlint(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "bhlint")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// run runs a command in dir and returns stdout, stderr and the exit code.
func run(t *testing.T, dir, name string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) {
		code = exitErr.ExitCode()
	} else if err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	return stdout.String(), stderr.String(), code
}

var findingLine = regexp.MustCompile(`^(\S+:\d+:\d+: ERR_[A-Z_]+: .*?)(?: \([a-z]+\))?$`)

// findings extracts the finding lines of bhlint or go vet output, without
// bhlint's trailing "(analyzer)", so the two drivers can be compared.
func findings(out string) []string {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if m := findingLine.FindStringSubmatch(l); m != nil {
			lines = append(lines, m[1])
		}
	}
	slices.Sort(lines)
	return lines
}

// TestEndToEnd runs the built binary on every module under testdata/e2e,
// standalone and as go vet -vettool, and compares with its expected.txt.
// A module's clean/ package, if any, must produce no finding.
func TestEndToEnd(t *testing.T) {
	bin := buildBhlint(t)
	dirs, err := filepath.Glob(filepath.Join("..", "..", "testdata", "e2e", "*", "expected.txt"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no end-to-end cases found under testdata/e2e: %v", err)
	}
	for _, expected := range dirs {
		dir := filepath.Dir(expected)
		t.Run(filepath.Base(dir), func(t *testing.T) { checkEndToEnd(t, bin, dir, expected) })
	}
}

func checkEndToEnd(t *testing.T, bin, dir, expected string) {
	want, err := os.ReadFile(expected)
	if err != nil {
		t.Fatal(err)
	}
	wantCode := 0
	if len(want) > 0 {
		wantCode = 1
	}
	stdout, stderr, code := run(t, dir, bin, "./...")
	if code != wantCode {
		t.Fatalf("bhlint ./...: exit %d, want %d\nstderr: %s", code, wantCode, stderr)
	}
	if stdout != string(want) {
		t.Errorf("bhlint ./... printed\n%s\nwant (expected.txt)\n%s", stdout, want)
	}

	_, vetErr, vetCode := run(t, dir, "go", "vet", "-vettool="+bin, "./...")
	if (vetCode == 0) != (wantCode == 0) {
		t.Errorf("go vet -vettool: exit %d, want it to fail exactly when there are findings", vetCode)
	}
	if got, want := findings(vetErr), findings(stdout); !slices.Equal(got, want) {
		t.Errorf("go vet -vettool findings differ from bhlint's:\nvet:\n%s\nbhlint:\n%s",
			strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	if _, err := os.Stat(filepath.Join(dir, "clean")); err == nil {
		if out, errOut, code := run(t, dir, bin, "./clean"); code != 0 || out != "" {
			t.Errorf("bhlint ./clean: exit %d, output %q %q; want exit 0 and no output", code, out, errOut)
		}
	}
}

func TestEndToEndSARIF(t *testing.T) {
	bin := buildBhlint(t)
	dir := filepath.Join("..", "..", "testdata", "e2e", "heldconn")
	stdout, stderr, code := run(t, dir, bin, "-format=sarif", "./...")
	if code != 1 {
		t.Fatalf("bhlint -format=sarif: exit %d, want 1\n%s", code, stderr)
	}
	file := filepath.Join(t.TempDir(), "heldconn.sarif")
	if err := os.WriteFile(file, []byte(stdout), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("node", filepath.Join("..", "..", "scripts", "sarif", "validate.js"), file).CombinedOutput()
	if _, statErr := os.Stat(filepath.Join("..", "..", "scripts", "sarif", "node_modules")); statErr != nil {
		if os.Getenv("BHLINT_REQUIRE_SERVICES") != "" {
			t.Fatal("SARIF validator not installed: run `npm ci --prefix scripts/sarif`")
		}
		t.Skip("SARIF validator not installed: run `npm ci --prefix scripts/sarif`")
	}
	if err != nil {
		t.Fatalf("bhlint's SARIF does not validate: %v\n%s", err, out)
	}
	if !strings.Contains(stdout, `"relatedLocations"`) {
		t.Errorf("SARIF has no related locations; heldconn reports where the transaction began")
	}
}
