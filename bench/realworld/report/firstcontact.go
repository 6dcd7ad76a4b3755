package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/bhlint/bhlint/internal/suite"
)

// firstContactFile is where a service's first run is kept, beside its labels.
const firstContactFile = "first-contact.json"

// firstContact is a service's first run: bhlint run once on it after its labels (recall.tsv,
// lookalikes.tsv) were written by someone who had not seen bhlint's output and committed. It is
// recorded by run.sh --first-contact and never rewritten: it is the score a new user would have
// met, which no later fix to the analyzers can improve. The labels are kept as they stood, so
// that a later correction of a label does not change the score either; only the triage of
// findings no label decides is read at report time.
type firstContact struct {
	Recorded     string    `json:"recorded"`        // when the run ended, UTC
	LabelsCommit string    `json:"labels_commit"`   // the last commit that changed the labels before the run
	BuiltAt      string    `json:"bhlint_built_at"` // the commit bhlint was built from
	Analysed     int       `json:"packages_analysed"`
	Incomplete   []string  `json:"incomplete,omitempty"` // packages not analysed and errors: the run did not see everything
	Recall       []key     `json:"recall"`
	Lookalikes   []key     `json:"lookalikes"`
	Findings     []finding `json:"findings"`
}

func readFirstContact(path string) (*firstContact, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	fc := new(firstContact)
	if err := json.Unmarshal(data, fc); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return fc, nil
}

