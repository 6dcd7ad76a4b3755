package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/bhlint/bhlint/internal/suite"
)

// gateFlags are the ways to adopt the gate on code that already has
// findings: a baseline of accepted ones, or only the lines a change touched.
type gateFlags struct {
	writeBaseline    string
	baseline         string
	newFromRev       string
	newFromMergeBase string
}

func (g *gateFlags) addFlags(fs *flag.FlagSet) {
	fs.StringVar(&g.writeBaseline, "write-baseline", "", "write every current finding to `file` (a baseline for -baseline) and exit 0 unless something was not analysed")
	fs.StringVar(&g.baseline, "baseline", "", "do not report or fail on the findings recorded in `file` by -write-baseline; name the entries nothing matches any more")
	fs.StringVar(&g.newFromRev, "new-from-rev", "", "report only findings on lines changed since `rev` (git: a branch, a tag, a commit, HEAD~1), uncommitted changes included")
	fs.StringVar(&g.newFromMergeBase, "new-from-merge-base", "", "report only findings on lines changed since HEAD left `branch` (git merge-base HEAD branch)")
}

// check rejects combinations that would not mean what they say.
func (g *gateFlags) check(fixDiff bool) error {
	switch {
	case g.newFromRev != "" && g.newFromMergeBase != "":
		return errors.New("-new-from-rev and -new-from-merge-base: give one")
	case g.writeBaseline != "" && (g.baseline != "" || g.newFromRev != "" || g.newFromMergeBase != ""):
		return errors.New("-write-baseline records every finding: it does not combine with -baseline or -new-from-*")
	case fixDiff && *g != gateFlags{}:
		return errors.New("-fix -diff previews fixes: it does not combine with -baseline, -write-baseline or -new-from-*")
	}
	return nil
}

// narrow gives every finding its fingerprint and returns those the gate
// reports: not held back by the baseline, on a changed line. The baseline
// is matched against every finding first, so that findings outside the
// diff do not make its entries look stale. runs says whether an analyzer
// ran (-enable, -disable).
func (g *gateFlags) narrow(fs []finding, sum *runSummary, runs func(string) bool) ([]finding, error) {
	k := newKeyer()
	keys, ordinals := k.keys(fs)
	for i := range fs {
		fs[i].fingerprint = keys[i].fingerprint(ordinals[i])
	}
	if g.baseline != "" {
		b, err := readBaseline(g.baseline)
		if err != nil {
			return nil, err
		}
		checked := func(key findingKey) bool { return sum.analysed[key.Package] && codeRan(key.Code, runs) }
		m := b.apply(fs, k, checked)
		for i := range m.fresh {
			m.fresh[i].baselineState = "new"
		}
		for i := range m.held {
			m.held[i].baselineState = "unchanged"
		}
		sum.Baseline = &baselineSummary{File: g.baseline, HeldBack: len(m.held), Stale: orEmpty(m.stale), heldFindings: m.held}
		fs = m.fresh
	}
	rev, err := g.revision()
	if err != nil || rev == "" {
		return fs, err
	}
	changed, err := changedSince(".", rev)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", g.revisionFlag(), err)
	}
	var onChanged []finding
	for _, f := range fs {
		if changed.has(f.Location) {
			onChanged = append(onChanged, f)
		}
	}
	sum.NewCode = &newCodeSummary{Since: rev, Unchanged: len(fs) - len(onChanged)}
	return onChanged, nil
}

// revision is the commit new code is counted from, "" when every line counts.
func (g *gateFlags) revision() (string, error) {
	if g.newFromMergeBase == "" {
		return g.newFromRev, nil
	}
	if _, err := gitRoot("."); err != nil {
		return "", fmt.Errorf("-new-from-merge-base: %v", err)
	}
	return mergeBase(".", g.newFromMergeBase)
}

func (g *gateFlags) revisionFlag() string {
	if g.newFromMergeBase != "" {
		return "-new-from-merge-base"
	}
	return "-new-from-rev"
}

// codeRan reports whether the analyzer with a diagnostic code ran.
func codeRan(code string, runs func(string) bool) bool {
	for _, e := range suite.All {
		if e.Code == code {
			return runs(e.Analyzer.Name)
		}
	}
	return false
}

// recordBaseline is -write-baseline: every finding goes into the file, none
// is printed, and the run passes unless something was not analysed (a
// baseline of a partial run would call the rest new later).
func recordBaseline(file string, fs []finding, sum *runSummary, runErr error, stderr io.Writer) int {
	b := newBaseline(fs, newKeyer())
	if err := writeBaseline(file, b); err != nil {
		fmt.Fprintln(stderr, "bhlint:", err)
		return exitError
	}
	if runErr != nil {
		fmt.Fprintln(stderr, runErr)
	}
	sum.relativize()
	sum.print(stderr, len(fs))
	fmt.Fprintf(stderr, "bhlint: wrote %s (%s) to %s\n", plural(len(fs), "finding"), plural(len(b.Findings), "entry"), file)
	if runErr != nil || !sum.complete() {
		return exitError
	}
	return exitClean
}
