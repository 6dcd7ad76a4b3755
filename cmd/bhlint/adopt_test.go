package main_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Adopting the gate on code that already has findings: a baseline, new-code
// mode and GitHub annotations, with the real binary, the real go vet and the
// real git, on a package that imports nothing (cheap to analyse).

// notifyTwice has two unboundedqueue findings: Notify and (*Hub).Notify.
const notifyTwice = `package sub

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
`

// sameShapeElsewhere is Notify's finding again, in a new function.
const sameShapeElsewhere = `
func Broadcast(hooks []string, send func(string)) {
	for _, h := range hooks {
		go send(h)
	}
}
`

var gitEnv = []string{
	"GIT_AUTHOR_NAME=bhlint test", "GIT_AUTHOR_EMAIL=test@example.com",
	"GIT_COMMITTER_NAME=bhlint test", "GIT_COMMITTER_EMAIL=test@example.com",
	"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
}

// gitRepo makes a module with notifyTwice, committed.
func gitRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	write(t, dir, "go.mod", "module example.com/adopt\n\ngo 1.26\n")
	write(t, dir, filepath.Join("sub", "notify.go"), notifyTwice)
	mustRun(t, dir, gitEnv, "git", "init", "-q", "-b", "main")
	commitAll(t, dir, "two findings")
	return dir
}

func commitAll(t *testing.T, dir, msg string) {
	t.Helper()
	mustRun(t, dir, gitEnv, "git", "add", "-A")
	mustRun(t, dir, gitEnv, "git", "commit", "-q", "-m", msg)
}

// TestBaseline walks the story: a baseline written, then a clean
// pass; code moved three lines down still matched; the same finding in
// another function fails and is the only one printed; a fixed finding
// named as a stale entry.
func TestBaseline(t *testing.T) {
	t.Parallel()
	bin := buildBhlint(t)
	dir := gitRepo(t)
	file := filepath.Join(dir, "sub", "notify.go")

	out, stderr, code := run(t, dir, bin, "-write-baseline=bhlint-baseline.json", "./...")
	if code != 0 || out != "" || !strings.Contains(stderr, "wrote 2 findings (2 entries) to bhlint-baseline.json") {
		t.Fatalf("-write-baseline: exit %d, stdout %q, stderr:\n%s", code, out, stderr)
	}
	first, _ := os.ReadFile(filepath.Join(dir, "bhlint-baseline.json"))
	run(t, dir, bin, "-write-baseline=bhlint-baseline.json", "./...")
	if again, _ := os.ReadFile(filepath.Join(dir, "bhlint-baseline.json")); string(again) != string(first) {
		t.Errorf("a second -write-baseline of the same code wrote another file")
	}

	baselineRun := func(what string, wantCode int) (string, string) {
		t.Helper()
		out, stderr, code := run(t, dir, bin, "-baseline=bhlint-baseline.json", "./...")
		if code != wantCode {
			t.Fatalf("%s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", what, code, wantCode, out, stderr)
		}
		return out, stderr
	}
	out, stderr = baselineRun("unchanged code", 0)
	if out != "" || !strings.Contains(stderr, "held back 2 findings") {
		t.Errorf("unchanged code: stdout %q, stderr:\n%s\nwant nothing printed and 2 held back", out, stderr)
	}

	moved := strings.Replace(notifyTwice, "package sub\n", "package sub\n\n// Notify is moved\n// three lines down.\n", 1)
	write(t, dir, filepath.Join("sub", "notify.go"), moved)
	if out, stderr = baselineRun("three lines added above", 0); out != "" {
		t.Errorf("after a 3-line move: printed %q\n%s", out, stderr)
	}
	run(t, dir, "gofmt", "-w", file)

	write(t, dir, filepath.Join("sub", "notify.go"), moved+sameShapeElsewhere)
	out, _ = baselineRun("the same finding in a new function", 1)
	if got := findings(out); len(got) != 1 || !strings.HasPrefix(got[0], "sub/notify.go:22:") {
		t.Errorf("printed %q, want only Broadcast's finding (line 22)", got)
	}

	fixed := strings.Replace(moved, "go send(hook)", "send(hook)", 1)
	write(t, dir, filepath.Join("sub", "notify.go"), fixed)
	out, stderr = baselineRun("Hub.Notify fixed", 0)
	if !strings.Contains(stderr, "1 stale baseline entry in bhlint-baseline.json") || !strings.Contains(stderr, "example.com/adopt/sub (*Hub).Notify: ERR_UNBOUNDED_QUEUE_DETECTED") {
		t.Errorf("stderr:\n%s\nwant the stale entry of (*Hub).Notify named", stderr)
	}
	if !strings.Contains(stderr, "held back 1 finding") || out != "" {
		t.Errorf("stdout %q, stderr:\n%s\nwant Notify's finding held back", out, stderr)
	}

	// A run on another package does not call this one's entries stale.
	write(t, dir, filepath.Join("other", "other.go"), "package other\n")
	if _, stderr = baselineRunIn(t, bin, dir, "./other"); strings.Contains(stderr, "stale baseline") {
		t.Errorf("a run on ./other reports stale entries of ./sub:\n%s", stderr)
	}
}

func baselineRunIn(t *testing.T, bin, dir, pkg string) (string, string) {
	t.Helper()
	out, stderr, code := run(t, dir, bin, "-baseline=bhlint-baseline.json", pkg)
	if code != 0 {
		t.Fatalf("bhlint -baseline %s: exit %d\n%s", pkg, code, stderr)
	}
	return out, stderr
}

