package main_test

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestConfigErrorsNameFileAndKey(t *testing.T) {
	bin := buildBhlint(t)
	for _, tc := range []struct{ config, want string }{
		{"catalog:\n  network_calls: [\"net/http.Get\"]\n", `.bhlint.yml: line 2: unknown key "network_calls"`},
		{"analyzers:\n  heldcon: false\n", `.bhlint.yml: line 2: analyzers: unknown analyzer "heldcon"`},
		{"lanes:\n  - package: x\n    lane: Tax\n", `.bhlint.yml: line 2: lanes[0]: lane "Tax"`},
	} {
		dir := t.TempDir()
		write(t, dir, "go.mod", "module example.com/cfg\n\ngo 1.26\n")
		write(t, dir, "quote.go", heldAcrossCall)
		write(t, dir, ".bhlint.yml", tc.config)
		_, stderr, code := run(t, dir, bin, "./...")
		if code != 2 || !strings.Contains(stderr, filepath.Join(dir, ".bhlint.yml")) || !strings.Contains(stderr, strings.TrimPrefix(tc.want, ".bhlint.yml")) {
			t.Errorf("config %q: exit %d, stderr %q; want exit 2 and an error naming the file and %q", tc.config, code, stderr, tc.want)
		}
	}
}

// TestConfigChangeIsNotHiddenByTheCache: go vet caches results keyed on the
// tool and its flags; bhlint passes the configuration's hash so that turning
// an analyzer off (and on again) takes effect at once.
func TestConfigChangeIsNotHiddenByTheCache(t *testing.T) {
	bin := buildBhlint(t)
	dir := t.TempDir()
	write(t, dir, "go.mod", "module example.com/cfgcache\n\ngo 1.26\n")
	write(t, dir, "quote.go", heldAcrossCall)
	count := func() int {
		out, stderr, _ := run(t, dir, bin, "./...")
		if !strings.HasPrefix(stderr, "bhlint: 1 package analysed, ") || strings.Count(stderr, "\n") != 1 {
			t.Fatalf("stderr: %s; want only the summary", stderr)
		}
		return len(findings(out))
	}
	if n := count(); n != 1 {
		t.Fatalf("without config: %d findings, want 1", n)
	}
	write(t, dir, ".bhlint.yml", "analyzers:\n  heldconn: false\n")
	if n := count(); n != 0 {
		t.Fatalf("with heldconn off: %d findings, want 0", n)
	}
	write(t, dir, ".bhlint.yml", "analyzers:\n  heldconn: true\n")
	if n := count(); n != 1 {
		t.Fatalf("with heldconn on again: %d findings, want 1", n)
	}
}

func TestEnableDisableFlags(t *testing.T) {
	bin := buildBhlint(t)
	dir := filepath.Join("..", "..", "testdata", "e2e", "heldconn")
	if out, _, code := run(t, dir, bin, "-enable=retrystorm", "./..."); code != 0 || out != "" {
		t.Errorf("-enable=retrystorm: exit %d, output %q; want only retrystorm, which finds nothing here", code, out)
	}
	if out, _, code := run(t, dir, bin, "-disable=ERR_CONN_HELD_ACROSS_NETWORK_CALL", "./..."); code != 0 || out != "" {
		t.Errorf("-disable by code: exit %d, output %q; want heldconn off", code, out)
	}
	if _, stderr, code := run(t, dir, bin, "-disable=nosuch", "./..."); code != 2 || !strings.Contains(stderr, `unknown analyzer "nosuch"`) {
		t.Errorf("-disable=nosuch: exit %d, %q; want exit 2 naming it", code, stderr)
	}
	if _, stderr, code := run(t, dir, bin, "-nosuchflag"); code != 2 || !strings.Contains(stderr, "nosuchflag") {
		t.Errorf("unknown flag: exit %d, %q; want exit 2 naming it", code, stderr)
	}
}

func TestExplainEveryCode(t *testing.T) {
	bin := buildBhlint(t)
	for _, what := range []string{
		"ERR_SHARED_FAILURE_DOMAIN_DETECTED", "ERR_CONN_HELD_ACROSS_NETWORK_CALL", "ERR_UNBOUNDED_QUEUE_DETECTED",
		"ERR_UNTESTED_COMPENSATION_REJECTED", "ERR_UNBOUNDED_RETRY_DETECTED", "ERR_MISSING_RETRY_AFTER",
		"ERR_MALFORMED_DIRECTIVE", "ERR_HEALTH_PROBE_SHARES_FAILURE_DOMAIN", "ERR_POOL_BUDGETS_EXCEED_DATABASE",
		"ERR_FIFO_CLAIM_ACROSS_TENANTS", "heldconn", "healthprobe", "poolbudget", "fairclaim",
	} {
		out, _, code := run(t, ".", bin, "-explain", what)
		if code != 0 || !strings.Contains(out, "Escape policy") && !strings.Contains(out, "escape") && what != "ERR_MALFORMED_DIRECTIVE" {
			t.Errorf("-explain %s: exit %d; want the analyzer's doc with its escape policy:\n%s", what, code, out)
		}
	}
	if _, _, code := run(t, ".", bin, "-explain", "ERR_NOPE"); code != 2 {
		t.Errorf("-explain of an unknown code: exit %d, want 2", code)
	}
}
