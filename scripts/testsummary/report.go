package main

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// runReport prints the summary of a results file and returns the exit code:
// 1 if anything failed or nothing ran.
func runReport(args []string, stdout io.Writer) (int, error) {
	if len(args) != 1 {
		return 0, errors.New("report: want one results file")
	}
	f, err := os.Open(args[0])
	if err != nil {
		return 0, err
	}
	defer f.Close()
	rs, err := readResults(f, args[0])
	if err != nil {
		return 0, err
	}
	return report(rs, stdout), nil
}

// report lists the failures and the skips with their reasons, then the
// counts, alone on the last line.
func report(rs []result, w io.Writer) int {
	count := map[string]int{}
	for _, r := range rs {
		count[r.Status]++
	}
	fmt.Fprintln(w, "== summary")
	if n := count[statusFail]; n > 0 {
		fmt.Fprintf(w, "failed (%d):\n", n)
		for _, r := range rs {
			if r.Status == statusFail {
				fmt.Fprintf(w, "  FAIL %s\n", r.name())
			}
		}
	}
	if n := count[statusSkip]; n > 0 {
		fmt.Fprintf(w, "skipped (%d):\n", n)
		for _, r := range rs {
			if r.Status == statusSkip {
				fmt.Fprintf(w, "  SKIP %s: %s\n", r.name(), r.Reason)
			}
		}
	}
	if len(rs) == 0 {
		fmt.Fprintln(w, "no test ran")
	}
	fmt.Fprintf(w, "%d passed, %d failed, %d skipped\n", count[statusPass], count[statusFail], count[statusSkip])
	if count[statusFail] > 0 || len(rs) == 0 {
		return 1
	}
	return 0
}