// TestNewFromRev: only findings on lines changed since the revision are
// reported, committed or not, in new files too; outside a work tree, a
// clear error.
func TestNewFromRev(t *testing.T) {
	t.Parallel()
	bin := buildBhlint(t)
	dir := gitRepo(t)
	mustRun(t, dir, gitEnv, "git", "tag", "adopted")
	write(t, dir, filepath.Join("sub", "notify.go"), notifyTwice+sameShapeElsewhere)

	for _, args := range [][]string{{"-new-from-rev=HEAD"}, {"-new-from-rev=adopted"}, {"-new-from-merge-base=main"}} {
		out, stderr, code := run(t, dir, bin, append(args, "./...")...)
		if got := findings(out); code != 1 || len(got) != 1 || !strings.HasPrefix(got[0], "sub/notify.go:19:") {
			t.Errorf("%s, uncommitted change: exit %d, findings %q, want Broadcast's alone\n%s", args[0], code, got, stderr)
		}
		if !strings.Contains(stderr, "2 findings on lines unchanged since") {
			t.Errorf("%s: summary does not count the findings left out:\n%s", args[0], stderr)
		}
	}

	commitAll(t, dir, "broadcast")
	write(t, dir, filepath.Join("sub", "more.go"), "package sub\n"+strings.ReplaceAll(sameShapeElsewhere, "Broadcast", "Fanout"))
	out, _, _ := run(t, dir, bin, "-new-from-rev=HEAD~1", "./...")
	if got := findings(out); len(got) != 2 || !strings.HasPrefix(got[0], "sub/more.go:5:") || !strings.HasPrefix(got[1], "sub/notify.go:19:") {
		t.Errorf("-new-from-rev=HEAD~1: %q, want the untracked file's finding and Broadcast's", got)
	}
	if out, _, code := run(t, dir, bin, "-new-from-rev=HEAD", "./..."); code != 1 || len(findings(out)) != 1 {
		t.Errorf("-new-from-rev=HEAD: exit %d, %q; want the untracked file's finding alone", code, out)
	}

	notGit := t.TempDir()
	write(t, notGit, "go.mod", "module example.com/nogit\n\ngo 1.26\n")
	write(t, notGit, filepath.Join("sub", "notify.go"), notifyTwice)
	_, stderr, code := run(t, notGit, bin, "-new-from-rev=HEAD", "./...")
	if code != 2 || !strings.Contains(stderr, "-new-from-rev: not in a git work tree") {
		t.Errorf("outside git: exit %d, stderr:\n%s\nwant exit 2 and a clear error", code, stderr)
	}
	if _, stderr, code := run(t, dir, bin, "-new-from-rev=no-such-branch", "./..."); code != 2 || !strings.Contains(stderr, `"no-such-branch" is not a commit`) {
		t.Errorf("unknown revision: exit %d, stderr:\n%s", code, stderr)
	}
}

var workflowCommand = regexp.MustCompile(`^::error file=([^,]+),line=(\d+),col=(\d+)(?:,endLine=\d+)?(?:,endColumn=\d+)?,title=(ERR_[A-Z_]+)::(.+)$`)

// TestGitHubFormat: one workflow command per finding, file names relative
// to the repository root even from a subdirectory.
func TestGitHubFormat(t *testing.T) {
	t.Parallel()
	bin := buildBhlint(t)
	dir := gitRepo(t)
	out, stderr, code := run(t, filepath.Join(dir, "sub"), bin, "-format=github", ".")
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s", code, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d lines, want one per finding (2):\n%s", len(lines), out)
	}
	for i, wantLine := range []int{5, 13} {
		m := workflowCommand.FindStringSubmatch(lines[i])
		if m == nil {
			t.Fatalf("line %d is not an ::error workflow command: %q", i+1, lines[i])
		}
		if line, _ := strconv.Atoi(m[2]); m[1] != "sub/notify.go" || line != wantLine || m[4] != "ERR_UNBOUNDED_QUEUE_DETECTED" {
			t.Errorf("line %d: file %s line %s title %s; want sub/notify.go, %d, the code", i+1, m[1], m[2], m[4], wantLine)
		}
		if strings.Contains(m[5], "\n") || !strings.Contains(m[5], "%0Asub/notify.go:") {
			t.Errorf("line %d: message %q, want the related position on an escaped new line", i+1, m[5])
		}
	}
}

// TestJSONSummaryHasTheGate: -format=json carries what the baseline held
// back and the stale entries, for tools that read it.
func TestJSONSummaryHasTheGate(t *testing.T) {
	t.Parallel()
	bin := buildBhlint(t)
	dir := gitRepo(t)
	run(t, dir, bin, "-write-baseline=b.json", "./...")
	write(t, dir, filepath.Join("sub", "notify.go"), strings.Replace(notifyTwice, "go send(hook)", "send(hook)", 1))
	out, _, code := run(t, dir, bin, "-format=json", "-baseline=b.json", "./...")
	var got struct {
		Findings []struct{ Package string }
		Summary  struct {
			Baseline struct {
				HeldBack int                         `json:"findings_held_back"`
				Stale    []struct{ Function string } `json:"stale_entries"`
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if code != 0 || len(got.Findings) != 0 || got.Summary.Baseline.HeldBack != 1 ||
		len(got.Summary.Baseline.Stale) != 1 || got.Summary.Baseline.Stale[0].Function != "(*Hub).Notify" {
		t.Errorf("exit %d, %+v\n%s", code, got, out)
	}
}
