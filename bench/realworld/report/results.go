package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// results is what run.sh left for one service in its results directory:
//
//	root.txt                  the module root of the work copy (finding paths are made relative to it)
//	cwd.txt                   the directory bhlint ran in (the root, or the module below it that
//	                          service.txt's subdir= names), to which its relative paths are relative
//	bhlint.json, .err, .rc    bhlint -format=json's output, stderr and exit status
//	TOOL.time                 "wall cpu rssMB" for TOOL in bhlint, vet, staticcheck (bench_figures)
//	TOOL.rounds               the same, one line per round, in the order the rounds ran
//	TOOL.out, TOOL.rc         go vet's and staticcheck's output and exit status
//	RUN.time, .rounds, .out, .rc   the same for each go vet -vettool run (vettoolRuns: the
//	                          type-checking floor and bhlint, as run and with GODEBUG=disablethp=1)
type results struct {
	Findings    []finding
	Analysed    int
	NotAnalysed []string // "package: reason"
	Errors      []string // analyzer errors, panics, a failed run
	Times       map[string]figures
	Rounds      map[string][]figures // by tool, round by round
	Reports     map[string]int       // go vet's and staticcheck's findings, by tool
	// VettoolProblems says, by go vet -vettool run, what makes its figures unfit to compare.
	VettoolProblems map[string]string
}

type finding struct {
	key
	Analyzer string
	Message  string
	Related  []place // the finding's related positions (the other end of a path), relative to the root
}

// place is a file (relative to the module root) and line.
type place struct {
	File string
	Line int
}

type figures struct{ Wall, CPU, RSS float64 }

// bhlintJSON is the part of bhlint -format=json the report reads.
type bhlintJSON struct {
	Findings []struct {
		Analyzer string      `json:"analyzer"`
		Code     string      `json:"code"`
		Message  string      `json:"message"`
		Location jsonPlace   `json:"location"`
		Related  []jsonPlace `json:"related"`
	} `json:"findings"`
	Summary struct {
		Analysed    int `json:"packages_analysed"`
		NotAnalysed []struct {
			Package string `json:"package"`
			Reason  string `json:"reason"`
		} `json:"packages_not_analysed"`
		Errors []string `json:"analyzer_errors"`
	} `json:"summary"`
}

type jsonPlace struct {
	File string `json:"file"`
	Line int    `json:"line"`
}

// crashRE finds a crash in bhlint's or go vet's stderr.
var crashRE = regexp.MustCompile(`(?m)^(panic: |fatal error: |.*internal error)`)

// toolFinding is a "file:line:col: message" line of go vet or staticcheck.
var toolFinding = regexp.MustCompile(`(?m)^[^\s#][^:]*\.go:\d+:\d+: `)

func readResults(dir string) (*results, error) {
	r := &results{Times: map[string]figures{}, Rounds: map[string][]figures{}, Reports: map[string]int{}, VettoolProblems: map[string]string{}}
	rootBytes, err := os.ReadFile(filepath.Join(dir, "root.txt"))
	if err != nil {
		return nil, err
	}
	root := strings.TrimSpace(string(rootBytes)) + string(filepath.Separator)
	cwd := root
	if cwdBytes, err := os.ReadFile(filepath.Join(dir, "cwd.txt")); err == nil {
		cwd = strings.TrimSpace(string(cwdBytes))
	}
	if err := r.readBhlint(dir, root, cwd); err != nil {
		return nil, err
	}
	for _, tool := range []string{"bhlint", "vet", "staticcheck"} {
		if f, ok := readFigures(filepath.Join(dir, tool+".time")); ok {
			r.Times[tool] = f
		}
		r.Rounds[tool] = readRounds(filepath.Join(dir, tool+".rounds"))
		if out, err := os.ReadFile(filepath.Join(dir, tool+".out")); err == nil {
			r.Reports[tool] = len(toolFinding.FindAll(out, -1))
		}
	}
	for _, run := range vettoolRuns() {
		f, ok := readFigures(filepath.Join(dir, run+".time"))
		if !ok {
			continue // not measured: a --ci run, or results from before the floor
		}
		r.Times[run] = f
		r.Rounds[run] = readRounds(filepath.Join(dir, run+".rounds"))
		r.VettoolProblems[run] = readVettoolRun(dir, run)
	}
	return r, nil
}

func (r *results) readBhlint(dir, root, cwd string) error {
	rc := readInt(filepath.Join(dir, "bhlint.rc"))
	stderr, _ := os.ReadFile(filepath.Join(dir, "bhlint.err"))
	if m := crashRE.Find(stderr); m != nil {
		r.Errors = append(r.Errors, "crash: "+strings.TrimSpace(string(m)))
	}
	data, err := os.ReadFile(filepath.Join(dir, "bhlint.json"))
	var out bhlintJSON
	if err == nil {
		err = json.Unmarshal(data, &out)
	}
	if err != nil {
		r.Errors = append(r.Errors, fmt.Sprintf("bhlint exited %d without a JSON report (%v): %s", rc, err, firstLine(stderr)))
		return nil
	}
	if rc >= 2 {
		r.Errors = append(r.Errors, fmt.Sprintf("bhlint exited %d: %s", rc, firstLine(stderr)))
	}
	r.Analysed = out.Summary.Analysed
	for _, p := range out.Summary.NotAnalysed {
		r.NotAnalysed = append(r.NotAnalysed, p.Package+": "+p.Reason)
	}
	r.Errors = append(r.Errors, out.Summary.Errors...)
	for _, f := range out.Findings {
		file := rootRelative(f.Location.File, root, cwd)
		var related []place
		for _, rel := range f.Related {
			related = append(related, place{rootRelative(rel.File, root, cwd), rel.Line})
		}
		r.Findings = append(r.Findings, finding{key{file, f.Location.Line, f.Code}, f.Analyzer, f.Message, related})
	}
	return nil
}

// rootRelative makes a path bhlint printed relative to the work copy's
// root: it prints paths relative to the directory it ran in (cwd), which
// is below the root for a module in a subdirectory, or absolute.
func rootRelative(path, root, cwd string) string {
	if !filepath.IsAbs(path) {
		path = filepath.Join(cwd, path)
	}
	return strings.TrimPrefix(path, root)
}

// complete reports whether every package was analysed with no error or crash.
func (r *results) complete() bool { return len(r.NotAnalysed) == 0 && len(r.Errors) == 0 }

func readFigures(path string) (figures, bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		return figures{}, false
	}
	var f figures
	if _, err := fmt.Sscan(string(data), &f.Wall, &f.CPU, &f.RSS); err != nil {
		return figures{}, false
	}
	return f, true
}

// readRounds reads a TOOL.rounds file; a line that is not three figures
// ends it (a round that left no timing is not a round to pair).
func readRounds(path string) []figures {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var out []figures
	for line := range strings.Lines(string(data)) {
		var f figures
		if _, err := fmt.Sscan(line, &f.Wall, &f.CPU, &f.RSS); err != nil {
			break
		}
		out = append(out, f)
	}
	return out
}

func readInt(path string) int {
	data, _ := os.ReadFile(path)
	n, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		return -1
	}
	return n
}

func firstLine(b []byte) string {
	s, _, _ := strings.Cut(strings.TrimSpace(string(b)), "\n")
	return s
}
