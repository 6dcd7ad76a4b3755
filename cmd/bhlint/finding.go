package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// finding is one diagnostic as bhlint prints it.
type finding struct {
	Analyzer string     `json:"analyzer"`
	Code     string     `json:"code"`
	Package  string     `json:"package"` // import path ("p_test" for an external test package)
	Message  string     `json:"message"` // without the leading code
	Location location   `json:"location"`
	Related  []location `json:"related,omitempty"`
	Fixes    []fix      `json:"suggested_fixes,omitempty"`

	category string // the diagnostic's Category: tells notices and run records from findings
	// fingerprint: findingKey hashed, for SARIF; baselineState: "new" or
	// "unchanged" under -baseline.
	fingerprint, baselineState string
}

// fix is a suggested fix as unitchecker's JSON gives it: byte offsets.
type fix struct {
	Message string `json:"message"`
	Edits   []edit `json:"edits"`
}

type edit struct {
	File  string `json:"filename"`
	Start int    `json:"start"`
	End   int    `json:"end"`
	New   string `json:"new"`
}

type location struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message,omitempty"`
	// EndLine and EndColumn: where the flagged syntax ends, when the
	// analyzer says (editors underline from Line:Column to there).
	EndLine   int `json:"end_line,omitempty"`
	EndColumn int `json:"end_column,omitempty"`
}

func newFinding(analyzer, posn, message string) finding {
	code, rest, ok := strings.Cut(message, ": ")
	if !ok || !strings.HasPrefix(code, "ERR_") {
		code, rest = "", message
	}
	return finding{Analyzer: analyzer, Code: code, Message: rest, Location: newLocation(posn, "")}
}

// newLocation parses "file:line:col" as unitchecker prints positions.
func newLocation(posn, message string) location {
	loc := location{File: posn, Message: message}
	rest, col, ok := cutLastNumber(posn)
	if !ok {
		return loc
	}
	file, line, ok := cutLastNumber(rest)
	if !ok {
		loc.File, loc.Line = rest, col
		return loc
	}
	loc.File, loc.Line, loc.Column = file, line, col
	return loc
}

// withEnd adds the end unitchecker prints as "file:line:col" beside the
// start, when it lies after the start in the same file.
func (l location) withEnd(posn string) location {
	end := newLocation(posn, "")
	if end.File == l.File && (end.Line > l.Line || end.Line == l.Line && end.Column > l.Column) {
		l.EndLine, l.EndColumn = end.Line, end.Column
	}
	return l
}

func cutLastNumber(s string) (string, int, bool) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return s, 0, false
	}
	n, err := strconv.Atoi(s[i+1:])
	if err != nil {
		return s, 0, false
	}
	return s[:i], n, true
}

func (l location) String() string { return fmt.Sprintf("%s:%d:%d", l.File, l.Line, l.Column) }

// sortFindings gives the same order for the same input, whatever order the
// go command finished packages in.
func sortFindings(fs []finding) []finding {
	slices.SortFunc(fs, func(a, b finding) int {
		return cmp.Or(
			cmp.Compare(a.Location.File, b.Location.File),
			cmp.Compare(a.Location.Line, b.Location.Line),
			cmp.Compare(a.Location.Column, b.Location.Column),
			cmp.Compare(a.Analyzer, b.Analyzer),
			cmp.Compare(a.Code, b.Code),
			cmp.Compare(a.Message, b.Message),
		)
	})
	// The same finding may come from a package and from its test variant;
	// and two packages that do not import each other may each reach the same
	// line (two handler packages calling one store's wait): the user changes
	// that line once, so one finding per line and code is kept, the first in
	// this order, as golangci-lint's uniq-by-line does. It keeps the related
	// positions of the others: each is another end of a path to the line
	// (cerbos' three store packages, each passing the pool that one opener
	// hands back to a Configure that may set no maximum).
	var out []finding
	for _, f := range fs {
		if n := len(out); n > 0 && sameLineAndCode(out[n-1], f) {
			out[n-1].Related = mergeRelated(out[n-1].Related, f.Related)
			continue
		}
		out = append(out, f)
	}
	return out
}

// mergeRelated adds to kept the positions of more it lacks, in the order of
// their places, whatever order the packages finished in.
func mergeRelated(kept, more []location) []location {
	added := false
	for _, r := range more {
		if !slices.Contains(kept, r) {
			kept = append(kept, r)
			added = true
		}
	}
	if added {
		slices.SortStableFunc(kept, func(a, b location) int {
			return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column), cmp.Compare(a.Message, b.Message))
		})
	}
	return kept
}

func sameLineAndCode(a, b finding) bool {
	if a.Analyzer != b.Analyzer || a.Location != b.Location {
		return false
	}
	if a.Code == "" || a.category != b.category {
		return a.Message == b.Message && a.category == b.category
	}
	return a.Code == b.Code
}

// jsonOutput is -format=json: the findings, and what the run checked.
type jsonOutput struct {
	Findings []finding  `json:"findings"`
	Summary  runSummary `json:"summary"`
}

func write(format string, fs []finding, sum *runSummary, w io.Writer) error {
	switch format {
	case "sarif":
		return writeSARIF(fs, sum, w)
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		if fs == nil {
			fs = []finding{}
		}
		return enc.Encode(jsonOutput{Findings: fs, Summary: sum.forJSON()})
	case "github":
		return writeGitHub(fs, w)
	default:
		return writeText(fs, w)
	}
}

// writeText prints each finding on a line, and its related positions ("the
// transaction began here") below it as go vet prints them, so that the
// two drivers' output reads the same.
func writeText(fs []finding, w io.Writer) error {
	for _, f := range fs {
		if _, err := fmt.Fprintf(w, "%s: %s: %s (%s)\n", f.Location, f.Code, f.Message, f.Analyzer); err != nil {
			return err
		}
		for _, r := range f.Related {
			if _, err := fmt.Fprintf(w, "%s: \t%s\n", r, r.Message); err != nil {
				return err
			}
		}
	}
	return nil
}

// relativize shortens file names below the working directory, for printing.
func relativize(fs []finding) {
	for i := range fs {
		f := &fs[i]
		f.Location.File = relPath(f.Location.File)
		for j := range f.Related {
			f.Related[j].File = relPath(f.Related[j].File)
		}
		for j := range f.Fixes {
			for k := range f.Fixes[j].Edits {
				f.Fixes[j].Edits[k].File = relPath(f.Fixes[j].Edits[k].File)
			}
		}
	}
}
