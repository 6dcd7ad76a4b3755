package main_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const heldAcrossCall = `package hooked

import (
	"context"
	"database/sql"
	"net/http"
)

func Quote(ctx context.Context, db *sql.DB, url string) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := http.Get(url); err != nil {
		return err
	}
	return tx.Commit()
}
`

// TestPreCommitHook installs this repository's hook with the real pre-commit
// tool into a fresh repository, and shows a commit with a finding blocked and
// a clean one accepted. The hook is taken at this repository's HEAD commit,
// so commit your changes before running it.
func TestPreCommitHook(t *testing.T) {
	if testing.Short() {
		t.Skip("builds bhlint through pre-commit")
	}
	if _, err := exec.LookPath("pre-commit"); err != nil {
		msg := "pre-commit is not installed (Debian: apt-get install pre-commit)"
		if os.Getenv("BHLINT_REQUIRE_SERVICES") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	head := strings.TrimSpace(mustRun(t, root, nil, "git", "rev-parse", "HEAD"))

	repo := t.TempDir()
	env := []string{
		"PRE_COMMIT_HOME=" + filepath.Join(t.TempDir(), "pre-commit-cache"),
		"GOMODCACHE=" + strings.TrimSpace(mustRun(t, root, nil, "go", "env", "GOMODCACHE")),
		"GIT_AUTHOR_NAME=bhlint test", "GIT_AUTHOR_EMAIL=test@example.com",
		"GIT_COMMITTER_NAME=bhlint test", "GIT_COMMITTER_EMAIL=test@example.com",
	}
	mustRun(t, repo, env, "git", "init", "-q")
	write(t, repo, "go.mod", "module example.com/hooked\n\ngo 1.26\n")
	write(t, repo, ".pre-commit-config.yaml", "repos:\n  - repo: "+root+"\n    rev: "+head+"\n    hooks:\n      - id: bhlint\n")
	write(t, repo, "quote.go", heldAcrossCall)
	mustRun(t, repo, env, "pre-commit", "install")
	mustRun(t, repo, env, "git", "add", "-A")

	out, err := runEnv(repo, env, "git", "commit", "-q", "-m", "quote inside the transaction")
	if err == nil {
		t.Fatalf("commit with a finding was accepted; hook output:\n%s", out)
	}
	if !strings.Contains(out, "ERR_CONN_HELD_ACROSS_NETWORK_CALL") {
		t.Fatalf("commit blocked, but not by bhlint's finding:\n%s", out)
	}

	fixed := strings.Replace(heldAcrossCall, "\tdefer tx.Rollback()\n\tif _, err := http.Get(url); err != nil {\n\t\treturn err\n\t}\n\treturn tx.Commit()",
		"\tdefer tx.Rollback()\n\tif err := tx.Commit(); err != nil {\n\t\treturn err\n\t}\n\t_, err = http.Get(url)\n\treturn err", 1)
	write(t, repo, "quote.go", fixed)
	mustRun(t, repo, env, "git", "add", "-A")
	if out, err := runEnv(repo, env, "git", "commit", "-q", "-m", "call after commit"); err != nil {
		t.Fatalf("clean commit was blocked: %v\n%s", err, out)
	}
}

func write(t *testing.T, dir, name, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func runEnv(dir string, env []string, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func mustRun(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	out, err := runEnv(dir, env, name, args...)
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return out
}
