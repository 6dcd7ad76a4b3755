// Package gitsvc declares a git interface with a subprocess implementation, a
// fake, an HTTP mirror client and a local-only notifier, for callers holding
// a transaction in another package.
package gitsvc

import (
	"net/http"
	"os/exec"
)

// Git pushes a repository.
type Git interface {
	Push(dir string) error
}

// CLI runs the git binary: Push waits for the process.
type CLI struct{}

func (CLI) Push(dir string) error { // want Push:`waitsOnSubprocess`
	return exec.Command("git", "-C", dir, "push").Run()
}

// FakeGit records pushes (a test double): it waits on nothing, and does not
// make a call through Git silent.
type FakeGit struct{ Pushed []string }

func (f *FakeGit) Push(dir string) error {
	f.Pushed = append(f.Pushed, dir)
	return nil
}

// Mirror tells a mirror service over HTTP.
type Mirror interface {
	Notify(repo string) error
}

type HTTPMirror struct{ URL string }

func (m HTTPMirror) Notify(repo string) error {
	resp, err := http.Post(m.URL, "text/plain", nil)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Counter's implementations all stay in memory.
type Counter interface {
	Inc(repo string)
}

type MemCounter struct{ n map[string]int }

func (c *MemCounter) Inc(repo string) { c.n[repo]++ }
