package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

// A result is one test, one package that failed outside its tests (a build
// error, a panic in TestMain, a timeout), or one check that is not a Go test.
// The results file holds one per line, in JSON, appended by every stage of
// the test script.
type result struct {
	Package string `json:"package,omitempty"` // import path; "" for a check
	Test    string `json:"test,omitempty"`    // test name, subtests as Parent/Sub; "" for a package
	Check   string `json:"check,omitempty"`   // name of a check that is not a Go test
	Status  string `json:"status"`            // pass, fail or skip
	Reason  string `json:"reason,omitempty"`  // for a skip: the t.Skip message
}

const (
	statusPass = "pass"
	statusFail = "fail"
	statusSkip = "skip"
)

// name is how the report refers to r.
func (r result) name() string {
	switch {
	case r.Check != "":
		return r.Check
	case r.Test == "":
		return r.Package + " (package)"
	}
	return r.Package + " " + r.Test
}

// appendResults adds rs to the results file, creating it if needed.
func appendResults(file string, rs []result) error {
	f, err := os.OpenFile(file, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(f)
	for _, r := range rs {
		if err := enc.Encode(r); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}

// readResults reads a results file; a line that is not a result is an
// error naming the line.
func readResults(r io.Reader, file string) ([]result, error) {
	var rs []result
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for line := 1; sc.Scan(); line++ {
		var res result
		if err := json.Unmarshal(sc.Bytes(), &res); err != nil {
			return nil, fmt.Errorf("%s:%d: not a test result: %v", file, line, err)
		}
		if res.Status != statusPass && res.Status != statusFail && res.Status != statusSkip {
			return nil, fmt.Errorf("%s:%d: status %q, want pass, fail or skip", file, line, res.Status)
		}
		rs = append(rs, res)
	}
	return rs, sc.Err()
}

// runCheck records the result of a step that is not a Go test.
func runCheck(args []string) error {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	file := fs.String("results", "", "results `file` to append to")
	var r result
	fs.StringVar(&r.Check, "name", "", "what was checked")
	fs.StringVar(&r.Status, "status", "", "pass, fail or skip")
	fs.StringVar(&r.Reason, "reason", "", "why it was skipped")
	if err := fs.Parse(args); err != nil {
		return err
	}
	switch {
	case *file == "":
		return errors.New("check: -results is required")
	case r.Check == "":
		return errors.New("check: -name is required")
	case r.Status != statusPass && r.Status != statusFail && r.Status != statusSkip:
		return fmt.Errorf("check: -status %q, want pass, fail or skip", r.Status)
	case r.Status == statusSkip && r.Reason == "":
		return errors.New("check: a skip needs a -reason")
	}
	return appendResults(*file, []result{r})
}
