package main

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// runSummary is what a run checked: every run ends with it, on stderr, and
// in the JSON and SARIF output, so that a run that checked less than the
// user thinks never looks like a clean one.
type runSummary struct {
	Analysed    int          `json:"packages_analysed"`
	NotAnalysed []unanalysed `json:"packages_not_analysed"`
	Skipped     []skipNotice `json:"functions_skipped"`
	Errors      []string     `json:"analyzer_errors"`
	// Baseline and NewCode: what -baseline and -new-from-* kept back.
	Baseline *baselineSummary `json:"baseline,omitempty"`
	NewCode  *newCodeSummary  `json:"new_code,omitempty"`

	analysed map[string]bool // package paths, from the run records
}

// baselineSummary is what a baseline held back, and its entries nothing
// matched any more: the code was fixed, and the entry can go.
type baselineSummary struct {
	File     string          `json:"file"`
	HeldBack int             `json:"findings_held_back"`
	Stale    []baselineEntry `json:"stale_entries"`

	heldFindings []finding // for SARIF's baselineState "unchanged"
}

// newCodeSummary is what -new-from-rev and -new-from-merge-base left out.
type newCodeSummary struct {
	Since     string `json:"since"`
	Unchanged int    `json:"findings_on_unchanged_lines"`
}

// held are the findings the baseline held back, if any.
func (s *runSummary) held() []finding {
	if s.Baseline == nil {
		return nil
	}
	return s.Baseline.heldFindings
}

// unanalysed is a package the run was asked for and did not analyse.
type unanalysed struct {
	Package string `json:"package"`
	Reason  string `json:"reason"`
}

// skipNotice is a function an analyzer left unchecked: over the SSA budget
// (lazyssa.SkipCategory). It is not a finding.
type skipNotice struct {
	Analyzer string   `json:"analyzer"`
	Message  string   `json:"message"`
	Location location `json:"location"`
}

func newSummary() *runSummary { return &runSummary{analysed: map[string]bool{}} }

// forJSON is the summary with empty lists rather than nulls, its notices
// in a fixed order and each once (a package and its test variant report
// the same function).
func (s *runSummary) forJSON() runSummary {
	out := *s
	out.NotAnalysed = orEmpty(out.NotAnalysed)
	out.Skipped = orEmpty(out.Skipped)
	out.Errors = orEmpty(out.Errors)
	return out
}

func orEmpty[T any](list []T) []T {
	if list == nil {
		return []T{}
	}
	return list
}

// sortNotices puts the notices in a fixed order, each once.
func (s *runSummary) sortNotices() {
	slices.SortFunc(s.Skipped, func(a, b skipNotice) int {
		return cmp.Or(cmp.Compare(a.Location.File, b.Location.File), cmp.Compare(a.Location.Line, b.Location.Line),
			cmp.Compare(a.Location.Column, b.Location.Column), cmp.Compare(a.Analyzer, b.Analyzer))
	})
	s.Skipped = slices.Compact(s.Skipped)
	slices.Sort(s.Errors)
	s.Errors = slices.Compact(s.Errors)
}

// complete reports whether every package asked for was analysed without
// an analyzer failing. Skipped functions are notices: they do not make a
// run incomplete.
func (s *runSummary) complete() bool { return len(s.NotAnalysed) == 0 && len(s.Errors) == 0 }

// recordAnalysed notes a package the vet tool analysed; id is go vet's
// package ID ("p", "p [p.test]" or "p_test [p.test]").
func (s *runSummary) recordAnalysed(id string) {
	path, _, _ := strings.Cut(id, " ")
	if !s.analysed[path] {
		s.analysed[path] = true
		s.Analysed++
	}
}

// print writes the summary for a person: one line when all went well.
func (s *runSummary) print(w io.Writer, findings int) {
	fmt.Fprintf(w, "bhlint: %s analysed, %s", plural(s.Analysed, "package"), plural(findings, "finding"))
	if n := s.skippedFunctions(); n > 0 {
		fmt.Fprintf(w, ", %s skipped over the SSA budget (not checked):\n", plural(n, "function"))
		for _, sk := range s.Skipped {
			fmt.Fprintf(w, "  %s: %s\n", sk.Location, sk.Message)
		}
	} else {
		fmt.Fprintln(w)
	}
	s.printGate(w)
	if len(s.NotAnalysed) > 0 {
		fmt.Fprintf(w, "bhlint: %s not analysed:\n", plural(len(s.NotAnalysed), "package"))
		for _, u := range s.NotAnalysed {
			fmt.Fprintf(w, "  %s: %s\n", u.Package, u.Reason)
		}
	}
	if len(s.Errors) > 0 {
		fmt.Fprintf(w, "bhlint: %s failed:\n", plural(len(s.Errors), "analysis"))
		for _, e := range s.Errors {
			fmt.Fprintf(w, "  %s\n", strings.ReplaceAll(e, "\n", "\n    "))
		}
	}
}

