// Package gitutil runs git; it does not touch a database, so heldconn learns
// its subprocess facts without the rest of its analysis.
package gitutil

import (
	"context"
	"os/exec"
)

// Commit runs git commit, hooks and all, and waits for it.
func Commit(ctx context.Context, msg string) error { // want Commit:"waitsOnSubprocess\\(\\(\\*exec.Cmd\\).Run\\)"
	return exec.CommandContext(ctx, "git", "commit", "-m", msg).Run()
}

// Version waits for git's output.
func Version() (string, error) { // want Version:"waitsOnSubprocess\\(\\(\\*exec.Cmd\\).Output\\)"
	out, err := exec.Command("git", "--version").Output()
	return string(out), err
}

// StartFetch starts git fetch and does not wait for it.
func StartFetch() (*exec.Cmd, error) {
	cmd := exec.Command("git", "fetch")
	return cmd, cmd.Start()
}
