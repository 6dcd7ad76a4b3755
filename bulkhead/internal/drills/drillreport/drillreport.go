// Package drillreport is what the runtime's drill commands share: their
// checks against targets and the way they end (a report file, the report
// on stdout, a last line starting with "drill:", exit 0 or 1).
package drillreport

import (
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
)

// Checks are a drill's targets, each met or not.
type Checks struct {
	lines  []string
	failed bool
}

// Check records one target.
func (c *Checks) Check(ok bool, format string, args ...any) {
	mark := "PASS "
	if !ok {
		mark, c.failed = "FAIL ", true
	}
	c.lines = append(c.lines, mark+fmt.Sprintf(format, args...))
}

// Pass is whether every target was met.
func (c *Checks) Pass() bool { return !c.failed }

// Status is PASS or FAIL, for the last line.
func (c *Checks) Status() string {
	if c.failed {
		return "FAIL"
	}
	return "PASS"
}

// Write appends the checks to a report.
func (c *Checks) Write(b *strings.Builder) {
	fmt.Fprintln(b, "\nchecks:")
	for _, l := range c.lines {
		fmt.Fprintln(b, "  "+l)
	}
}

// Finish writes text and last to out/report.txt, prints them, and exits 1
// unless pass.
func Finish(out, text, last string, pass bool) {
	if err := os.MkdirAll(out, 0o755); err == nil {
		if err := os.WriteFile(filepath.Join(out, "report.txt"), []byte(text+last+"\n"), 0o644); err != nil {
			log.Print(err)
		}
	}
	fmt.Print(text)
	fmt.Println(last)
	if !pass {
		os.Exit(1)
	}
}

// Fail ends a drill that could not run: exit 2.
func Fail(err error) {
	fmt.Printf("drill: ERROR %v\n", err)
	os.Exit(2)
}
