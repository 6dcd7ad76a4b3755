package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// New-code mode, as golangci-lint's new-from-rev: only findings on a line
// that changed since a revision are reported. The changed lines are those
// `git diff REV` adds or modifies in the work tree (committed or not), and
// every line of a file git does not track yet.

// changedLines maps a file (absolute, symlinks resolved) to its changed lines.
type changedLines map[string]map[int]bool

// gitRoot is the top of the git work tree dir is in.
func gitRoot(dir string) (string, error) {
	out, err := gitOutput(dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return "", fmt.Errorf("not in a git work tree (%v): run bhlint from inside the repository", err)
	}
	return strings.TrimSpace(out), nil
}

// mergeBase is the commit where HEAD left branch: what a pull request's
// changes are counted from.
func mergeBase(dir, branch string) (string, error) {
	out, err := gitOutput(dir, "merge-base", "HEAD", branch)
	if err != nil {
		return "", fmt.Errorf("-new-from-merge-base: git merge-base HEAD %s: %v", branch, err)
	}
	return strings.TrimSpace(out), nil
}

// changedSince asks git for the lines changed in the work tree since rev.
func changedSince(dir, rev string) (changedLines, error) {
	root, err := gitRoot(dir)
	if err != nil {
		return nil, err
	}
	if _, err := gitOutput(root, "rev-parse", "--verify", "--quiet", rev+"^{commit}"); err != nil {
		return nil, fmt.Errorf("%q is not a commit in %s (a branch, a tag, a commit or HEAD~1)", rev, root)
	}
	diff, err := gitOutput(root, "-c", "core.quotePath=false", "diff", "--no-color", "--no-ext-diff", "--no-renames", "-U0", rev, "--")
	if err != nil {
		return nil, fmt.Errorf("git diff %s: %v", rev, err)
	}
	changed := changedLines{}
	for file, lines := range parseUnifiedDiff(diff) {
		changed[resolved(filepath.Join(root, file))] = lines
	}
	untracked, err := gitOutput(root, "-c", "core.quotePath=false", "ls-files", "--others", "--exclude-standard", "-z")
	if err != nil {
		return nil, fmt.Errorf("git ls-files: %v", err)
	}
	for _, file := range strings.Split(untracked, "\x00") {
		if file != "" {
			changed[resolved(filepath.Join(root, file))] = nil // every line
		}
	}
	return changed, nil
}

// has reports whether a finding's line changed.
func (c changedLines) has(loc location) bool {
	lines, ok := c[resolved(loc.File)]
	return ok && (lines == nil || lines[loc.Line])
}

// parseUnifiedDiff reads `git diff -U0` output: for each file's new name, the
// line numbers its hunks add ("@@ -a,b +c,d @@": lines c to c+d-1; d is 1
// when omitted, 0 for a hunk that only deletes). A deleted file has none.
func parseUnifiedDiff(diff string) map[string]map[int]bool {
	files := map[string]map[int]bool{}
	var current map[int]bool
	sc := bufio.NewScanner(strings.NewReader(diff))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "+++ "):
			current = nil
			if name, ok := strings.CutPrefix(line, "+++ b/"); ok {
				current = map[int]bool{}
				files[strings.TrimSuffix(name, "\t")] = current
			}
		case strings.HasPrefix(line, "@@ ") && current != nil:
			start, count, ok := newSideOfHunk(line)
			for n := start; ok && n < start+count; n++ {
				current[n] = true
			}
		}
	}
	return files
}

// newSideOfHunk reads "+c,d" from a hunk header.
func newSideOfHunk(header string) (start, count int, ok bool) {
	fields := strings.Fields(header)
	if len(fields) < 3 || !strings.HasPrefix(fields[2], "+") {
		return 0, 0, false
	}
	startText, countText, hasCount := strings.Cut(fields[2][1:], ",")
	start, err := strconv.Atoi(startText)
	if err != nil {
		return 0, 0, false
	}
	count = 1
	if hasCount {
		if count, err = strconv.Atoi(countText); err != nil {
			return 0, 0, false
		}
	}
	return start, count, true
}

func gitOutput(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		if msg := strings.TrimSpace(errOut.String()); msg != "" {
			return "", fmt.Errorf("%s", msg)
		}
		return "", err
	}
	return out.String(), nil
}

// resolved is a file's absolute name with symlinks resolved, so that git's
// names and go vet's compare equal (a temporary directory behind a symlink).
func resolved(file string) string {
	if abs, err := filepath.Abs(file); err == nil {
		file = abs
	}
	if real, err := filepath.EvalSymlinks(file); err == nil {
		return real
	}
	return file
}
