package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os/exec"
	"regexp"
	"strings"
)

// event is one line of `go test -json` (cmd/test2json's TestEvent), or of
// the build output go test interleaves with it (ImportPath, build-output).
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
}

// runGoTest runs `go test -json ARGS` in the -C directory, prints a
// readable log as it goes and appends its results to the -results file. A
// go test that fails with no failed test (a go command error, a bad flag)
// counts as one failure, named by its command line.
func runGoTest(args []string, stdout, stderr io.Writer) (int, error) {
	fs := flag.NewFlagSet("gotest", flag.ContinueOnError)
	file := fs.String("results", "", "results `file` to append to")
	dir := fs.String("C", ".", "run go test in `dir`")
	if err := fs.Parse(args); err != nil {
		return 0, err
	}
	if *file == "" {
		return 0, errors.New("gotest: -results is required")
	}
	goArgs := append([]string{"test", "-json"}, fs.Args()...)
	cmd := exec.Command("go", goArgs...)
	cmd.Dir, cmd.Stderr = *dir, stderr
	events, err := cmd.StdoutPipe()
	if err != nil {
		return 0, err
	}
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	acc := newAccount(stdout)
	readErr := acc.read(events)
	waitErr := cmd.Wait()
	if readErr != nil {
		return 0, readErr
	}
	acc.finish()
	if waitErr != nil && !acc.anyFailed() {
		acc.results = append(acc.results, result{
			Check:  fmt.Sprintf("go %s (in %s)", strings.Join(goArgs, " "), *dir),
			Status: statusFail,
		})
		fmt.Fprintf(stdout, "--- go test failed with no failed test: %v\n", waitErr)
	}
	if err := appendResults(*file, acc.results); err != nil {
		return 0, err
	}
	if waitErr != nil || acc.anyFailed() {
		return 1, nil
	}
	return 0, nil
}

// account follows the tests of one go test run.
type account struct {
	log     io.Writer
	running map[string]*testRun // by package and test name
	order   []string            // keys of running, in start order
	failed  map[string]bool     // packages with a failed test
	results []result
}

// testRun is a test that has started and not yet ended, with its output so
// far: printed if it fails, searched for the reason if it is skipped.
type testRun struct {
	pkg, test string
	output    strings.Builder
}

func newAccount(log io.Writer) *account {
	return &account{log: log, running: map[string]*testRun{}, failed: map[string]bool{}}
}

// read follows a `go test -json` stream to its end.
func (a *account) read(r io.Reader) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 64<<20)
	for sc.Scan() {
		a.line(sc.Bytes())
	}
	return sc.Err()
}

func (a *account) anyFailed() bool { return len(a.failed) > 0 }

func (a *account) line(b []byte) {
	var e event
	if len(b) == 0 || b[0] != '{' || json.Unmarshal(b, &e) != nil {
		fmt.Fprintf(a.log, "%s\n", b) // not an event: go's own messages pass through
		return
	}
	if e.Test == "" {
		a.packageEvent(e)
		return
	}
	switch e.Action {
	case "run", "output", "pause", "cont":
		t := a.test(e.Package, e.Test)
		t.output.WriteString(e.Output)
	case "pass", "fail", "skip":
		a.end(a.test(e.Package, e.Test), e.Action)
	}
}

func (a *account) packageEvent(e event) {
	switch e.Action {
	case "build-output":
		fmt.Fprint(a.log, e.Output)
	case "output":
		if e.Output != "PASS\n" { // the "ok  pkg  1.2s" line follows
			fmt.Fprint(a.log, e.Output)
		}
	case "fail":
		a.packageFailed(e.Package)
	}
}

// test returns the running test pkg.name, starting it if this is its first
// event.
func (a *account) test(pkg, name string) *testRun {
	key := pkg + "\x00" + name
	t := a.running[key]
	if t == nil {
		t = &testRun{pkg: pkg, test: name}
		a.running[key] = t
		a.order = append(a.order, key)
	}
	return t
}

func (a *account) end(t *testRun, status string) {
	delete(a.running, t.pkg+"\x00"+t.test)
	r := result{Package: t.pkg, Test: t.test, Status: status}
	switch status {
	case statusSkip:
		r.Reason = skipReason(t.output.String())
		fmt.Fprintf(a.log, "--- SKIP: %s %s: %s\n", t.pkg, t.test, r.Reason)
	case statusFail:
		a.failed[t.pkg] = true
		fmt.Fprintf(a.log, "--- output of failed test %s %s:\n%s", t.pkg, t.test, t.output.String())
	}
	a.results = append(a.results, r)
}

// packageFailed ends pkg's run: its tests still running did not finish (a
// panic, a timeout, os.Exit); a package that failed with no failed test
// failed outside them (a build error, TestMain), and counts as one failure.
func (a *account) packageFailed(pkg string) {
	for _, t := range a.unfinished(pkg) {
		t.output.WriteString("(the test did not finish: its package failed while it ran — a timeout, a panic, os.Exit; see the output above)\n")
		a.end(t, statusFail)
	}
	if !a.failed[pkg] {
		a.failed[pkg] = true
		a.results = append(a.results, result{Package: pkg, Status: statusFail})
	}
}

// unfinished returns pkg's tests that started and have not ended, or every
// package's if pkg is "".
func (a *account) unfinished(pkg string) []*testRun {
	var out []*testRun
	for _, key := range a.order {
		if t := a.running[key]; t != nil && (pkg == "" || t.pkg == pkg) {
			out = append(out, t)
		}
	}
	return out
}

// finish fails the tests the stream left running: go test was killed.
func (a *account) finish() {
	for _, t := range a.unfinished("") {
		t.output.WriteString("(the stream ended before the test did: go test was interrupted)\n")
		a.end(t, statusFail)
	}
}

// logLine matches the start of a line the testing package writes for
// t.Log, t.Skip and friends: "    file_test.go:42: message".
var logLine = regexp.MustCompile(`^\s+[^\s:]+\.go:\d+: `)

// skipReason finds the t.Skip message in a skipped test's output: the last
// logged message, with its continuation lines. A test that skipped without
// one gets "(no reason given)", so the report still shows it.
func skipReason(output string) string {
	var lines []string
	for _, l := range strings.Split(output, "\n") {
		trimmed := strings.TrimSpace(l)
		if trimmed == "" || strings.HasPrefix(trimmed, "=== ") || strings.HasPrefix(trimmed, "--- ") {
			continue
		}
		if loc := logLine.FindString(l); loc != "" {
			lines = lines[:0]
			trimmed = strings.TrimSpace(l[len(loc):])
		}
		lines = append(lines, trimmed)
	}
	if len(lines) == 0 {
		return "(no reason given)"
	}
	return strings.Join(lines, " ")
}
