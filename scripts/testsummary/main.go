// Command testsummary keeps the account of scripts/test.sh: every test that
// passed, failed or was skipped, with each skip's reason, so that nothing is
// skipped unseen.
//
//	testsummary gotest -results FILE [-C DIR] -- [go test flags and packages]
//	testsummary check -results FILE -name NAME -status pass|fail|skip [-reason TEXT]
//	testsummary report FILE
//
// gotest runs `go test -json` with the given arguments, prints a readable
// log as it goes (package results, the full output of failed tests, each
// skip with its reason) and appends one result per test, subtests included,
// to FILE; it exits 1 if anything failed. check appends the
// result of a step that is not a Go test (gofmt, staticcheck, a script).
// report prints the failures and the skips with their reasons, and ends with
// the line "N passed, N failed, N skipped"; it exits 1 if anything failed or
// if FILE holds no result at all.
package main

import (
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usage = `usage:
  testsummary gotest -results FILE [-C DIR] -- [go test flags and packages]
  testsummary check  -results FILE -name NAME -status pass|fail|skip [-reason TEXT]
  testsummary report FILE`

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, usage)
		return 2
	}
	var err error
	code := 0
	switch args[0] {
	case "gotest":
		code, err = runGoTest(args[1:], stdout, stderr)
	case "check":
		err = runCheck(args[1:])
	case "report":
		code, err = runReport(args[1:], stdout)
	default:
		err = fmt.Errorf("unknown command %q\n%s", args[0], usage)
	}
	if err != nil {
		fmt.Fprintln(stderr, "testsummary:", err)
		return 2
	}
	return code
}
