package golangci

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/golangci/plugin-module-register/register"
)

func TestSettings(t *testing.T) {
	if _, err := New(map[string]any{"disabel": []string{"heldconn"}}); err == nil || !strings.Contains(err.Error(), "disabel") {
		t.Errorf("unknown settings key: err = %v, want an error naming it", err)
	}
	if _, err := New(map[string]any{"disable": []string{"nosuch"}}); err == nil || !strings.Contains(err.Error(), "nosuch") {
		t.Errorf("unknown analyzer: err = %v, want an error naming it", err)
	}
	p, err := New(map[string]any{"disable": []string{"ERR_CONN_HELD_ACROSS_NETWORK_CALL"}})
	if err != nil {
		t.Fatal(err)
	}
	analyzers, _ := p.BuildAnalyzers()
	for _, a := range analyzers {
		if a.Name == "heldconn" {
			t.Errorf("heldconn still enabled after disabling its code")
		}
	}
	if p.GetLoadMode() != register.LoadModeTypesInfo {
		t.Errorf("load mode %q, want typesinfo", p.GetLoadMode())
	}
	if _, err := register.GetPlugin("bhlint"); err != nil {
		t.Errorf("plugin not registered as bhlint: %v", err)
	}
}

// TestGolangciLintWithPlugin runs a real golangci-lint built with this plugin
// (scripts/golangci/build.sh; .ci/run builds it and sets
// BHLINT_GOLANGCI_LINT) on the end-to-end module and checks its findings.
func TestGolangciLintWithPlugin(t *testing.T) {
	bin := golangciLint(t)
	// --allow-serial-runners: wait for another golangci-lint on the machine
	// (another test, a developer's editor) instead of failing.
	cmd := exec.Command(bin, "run", "--allow-serial-runners", "./...")
	cmd.Dir = filepath.Join("..", "..", "testdata", "e2e", "heldconn")
	out, err := cmd.CombinedOutput()
	if exitErr, ok := err.(*exec.ExitError); !ok || exitErr.ExitCode() != 1 {
		t.Fatalf("golangci-lint run: %v, want exit 1 (issues found)\n%s", err, out)
	}
	for _, want := range []string{
		"store.go:30:15: heldconn: ERR_CONN_HELD_ACROSS_NETWORK_CALL: transaction from (*sql.DB).BeginTx is still held during (*http.Client).Do",
		"store.go:53:13: heldconn: ERR_CONN_HELD_ACROSS_NETWORK_CALL: the function passed to pgx.BeginFunc calls http.Get",
		"store.go:86:16: heldconn: ERR_CONN_HELD_ACROSS_NETWORK_CALL: open rows from (*pgxpool.Pool).Query",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("golangci-lint output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(string(out), "clean.go") {
		t.Errorf("golangci-lint reported the clean package:\n%s", out)
	}
	// //bhlint:ignore works the same under golangci-lint: the suppressed call
	// is silent and the stale ignore is reported.
	if strings.Contains(string(out), "suppress.go:16") {
		t.Errorf("golangci-lint reported a suppressed finding:\n%s", out)
	}
	if !strings.Contains(string(out), "suppress.go:22:2: heldconn: ERR_CONN_HELD_ACROSS_NETWORK_CALL: this //bhlint:ignore suppresses nothing") {
		t.Errorf("golangci-lint did not report the stale ignore:\n%s", out)
	}
}

// TestGolangciLintFleetAndTenantChecks: the probe, pool-budget and
// job-claim checks run under golangci-lint too, poolbudget with the
// deployment that the module's .bhlint.yml declares.
func TestGolangciLintFleetAndTenantChecks(t *testing.T) {
	bin := golangciLint(t)
	cmd := exec.Command(bin, "run", "--allow-serial-runners", "./...")
	cmd.Dir = filepath.Join("..", "..", "testdata", "e2e", "tenancy")
	cmd.Env = append(os.Environ(), "GOLANGCI_LINT_CACHE="+t.TempDir())
	out, err := cmd.CombinedOutput()
	if exitErr, ok := err.(*exec.ExitError); !ok || exitErr.ExitCode() != 1 {
		t.Fatalf("golangci-lint run: %v, want exit 1 (issues found)\n%s", err, out)
	}
	for _, want := range []string{
		"api/api.go:36:12: healthprobe: ERR_HEALTH_PROBE_SHARES_FAILURE_DOMAIN: health probe (*api.server).healthz",
		"main.go:16:6: poolbudget: ERR_POOL_BUDGETS_EXCEED_DATABASE: 10 replicas × (10 orders + 10 reports) = 200 connections",
		"jobs/jobs.go:11:19: fairclaim: ERR_FIFO_CLAIM_ACROSS_TENANTS: this claim takes the next row of jobs",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("golangci-lint output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(string(out), "clean/") || strings.Contains(string(out), "livez") {
		t.Errorf("golangci-lint reported a look-alike:\n%s", out)
	}
}

// TestGolangciLintConfigTakesEffect: golangci-lint keys its cache on its own
// settings and the analyzers' names; bhlint puts the digest of every
// .bhlint.yml into those names, so that on a warm cache turning an analyzer
// off and on again takes effect at once, and a bad file fails every run.
func TestGolangciLintConfigTakesEffect(t *testing.T) {
	bin := golangciLint(t)
	// A module that imports nothing, so that a run after a configuration
	// change (every package analysed again) stays cheap.
	dir := t.TempDir()
	golangciYML, err := os.ReadFile(filepath.Join("..", "..", "testdata", "e2e", "heldconn", ".golangci.yml"))
	if err != nil {
		t.Fatal(err)
	}
	writeAll(t, dir, map[string]string{
		"go.mod":         "module example.com/gclcfg\n\ngo 1.26\n",
		".golangci.yml":  string(golangciYML),
		"notify.go":      "package gclcfg\n\nfunc Notify(hooks []string, send func(string)) {\n\tfor _, h := range hooks {\n\t\tgo send(h)\n\t}\n}\n",
		"clean/clean.go": "package clean\n\nfunc Nothing() {}\n",
	})
	cache := t.TempDir()
	lint := func() (string, int) {
		return runIn(t, dir, append(os.Environ(), "GOLANGCI_LINT_CACHE="+cache), bin, "run", "--allow-serial-runners", "./...")
	}
	const finding = "notify.go:5:3: unboundedqueue: ERR_UNBOUNDED_QUEUE_DETECTED: goroutine per item"
	for _, step := range []struct {
		what, file, config string
		wantCode           int
		want               string
	}{
		{"no .bhlint.yml", "", "", 1, finding},
		{"unboundedqueue off", ".bhlint.yml", "analyzers:\n  unboundedqueue: false\n", 0, ""},
		{"unboundedqueue on again", ".bhlint.yml", "analyzers:\n  unboundedqueue: true\n", 1, finding},
		{"unknown key", ".bhlint.yml", "analyzers:\n  unboundedqueue: true\nbogus: 1\n", 3, `bogus`},
		{"unknown analyzer", ".bhlint.yml", "analyzers:\n  heldcon: false\n", 3, `unknown analyzer "heldcon"`},
		{"root fixed", ".bhlint.yml", "", 1, finding},
		{"unknown key in a nested file", "clean/.bhlint.yml", "nested: 1\n", 3, `nested`},
	} {
		if step.file != "" {
			if err := os.WriteFile(filepath.Join(dir, step.file), []byte(step.config), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		for run := 1; run <= 2; run++ { // the second run may come from the cache
			out, code := lint()
			if code != step.wantCode || (step.want != "" && !strings.Contains(out, step.want)) || (step.want == "" && strings.Contains(out, "ERR_")) {
				t.Fatalf("%s, run %d: exit %d, want %d and output with %q:\n%s", step.what, run, code, step.wantCode, step.want, out)
			}
		}
	}
}

// golangciLint is the golangci-lint built with this plugin that
// BHLINT_GOLANGCI_LINT names (scripts/golangci/build.sh builds it).
func golangciLint(t *testing.T) string {
	bin := os.Getenv("BHLINT_GOLANGCI_LINT")
	if bin == "" {
		msg := "set BHLINT_GOLANGCI_LINT to a golangci-lint built with scripts/golangci/build.sh"
		if os.Getenv("BHLINT_REQUIRE_SERVICES") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return bin
}

// TestGolangciLintNewFromRev: golangci-lint's own new-from-rev, with the
// real git, keeps only bhlint's findings on lines changed since the
// revision; this is how to adopt bhlint on old code under golangci-lint.
func TestGolangciLintNewFromRev(t *testing.T) {
	bin := golangciLint(t)
	golangciYML, err := os.ReadFile(filepath.Join("..", "..", "testdata", "e2e", "heldconn", ".golangci.yml"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	const notify = "package gclnew\n\nfunc Notify(hooks []string, send func(string)) {\n\tfor _, h := range hooks {\n\t\tgo send(h)\n\t}\n}\n"
	writeAll(t, dir, map[string]string{
		"go.mod":        "module example.com/gclnew\n\ngo 1.26\n",
		".golangci.yml": string(golangciYML),
		"notify.go":     notify,
	})
	env := append(os.Environ(), "GOLANGCI_LINT_CACHE="+t.TempDir(),
		"GIT_AUTHOR_NAME=bhlint test", "GIT_AUTHOR_EMAIL=test@example.com",
		"GIT_COMMITTER_NAME=bhlint test", "GIT_COMMITTER_EMAIL=test@example.com",
		"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	command := func(name string, args ...string) (string, int) { return runIn(t, dir, env, name, args...) }
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"commit", "-q", "-m", "old finding"}} {
		if out, code := command("git", args...); code != 0 {
			t.Fatalf("git %v: %s", args, out)
		}
	}
	writeAll(t, dir, map[string]string{"notify.go": notify + "\nfunc Broadcast(hooks []string, send func(string)) {\n\tfor _, h := range hooks {\n\t\tgo send(h)\n\t}\n}\n"})

	out, code := command(bin, "run", "--allow-serial-runners", "./...")
	if code != 1 || strings.Count(out, "ERR_UNBOUNDED_QUEUE_DETECTED") != 2 {
		t.Fatalf("golangci-lint run: exit %d, want 1 and both findings:\n%s", code, out)
	}
	out, code = command(bin, "run", "--allow-serial-runners", "--new-from-rev=HEAD", "./...")
	if code != 1 || strings.Count(out, "ERR_UNBOUNDED_QUEUE_DETECTED") != 1 || !strings.Contains(out, "notify.go:11:3: unboundedqueue: ERR_UNBOUNDED_QUEUE_DETECTED") {
		t.Errorf("golangci-lint run --new-from-rev=HEAD: exit %d, want 1 and Broadcast's finding (line 11) alone:\n%s", code, out)
	}
}

// TestGolangciLintNamesBhlintVersion: the plugin is compiled into
// golangci-lint, so its build information names the bhlint module it was
// built from, which is how to tell which bhlint a golangci-lint carries.
func TestGolangciLintNamesBhlintVersion(t *testing.T) {
	bin := golangciLint(t)
	out, err := exec.Command(bin, "version", "--debug").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "github.com/bhlint/bhlint") {
		t.Errorf("golangci-lint version --debug: %v, want the bhlint module named:\n%s", err, out)
	}
}

func writeAll(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// runIn runs a command in dir with env and returns its combined output and
// exit code.
func runIn(t *testing.T, dir string, env []string, name string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	if exitErr, ok := err.(*exec.ExitError); ok {
		return string(out), exitErr.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return string(out), 0
}
