package main

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/bhlint/bhlint/internal/suite"
)

// counts are the figures of one service, or one analyzer on one service.
type counts struct {
	Findings, True, False, Debatable, Untriaged int
	RecallFound, RecallAll                      int
	LookalikesFlagged, LookalikesAll            int // labelled look-alikes, and those a finding reports
}

func (c *counts) add(o counts) {
	c.Findings += o.Findings
	c.True += o.True
	c.False += o.False
	c.Debatable += o.Debatable
	c.Untriaged += o.Untriaged
	c.RecallFound += o.RecallFound
	c.RecallAll += o.RecallAll
	c.LookalikesFlagged += o.LookalikesFlagged
	c.LookalikesAll += o.LookalikesAll
}

// precision is true/(true+false): debatable and untriaged findings are left out.
func (c counts) precision() string { return pct(c.True, c.True+c.False) }

func (c counts) recall() string { return pct(c.RecallFound, c.RecallAll) }

func (c counts) lookalikes() string { return pct(c.LookalikesFlagged, c.LookalikesAll) }

func pct(n, of int) string {
	if of == 0 {
		return "–"
	}
	return fmt.Sprintf("%d%% (%d/%d)", (n*100+of/2)/of, n, of)
}

type evaluation struct {
	Service    *service
	ByAnalyzer map[string]*counts
	Total      counts
	Untriaged  []finding
	LostTrue   []key     // triaged true, not found
	GoneFalse  []key     // triaged false, not found: to be marked fixed
	BackFalse  []finding // triaged fixed (a false positive once removed), found again
	Missed     []recallEntry
}

func evaluate(s *service, window int) *evaluation {
	e := &evaluation{Service: s, ByAnalyzer: map[string]*counts{}}
	for _, a := range suite.All {
		e.ByAnalyzer[a.Analyzer.Name] = &counts{}
	}
	d := decider{triage: triageVerdicts(s.Triage), recall: keysOf(s.Recall), lookalikes: keysOf(s.Lookalikes), window: window}
	found := map[key]bool{}
	for _, f := range s.Results.Findings {
		c := e.counter(f.Code)
		c.Findings++
		found[f.key] = true
		switch d.verdict(f) {
		case "true", "moved":
			c.True++
		case "false":
			c.False++
		case "fixed":
			c.False++
			e.BackFalse = append(e.BackFalse, f)
		case "debatable":
			c.Debatable++
		default:
			c.Untriaged++
			e.Untriaged = append(e.Untriaged, f)
		}
	}
	for _, t := range s.Triage {
		switch {
		case t.Verdict == "true" && !found[t.key]:
			e.LostTrue = append(e.LostTrue, t.key)
		case t.Verdict == "false" && !found[t.key]:
			e.GoneFalse = append(e.GoneFalse, t.key)
		}
	}
	for _, r := range s.Recall {
		c := e.counter(r.Code)
		c.RecallAll++
		if recalled(r.key, s.Results.Findings, window) {
			c.RecallFound++
		} else {
			e.Missed = append(e.Missed, r)
		}
	}
	for _, l := range s.Lookalikes {
		c := e.counter(l.Code)
		c.LookalikesAll++
		if recalled(l.key, s.Results.Findings, window) {
			c.LookalikesFlagged++
		}
	}
	for _, c := range e.ByAnalyzer {
		e.Total.add(*c)
	}
	return e
}

func (e *evaluation) counter(code string) *counts {
	name := analyzerOf(code)
	if e.ByAnalyzer[name] == nil {
		e.ByAnalyzer[name] = &counts{}
	}
	return e.ByAnalyzer[name]
}

// recalled reports whether a finding of r's code lies, by its position or one of its related
// positions, in r's file within window lines of r: the recall set is written by reading the
// code, before knowing which statement an analyzer reports (the go statement or its loop, the
// call or its transaction), and a finding with two ends (sharedpool reports a pool where it is
// created and points at the background loop and the handler that share it) is found at either.
func recalled(r key, fs []finding, window int) bool {
	near := func(p place) bool { return p.File == r.File && p.Line >= r.Line-window && p.Line <= r.Line+window }
	for _, f := range fs {
		if f.Code != r.Code {
			continue
		}
		if near(place{f.File, f.Line}) || slices.ContainsFunc(f.Related, near) {
			return true
		}
	}
	return false
}

func ratio(a, b float64) string {
	if b == 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f×", a/b)
}

func writeMarkdown(w io.Writer, text prose, evals []*evaluation, window int) {
	fmt.Fprintf(w, "# bhlint on the real-world corpus\n\n")
	fmt.Fprintf(w, "Written by `bench/realworld/run.sh`; rerun it to refresh. %s\n\n", text.Header)
	fmt.Fprintf(w, "Precision = true / (true + false), debatable and untriaged left out. Recall = instances of the\n"+
		"service's recall set (found by reading the code) that a finding of the same code reports in the same\n"+
		"file within %d lines. Times: cold analysis cache, warm build cache; ratios are bhlint / go vet.\n\n", window)
	writeFirstContact(w, evals, window)
	writeServiceTable(w, evals)
	writeSpeedTable(w, evals)
	writeFloorTable(w, evals)
	writeAnalyzerTable(w, evals)
	writeMisses(w, evals)
	if text.Notes != "" {
		fmt.Fprintf(w, "%s\n", strings.TrimSpace(text.Notes))
	}
}