// printGate says what -baseline and -new-from-* kept back, and names the
// stale baseline entries so that the file can shrink.
func (s *runSummary) printGate(w io.Writer) {
	if b := s.Baseline; b != nil {
		fmt.Fprintf(w, "bhlint: the baseline %s held back %s\n", b.File, plural(b.HeldBack, "finding"))
		if len(b.Stale) > 0 {
			fmt.Fprintf(w, "bhlint: notice: %s in %s: nothing matches them any more (the code was fixed?): remove them, or write the file again with -write-baseline\n",
				plural(len(b.Stale), "stale baseline entry"), b.File)
			for _, e := range b.Stale {
				fmt.Fprintf(w, "  %s %s: %s: %s (%d)\n", e.Package, orPackageLevel(e.Function), e.Code, e.Message, e.Count)
			}
		}
	}
	if n := s.NewCode; n != nil {
		fmt.Fprintf(w, "bhlint: %s on lines unchanged since %s not shown\n", plural(n.Unchanged, "finding"), n.Since)
	}
}

func orPackageLevel(function string) string {
	if function == "" {
		return "(package level)"
	}
	return function
}

func (s *runSummary) skippedFunctions() int {
	seen := map[location]bool{}
	for _, sk := range s.Skipped {
		seen[sk.Location] = true
	}
	return len(seen)
}

func plural(n int, noun string) string {
	switch {
	case n == 1:
		return "1 " + noun
	case strings.HasSuffix(noun, "is"):
		return fmt.Sprintf("%d %ses", n, strings.TrimSuffix(noun, "is"))
	case strings.HasSuffix(noun, "ry"):
		return fmt.Sprintf("%d %sies", n, strings.TrimSuffix(noun, "y"))
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// relativize shortens the skipped functions' file names, as relativize
// does the findings'.
func (s *runSummary) relativize() {
	for i := range s.Skipped {
		s.Skipped[i].Location.File = relPath(s.Skipped[i].Location.File)
	}
}

// runRecord is an analyzer only the vet tool runs: with -bhlintrun.record,
// which the bhlint command sets, it reports one record per package it
// analysed, so that the command can count them (go vet's JSON output has
// nothing for a package without findings). Without the flag it reports
// nothing, and go vet users never see it.
var runRecord = &analysis.Analyzer{
	Name: "bhlintrun",
	Doc:  "record each package analysed, for the bhlint command's summary (only with -bhlintrun.record, which bhlint sets)",
	URL:  "https://github.com/bhlint/bhlint",
	Run:  recordRun,
}

var recordFlag *bool

func init() {
	recordFlag = runRecord.Flags.Bool("record", false, "report a record for each package analysed (set by bhlint)")
}

// recordCategory marks runRecord's reports.
const recordCategory = "bhlint-run-record"

func recordRun(pass *analysis.Pass) (any, error) {
	if *recordFlag && len(pass.Files) > 0 {
		pass.Report(analysis.Diagnostic{Pos: pass.Files[0].Package, Category: recordCategory, Message: "analysed"})
	}
	return nil, nil
}

// listedPackage is what go list says about a package asked for.
type listedPackage struct {
	ImportPath string
	Deps       []string
	Error      *struct{ Err string }
}

// explainUnanalysed names each package asked for that the run did not
// analyse, with why: its own error in go vet's output, or the package it
// imports that failed. It asks go list for the packages, which costs a
// second, and so only after go vet failed.
func (s *runSummary) explainUnanalysed(dir string, patterns, buildFlags []string, vetStderr string) {
	failed := failedPackages(vetStderr)
	cmd := exec.Command("go", append(append([]string{"list", "-e", "-json=ImportPath,Deps,Error"}, buildFlags...), patterns...)...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil && len(out) == 0 {
		for _, path := range slices.Sorted(maps.Keys(failed)) {
			s.NotAnalysed = append(s.NotAnalysed, unanalysed{path, failed[path]})
		}
		return
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listedPackage
		if dec.Decode(&p) != nil {
			break
		}
		if s.analysed[p.ImportPath] {
			continue
		}
		s.NotAnalysed = append(s.NotAnalysed, unanalysed{p.ImportPath, whyUnanalysed(p, failed)})
	}
}

func whyUnanalysed(p listedPackage, failed map[string]string) string {
	if reason, ok := failed[p.ImportPath]; ok {
		return reason
	}
	for _, dep := range p.Deps {
		if _, ok := failed[dep]; ok {
			return "imports " + dep + ", which does not load"
		}
	}
	if p.Error != nil {
		return strings.ReplaceAll(p.Error.Err, "\n", "; ")
	}
	return "not analysed (see go vet's messages above)"
}

// failedPackages reads go vet's stderr: "# pkg" then its errors, per
// package that failed to load, type-check or be analysed. It maps each to
// its first error.
func failedPackages(stderr string) map[string]string {
	failed := map[string]string{}
	current := ""
	sc := bufio.NewScanner(strings.NewReader(stderr))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, "# "); ok {
			current, _, _ = strings.Cut(rest, " ")
			failed[current] = "does not load"
			continue
		}
		if current != "" && failed[current] == "does not load" && strings.TrimSpace(line) != "" {
			failed[current] = firstError(current, line)
		}
	}
	return failed
}

// firstError is a package's first error line without the prefixes the vet
// tool's log adds (its program name, as unitchecker's log has it; the
// package path).
func firstError(pkg, line string) string {
	line = strings.TrimSpace(line)
	if self, err := os.Executable(); err == nil {
		line = strings.TrimPrefix(line, filepath.Base(self)+": ")
	}
	line = strings.TrimPrefix(line, "bhlint: ")
	return strings.TrimPrefix(line, pkg+": ")
}
