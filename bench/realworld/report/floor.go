package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// floorTarget is bhlint's speed target against the type-checking floor: its CPU time as go vet's
// -vettool at most this many times the floor's (bench/floor), with GODEBUG=disablethp=1.
const floorTarget = 1.3

// floorSetting is one of the two conditions run.sh times the floor and bhlint under: the runs'
// names in the results directory and the GODEBUG setting they ran with.
type floorSetting struct {
	Floor, Bhlint string // run names: RUN.time, RUN.rounds, RUN.rc, RUN.out
	GODEBUG       string // as the report shows it
	Target        bool   // whether the speed target applies to this setting
}

// floorSettings are the conditions in the order the table shows them: the target's first.
var floorSettings = []floorSetting{
	{Floor: "floor-disablethp", Bhlint: "bhlint-vettool-disablethp", GODEBUG: "disablethp=1", Target: true},
	{Floor: "floor", Bhlint: "bhlint-vettool", GODEBUG: "as run"},
}

// vettoolRuns are the names of run.sh's go vet -vettool runs.
func vettoolRuns() []string {
	var runs []string
	for _, s := range floorSettings {
		runs = append(runs, s.Floor, s.Bhlint)
	}
	return runs
}

// readVettoolRun reads a go vet -vettool run's exit status and output and says what makes its
// figures unfit to compare, or "": the floor reports nothing, so any failing exit means a unit
// was not checked; bhlint exits 1 for its findings, so only a crash in its output counts (a
// package bhlint cannot analyse shows in its own run's results).
func readVettoolRun(dir, run string) string {
	rc := readInt(filepath.Join(dir, run+".rc"))
	out, _ := os.ReadFile(filepath.Join(dir, run+".out"))
	isFloor := strings.HasPrefix(run, "floor")
	switch {
	case rc < 0:
		return run + ": no exit status"
	case isFloor && rc != 0:
		return fmt.Sprintf("%s exited %d: %s", run, rc, firstLine(out))
	case !isFloor && crashRE.Match(out):
		return fmt.Sprintf("%s crashed: %s", run, firstLine(out[crashRE.FindIndex(out)[0]:]))
	}
	return ""
}

// writeFloorTable writes the speed against the type-checking floor, two rows per service (the
// target's setting first); a service whose results have no floor figures (a run before the
// floor was measured, a --ci run) has no rows, and with none the section is left out.
func writeFloorTable(w io.Writer, evals []*evaluation) {
	var rows []string
	for _, e := range evals {
		r := e.Service.Results
		for _, s := range floorSettings {
			f, b := r.Times[s.Floor], r.Times[s.Bhlint]
			if f.CPU == 0 || b.CPU == 0 {
				continue
			}
			rows = append(rows, fmt.Sprintf("| %s | %s | %.2f | %.2f | %.2f | %.2f | %s | %s | %s | %.0f | %.0f | %s |",
				e.Service.Name, s.GODEBUG, f.Wall, b.Wall, f.CPU, b.CPU, ratio(b.CPU, f.CPU),
				paired(r.Rounds[s.Bhlint], r.Rounds[s.Floor], cpuOf), floorMet(s, b.CPU, f.CPU),
				f.RSS, b.RSS, complete(r.VettoolProblems[s.Floor], r.VettoolProblems[s.Bhlint])))
		}
	}
	if len(rows) == 0 {
		return
	}
	fmt.Fprintf(w, "## Speed against the type-checking floor (cold)\n\n"+
		"The floor is `go vet -vettool=floor` (bench/floor: one analyzer that does nothing and declares a fact type,\n"+
		"so each unit, dependencies included, is parsed and type-checked and its facts file written, and nothing\n"+
		"else); bhlint is `go vet -vettool=bhlint`, the same driver. CPU is user + sys of the whole process tree;\n"+
		"the target is bhlint's CPU ≤ %.1f× the floor's with GODEBUG=disablethp=1 (bhlint's huge-page advice off);\n"+
		"\"as run\" is the environment run.sh had. Each figure is the best of the rounds; the by-round column pairs\n"+
		"each bhlint run with the floor's just before it.\n\n", floorTarget)
	fmt.Fprintf(w, "| service | GODEBUG | floor wall s | bhlint wall s | floor CPU s | bhlint CPU s | CPU ×floor | CPU ×floor by round: median (range) | CPU ≤ %.1f× | floor RSS MB | bhlint RSS MB | complete |\n", floorTarget)
	fmt.Fprintf(w, "|---|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---|\n")
	for _, row := range rows {
		fmt.Fprintln(w, row)
	}
	fmt.Fprintln(w)
}

// floorMet says whether bhlint's CPU meets the target, on the setting the target is set for. It
// judges the ratio as the table prints it, to two places, so that a row never reads "1.30×" and
// "missed".
func floorMet(s floorSetting, bhlint, floor float64) string {
	if !s.Target {
		return "–"
	}
	return met(math.Round(bhlint/floor*100) <= math.Round(floorTarget*100))
}

// complete is "yes", or what makes a row's figures unfit to compare.
func complete(problems ...string) string {
	problems = slices.DeleteFunc(problems, func(p string) bool { return p == "" })
	if len(problems) == 0 {
		return "yes"
	}
	return "**no**: " + strings.Join(problems, "; ")
}

func cpuOf(f figures) float64 { return f.CPU }

func wallOf(f figures) float64 { return f.Wall }

// paired is num's figure over den's in each round (the two ran one after the other, so each
// pair shared the machine's state of the moment): the median and the range. On a busy machine
// the best-of figures pair one tool's quietest minute with the other's; the pairs do not.
func paired(num, den []figures, of func(figures) float64) string {
	var rs []float64
	for i := range min(len(num), len(den)) {
		if of(den[i]) > 0 {
			rs = append(rs, of(num[i])/of(den[i]))
		}
	}
	if len(rs) == 0 {
		return "–"
	}
	slices.Sort(rs)
	median := rs[len(rs)/2]
	if len(rs)%2 == 0 {
		median = (rs[len(rs)/2-1] + rs[len(rs)/2]) / 2
	}
	if len(rs) == 1 {
		return fmt.Sprintf("%.2f (1 round)", median)
	}
	return fmt.Sprintf("%.2f (%.2f–%.2f, %d rounds)", median, rs[0], rs[len(rs)-1], len(rs))
}