func writeServiceTable(w io.Writer, evals []*evaluation) {
	fmt.Fprintf(w, "## Services\n\n| service | module@version | style | packages | loaded | findings | true | false | debatable | untriaged | precision | recall | look-alikes flagged |\n")
	fmt.Fprintf(w, "|---|---|---|---:|---|---:|---:|---:|---:|---:|---|---|---|\n")
	var all counts
	for _, e := range evals {
		s, r, c := e.Service, e.Service.Results, e.Total
		loaded := "yes"
		if !r.complete() {
			loaded = fmt.Sprintf("**no**: %s", strings.Join(append(append([]string{}, r.NotAnalysed...), r.Errors...), "; "))
		}
		fmt.Fprintf(w, "| %s | %s@%s | %s | %d | %s | %d | %d | %d | %d | %d | %s | %s | %s |\n",
			s.Name, s.Meta["module"], s.Meta["version"], s.Meta["style"], r.Analysed, loaded,
			c.Findings, c.True, c.False, c.Debatable, c.Untriaged, c.precision(), c.recall(), c.lookalikes())
		all.add(c)
	}
	fmt.Fprintf(w, "| **all** | | | | | %d | %d | %d | %d | %d | %s | %s | %s |\n\n",
		all.Findings, all.True, all.False, all.Debatable, all.Untriaged, all.precision(), all.recall(), all.lookalikes())
}

func writeSpeedTable(w io.Writer, evals []*evaluation) {
	fmt.Fprintf(w, "## Speed (cold)\n\n| service | vet wall s | bhlint wall s | staticcheck wall s | wall ×vet | wall ×vet by round: median (range) | CPU ×vet | RSS vet MB | RSS bhlint MB | RSS ×vet | wall ≤ 1.0× | RSS ≤ 1.5× | vet / staticcheck findings |\n")
	fmt.Fprintf(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---|\n")
	for _, e := range evals {
		t := e.Service.Results.Times
		v, b, sc := t["vet"], t["bhlint"], t["staticcheck"]
		if v.Wall == 0 {
			continue // a --ci run measures nothing
		}
		fmt.Fprintf(w, "| %s | %.2f | %.2f | %.2f | %s | %s | %s | %.0f | %.0f | %s | %s | %s | %d / %d |\n",
			e.Service.Name, v.Wall, b.Wall, sc.Wall, ratio(b.Wall, v.Wall), pairedWall(e.Service.Results.Rounds), ratio(b.CPU, v.CPU),
			v.RSS, b.RSS, ratio(b.RSS, v.RSS), met(b.Wall <= v.Wall), met(b.RSS <= 1.5*v.RSS),
			e.Service.Results.Reports["vet"], e.Service.Results.Reports["staticcheck"])
	}
	fmt.Fprintln(w)
}

// pairedWall is bhlint's wall time over go vet's, round by round (paired).
func pairedWall(rounds map[string][]figures) string {
	return paired(rounds["bhlint"], rounds["vet"], wallOf)
}

func met(ok bool) string {
	if ok {
		return "met"
	}
	return "**missed**"
}

func writeAnalyzerTable(w io.Writer, evals []*evaluation) {
	fmt.Fprintf(w, "## Per analyzer\n\n| analyzer | service | findings | true | false | debatable | untriaged | precision | recall |\n")
	fmt.Fprintf(w, "|---|---|---:|---:|---:|---:|---:|---|---|\n")
	names := make([]string, 0, len(suite.All))
	for _, a := range suite.All {
		names = append(names, a.Analyzer.Name)
	}
	sort.Strings(names)
	for _, name := range names {
		var all counts
		for _, e := range evals {
			c := *e.ByAnalyzer[name]
			all.add(c)
			if c.Findings == 0 && c.RecallAll == 0 {
				continue
			}
			fmt.Fprintf(w, "| %s | %s | %d | %d | %d | %d | %d | %s | %s |\n", name, e.Service.Name,
				c.Findings, c.True, c.False, c.Debatable, c.Untriaged, c.precision(), c.recall())
		}
		fmt.Fprintf(w, "| **%s** | all | %d | %d | %d | %d | %d | %s | %s |\n", name,
			all.Findings, all.True, all.False, all.Debatable, all.Untriaged, all.precision(), all.recall())
	}
	fmt.Fprintln(w)
}

func writeMisses(w io.Writer, evals []*evaluation) {
	fmt.Fprintf(w, "## Recall set instances not found\n\n")
	for _, e := range evals {
		for _, m := range e.Missed {
			fmt.Fprintf(w, "- %s `%s:%d` %s — %s\n", e.Service.Name, m.File, m.Line, m.Code, m.Note)
		}
	}
	fmt.Fprintln(w)
}