// recordFirstContact writes the first-contact record of the service from its run's results. It
// refuses when the service has one already: the first contact happens once.
func recordFirstContact(servicesDir, resultsDir, name, labelsCommit, builtAt string, now time.Time) error {
	dir := filepath.Join(servicesDir, name)
	s, err := loadService(dir)
	if err != nil {
		return err
	}
	if s.FirstContact != nil {
		return fmt.Errorf("%s has its first contact recorded already (%s, %s): it is not run again", name, firstContactFile, s.FirstContact.Recorded)
	}
	if len(s.Recall)+len(s.Lookalikes)+len(s.Pending) == 0 {
		return fmt.Errorf("%s has no labels (recall.tsv, lookalikes.tsv): label the service before its first run", name)
	}
	r, err := readResults(filepath.Join(resultsDir, name))
	if err != nil {
		return err
	}
	fc := &firstContact{
		Recorded:     now.UTC().Format("2006-01-02 15:04 UTC"),
		LabelsCommit: labelsCommit,
		BuiltAt:      builtAt,
		Analysed:     r.Analysed,
		Incomplete:   append(append([]string{}, r.NotAnalysed...), r.Errors...),
		Recall:       keysOf(s.Recall),
		Lookalikes:   keysOf(s.Lookalikes),
		Findings:     r.Findings,
	}
	sort.Slice(fc.Findings, func(i, j int) bool { return fc.Findings[i].key.String() < fc.Findings[j].key.String() })
	data, err := json.MarshalIndent(fc, "", "\t")
	if err != nil {
		return err
	}
	// O_EXCL: two runs racing cannot both record.
	f, err := os.OpenFile(filepath.Join(dir, firstContactFile), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(append(data, '\n')); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func keysOf(entries []recallEntry) []key {
	out := make([]key, len(entries))
	for i, e := range entries {
		out[i] = e.key
	}
	return out
}

// scoreFirstContact scores a service's recorded first run against the labels recorded with it:
// a finding is true or false by its triage, else true when it reports a labelled instance and
// false when it reports a labelled look-alike; otherwise it is undecided (counted as untriaged).
func scoreFirstContact(s *service, window int) (byAnalyzer map[string]*counts, total counts) {
	fc := s.FirstContact
	byAnalyzer = map[string]*counts{}
	score := func(code string) *counts {
		name := analyzerOf(code)
		if byAnalyzer[name] == nil {
			byAnalyzer[name] = &counts{}
		}
		return byAnalyzer[name]
	}
	for _, a := range suite.All {
		score(a.Code)
	}
	d := decider{triage: triageVerdicts(s.Triage), recall: fc.Recall, lookalikes: fc.Lookalikes, window: window}
	for _, f := range fc.Findings {
		c := score(f.Code)
		c.Findings++
		switch d.verdict(f) {
		case "true", "moved":
			c.True++
		case "false", "fixed":
			c.False++
		case "debatable":
			c.Debatable++
		default:
			c.Untriaged++
		}
	}
	for _, r := range fc.Recall {
		c := score(r.Code)
		c.RecallAll++
		if recalled(r, fc.Findings, window) {
			c.RecallFound++
		}
	}
	for _, l := range fc.Lookalikes {
		c := score(l.Code)
		c.LookalikesAll++
		if recalled(l, fc.Findings, window) {
			c.LookalikesFlagged++
		}
	}
	for _, c := range byAnalyzer {
		total.add(*c)
	}
	return byAnalyzer, total
}

func triageVerdicts(entries []triageEntry) map[key]string {
	m := make(map[key]string, len(entries))
	for _, t := range entries {
		m[t.key] = t.Verdict
	}
	return m
}

// decider gives a finding its verdict: the triage's when it has one, else the labels'.
type decider struct {
	triage             map[key]string
	recall, lookalikes []key
	window             int
}

func (d decider) verdict(f finding) string {
	if v, ok := d.triage[f.key]; ok {
		return v
	}
	reports := func(labels []key) bool {
		for _, l := range labels {
			if recalled(l, []finding{f}, d.window) {
				return true
			}
		}
		return false
	}
	switch {
	case reports(d.recall):
		return "true"
	case reports(d.lookalikes):
		return "false"
	}
	return ""
}

func writeFirstContact(w io.Writer, evals []*evaluation, window int) {
	var have []*evaluation
	for _, e := range evals {
		if e.Service.FirstContact != nil {
			have = append(have, e)
		}
	}
	if len(have) == 0 {
		return
	}
	fmt.Fprintf(w, "## First contact\n\n"+
		"Each of these services was labelled (recall.tsv: real instances; lookalikes.tsv: code that resembles one and\n"+
		"is fine) by someone who had not seen bhlint's output, the labels were committed, and only then did bhlint run\n"+
		"on it, once (run.sh --first-contact). That run is kept in first-contact.json and never rerun: it is what a new\n"+
		"user would have met. A finding is true or false by its triage, else by the label it reports (an instance:\n"+
		"true; a look-alike: false); undecided findings are left out of precision. Recall and look-alikes flagged\n"+
		"count labels with a finding of their code in their file within %d lines.\n\n", window)
	fmt.Fprintf(w, "| service | labels at | bhlint at | run | loaded | findings | true | false | debatable | undecided | precision | recall | look-alikes flagged |\n")
	fmt.Fprintf(w, "|---|---|---|---|---|---:|---:|---:|---:|---:|---|---|---|\n")
	var all counts
	byAnalyzer := map[string]*counts{}
	for _, e := range have {
		fc := e.Service.FirstContact
		per, t := scoreFirstContact(e.Service, window)
		for name, c := range per {
			if byAnalyzer[name] == nil {
				byAnalyzer[name] = &counts{}
			}
			byAnalyzer[name].add(*c)
		}
		loaded := "yes"
		if len(fc.Incomplete) > 0 {
			loaded = fmt.Sprintf("**no** (%d)", len(fc.Incomplete))
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %d | %d | %d | %d | %d | %s | %s | %s |\n", e.Service.Name,
			short(fc.LabelsCommit), fc.BuiltAt, fc.Recorded, loaded, t.Findings, t.True, t.False, t.Debatable, t.Untriaged,
			t.precision(), t.recall(), t.lookalikes())
		all.add(t)
	}
	fmt.Fprintf(w, "| **all** | | | | | %d | %d | %d | %d | %d | %s | %s | %s |\n\n",
		all.Findings, all.True, all.False, all.Debatable, all.Untriaged, all.precision(), all.recall(), all.lookalikes())
	fmt.Fprintf(w, "| analyzer | findings | true | false | debatable | undecided | precision | recall | look-alikes flagged |\n|---|---:|---:|---:|---:|---:|---|---|---|\n")
	names := make([]string, 0, len(byAnalyzer))
	for name := range byAnalyzer {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		c := byAnalyzer[name]
		if c.Findings+c.RecallAll+c.LookalikesAll == 0 {
			continue
		}
		fmt.Fprintf(w, "| %s | %d | %d | %d | %d | %d | %s | %s | %s |\n", name, c.Findings, c.True, c.False, c.Debatable,
			c.Untriaged, c.precision(), c.recall(), c.lookalikes())
	}
	fmt.Fprintln(w)
}

func short(commit string) string {
	if len(commit) > 7 {
		return commit[:7]
	}
	return commit
}
