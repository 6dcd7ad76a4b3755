package main_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestHelp: bhlint help and bhlint -h list the subcommands, the flags and
// the exit codes; bhlint lsp -h prints help instead of starting a server.
func TestHelp(t *testing.T) {
	bin := buildBhlint(t)
	stdout, _, code := run(t, ".", bin, "help")
	_, stderr, codeH := run(t, ".", bin, "-h")
	for name, out := range map[string]string{"bhlint help": stdout, "bhlint -h": stderr} {
		for _, want := range []string{"bhlint lanes", "bhlint lsp", "bhlint version", "-format", "-explain", "-budget", "-baseline", "-new-from-rev", "exit status:", "  2  something asked for was not checked"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s lacks %q:\n%s", name, want, out)
			}
		}
	}
	if code != 0 || codeH != 0 {
		t.Errorf("bhlint help: exit %d, bhlint -h: exit %d; want 0", code, codeH)
	}
	stdout, _, code = run(t, ".", bin, "lsp", "-h")
	if code != 0 || !strings.HasPrefix(stdout, "usage: bhlint lsp") {
		t.Errorf("bhlint lsp -h: exit %d, %q; want its usage", code, stdout)
	}
	if _, stderr, code := run(t, ".", bin, "lsp", "--stdio-typo"); code != 2 || !strings.Contains(stderr, "--stdio-typo") {
		t.Errorf("bhlint lsp --stdio-typo: exit %d, %q; want exit 2 naming the argument", code, stderr)
	}
}

// TestExplainAnyCase: -explain finds a name or a code in any case, and a
// miss lists every name and code.
func TestExplainAnyCase(t *testing.T) {
	bin := buildBhlint(t)
	for _, what := range []string{"HeldConn", "err_conn_held_across_network_call"} {
		if out, _, code := run(t, ".", bin, "-explain", what); code != 0 || !strings.HasPrefix(out, "heldconn (ERR_CONN_HELD_ACROSS_NETWORK_CALL)") {
			t.Errorf("-explain %s: exit %d, %.60q; want heldconn's doc", what, code, out)
		}
	}
	_, stderr, code := run(t, ".", bin, "-explain", "heldcon")
	if code != 2 || !strings.Contains(stderr, "sharedpool") || !strings.Contains(stderr, "ERR_MISSING_RETRY_AFTER") {
		t.Errorf("-explain heldcon: exit %d, %q; want exit 2 and the known names and codes", code, stderr)
	}
}

// TestFixLeavesFindings: -fix -diff shows the fixes and names the findings
// they leave; -fix applies what it can and exits 1 when findings no fix
// resolves remain, printing them; -diff without -fix is a usage error.
func TestFixLeavesFindings(t *testing.T) {
	t.Parallel()
	bin := buildBhlint(t)
	dir := t.TempDir()
	write(t, dir, "go.mod", "module example.com/fixleft\n\ngo 1.26\n")
	write(t, dir, "shed.go", shedWithoutRetryAfter)
	write(t, dir, "quote.go", strings.Replace(heldAcrossCall, "package hooked", "package shed", 1))
	out, stderr, code := run(t, dir, bin, "-fix", "-diff", "./...")
	if code != 1 || !strings.Contains(out, `Retry-After`) ||
		!strings.Contains(stderr, "1 finding with a suggested fix (the diff above), 1 finding with none, left for you to fix:\nquote.go:15:15: ERR_CONN_HELD_ACROSS_NETWORK_CALL") {
		t.Errorf("-fix -diff: exit %d, stdout:\n%s\nstderr:\n%s\nwant the diff, and the heldconn finding named as left", code, out, stderr)
	}
	out, stderr, code = run(t, dir, bin, "-fix", "./...")
	if code != 1 || !strings.Contains(out, "quote.go:15:15: ERR_CONN_HELD_ACROSS_NETWORK_CALL") || strings.Contains(out, "ERR_MISSING_RETRY_AFTER") {
		t.Errorf("-fix: exit %d, output:\n%s%s\nwant exit 1 and only the heldconn finding, which has no fix", code, out, stderr)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "shed.go")); !strings.Contains(string(got), `w.Header().Set("Retry-After", "5")`) {
		t.Errorf("-fix did not apply the Retry-After fix:\n%s", got)
	}
	if _, stderr, code := run(t, dir, bin, "-diff", "./..."); code != 2 || !strings.Contains(stderr, "-diff needs -fix") {
		t.Errorf("-diff alone: exit %d, %q; want a usage error", code, stderr)
	}
}

// TestVersion: bhlint version and bhlint -version print the build's module
// version (with the commit when the build recorded one) and Go's.
func TestVersion(t *testing.T) {
	t.Parallel()
	bin := buildBhlint(t)
	for _, args := range [][]string{{"version"}, {"-version"}} {
		out, stderr, code := run(t, ".", bin, args...)
		if code != 0 || !regexp.MustCompile(`^bhlint \S+.* \(built with go[0-9.]+\S*\)\n$`).MatchString(out) {
			t.Errorf("bhlint %s: exit %d, %q %q; want exit 0 and one line naming the version and Go's", args[0], code, out, stderr)
		}
	}
}
