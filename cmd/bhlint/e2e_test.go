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

func TestEndToEndHeldConn(t *testing.T) {
	bin := buildBhlint(t)
	dir := filepath.Join("..", "..", "testdata", "e2e", "heldconn")
	want, err := os.ReadFile(filepath.Join(dir, "expected.txt"))
	if err != nil {
		t.Fatal(err)
	}

	stdout, stderr, code := run(t, dir, bin, "./...")
	if code != 1 {
		t.Fatalf("bhlint ./...: exit %d, want 1 (findings)\nstderr: %s", code, stderr)
	}
	if stdout != string(want) {
		t.Errorf("bhlint ./... printed\n%s\nwant (expected.txt)\n%s", stdout, want)
	}

	_, vetErr, vetCode := run(t, dir, "go", "vet", "-vettool="+bin, "./...")
	if vetCode == 0 {
		t.Errorf("go vet -vettool: exit 0, want non-zero on findings")
	}
	if got, want := findings(vetErr), findings(stdout); !slices.Equal(got, want) {
		t.Errorf("go vet -vettool findings differ from bhlint's:\nvet:\n%s\nbhlint:\n%s",
			strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	if out, errOut, code := run(t, dir, bin, "./clean"); code != 0 || out != "" {
		t.Errorf("bhlint ./clean: exit %d, output %q %q; want exit 0 and no output", code, out, errOut)
	}
}
