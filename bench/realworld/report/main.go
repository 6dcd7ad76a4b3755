// Command report compares bhlint's findings on the real-world corpus (bench/realworld) with the
// triage and recall files, prints what a reviewer must look at, and writes bench/REALWORLD.md.
// bench/realworld/run.sh runs it; see that script for the whole procedure.
//
//	go run ./bench/realworld/report -services bench/realworld/services -results DIR [-out FILE] [-ci] [service...]
//	go run ./bench/realworld/report -services DIR -results DIR -record-first-contact NAME -labels-commit C -built B
//
// It exits 1 when a service did not load completely, a finding triaged true disappeared or a
// false positive triaged fixed (one an analyzer change removed) came back. A finding triaged
// false is a known false positive and may stay; when it goes, the report says to mark it fixed.
// Untriaged findings are printed for review, not failures.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// prose is the hand-written text of the report: a paragraph under the title, notes at the end.
type prose struct{ Header, Notes string }

func main() {
	servicesDir := flag.String("services", "bench/realworld/services", "the corpus: one directory per service")
	resultsDir := flag.String("results", "", "run.sh's results: one directory per service")
	out := flag.String("out", "", "write the Markdown report to this file")
	header := flag.String("header", "", "a paragraph put under the report's title (machine, load, versions)")
	window := flag.Int("window", 5, "a recall entry is found by a finding of its code in its file within this many lines")
	notes := flag.String("notes", "", "a Markdown file appended to the report (what the figures do not say: profiles, known false positives)")
	record := flag.String("record-first-contact", "", "write this service's first-contact.json from its results (once: refused when it exists), and nothing else")
	labelsCommit := flag.String("labels-commit", "", "with -record-first-contact: the commit that last changed the service's labels")
	built := flag.String("built", "", "with -record-first-contact: the commit bhlint was built from")
	firstContactOnly := flag.String("first-contact-table", "", "write the first-contact section of every service that has a record to this file, from the records, labels and triage alone (no results needed), and nothing else")
	flag.Parse()
	if *firstContactOnly != "" {
		if err := writeFirstContactTable(*servicesDir, *firstContactOnly, *window); err != nil {
			fmt.Fprintln(os.Stderr, "report:", err)
			os.Exit(2)
		}
		return
	}
	if *resultsDir == "" {
		fmt.Fprintln(os.Stderr, "report: -results is required")
		os.Exit(2)
	}
	if *record != "" {
		if *labelsCommit == "" || *built == "" {
			fmt.Fprintln(os.Stderr, "report: -record-first-contact needs -labels-commit and -built")
			os.Exit(2)
		}
		if err := recordFirstContact(*servicesDir, *resultsDir, *record, *labelsCommit, *built, time.Now()); err != nil {
			fmt.Fprintln(os.Stderr, "report:", err)
			os.Exit(2)
		}
		return
	}
	var trailer string
	if *notes != "" {
		data, err := os.ReadFile(*notes)
		if err != nil {
			fmt.Fprintln(os.Stderr, "report:", err)
			os.Exit(2)
		}
		trailer = string(data)
	}
	code, err := run(*servicesDir, *resultsDir, *out, prose{*header, trailer}, *window, flag.Args(), os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "report:", err)
		os.Exit(2)
	}
	os.Exit(code)
}

func run(servicesDir, resultsDir, out string, text prose, window int, only []string, stdout io.Writer) (int, error) {
	svcs, err := loadServices(servicesDir, only)
	if err != nil {
		return 2, err
	}
	var evals []*evaluation
	for _, s := range svcs {
		dir := filepath.Join(resultsDir, s.Name)
		if _, err := os.Stat(dir); err != nil {
			if len(only) > 0 {
				return 2, fmt.Errorf("no results for %s in %s", s.Name, resultsDir)
			}
			continue // not part of this run
		}
		if s.Results, err = readResults(dir); err != nil {
			return 2, fmt.Errorf("%s: %v", s.Name, err)
		}
		evals = append(evals, evaluate(s, window))
	}
	if len(evals) == 0 {
		return 2, fmt.Errorf("no service results in %s", resultsDir)
	}
	failed := printReview(stdout, evals)
	if out != "" {
		f, err := os.Create(out)
		if err != nil {
			return 2, err
		}
		writeMarkdown(f, text, evals, window)
		if err := f.Close(); err != nil {
			return 2, err
		}
	}
	if failed {
		return 1, nil
	}
	return 0, nil
}

// printReview prints, per service, what changed against the triage and whether it loaded; it
// reports whether a check failed.
func printReview(w io.Writer, evals []*evaluation) bool {
	failed := false
	for _, e := range evals {
		r := e.Service.Results
		status := "loaded completely"
		if !r.complete() {
			status, failed = "DID NOT LOAD COMPLETELY", true
		}
		fmt.Fprintf(w, "%s: %d packages analysed, %s; %d findings (%d untriaged); recall %d/%d\n",
			e.Service.Name, r.Analysed, status, len(r.Findings), len(e.Untriaged), e.Total.RecallFound, e.Total.RecallAll)
		for _, p := range r.NotAnalysed {
			fmt.Fprintf(w, "  not analysed: %s\n", p)
		}
		for _, m := range r.Errors {
			fmt.Fprintf(w, "  error: %s\n", m)
		}
		for _, run := range vettoolRuns() {
			if p := r.VettoolProblems[run]; p != "" {
				fmt.Fprintf(w, "  timing not comparable: %s\n", p)
			}
		}
		for _, k := range e.LostTrue {
			fmt.Fprintf(w, "  FAIL triaged-true finding disappeared: %s\n", k)
			failed = true
		}
		for _, f := range e.BackFalse {
			fmt.Fprintf(w, "  FAIL a fixed false positive came back: %s\t%s\n", f.key, f.Message)
			failed = true
		}
		for _, k := range e.GoneFalse {
			fmt.Fprintf(w, "  gone: the false positive %s is no longer reported; set its verdict to fixed in triage.tsv so it cannot come back\n", k)
		}
		for _, f := range e.Untriaged {
			fmt.Fprintf(w, "  untriaged: %s\t%s\n", f.key, f.Message)
		}
	}
	return failed
}

// writeFirstContactTable writes the first-contact section alone: it needs
// no run, since a first contact is its record, its labels and its triage,
// and so covers the whole corpus whichever services a run refreshed.
func writeFirstContactTable(servicesDir, out string, window int) error {
	svcs, err := loadServices(servicesDir, nil)
	if err != nil {
		return err
	}
	var evals []*evaluation
	for _, s := range svcs {
		if s.FirstContact != nil {
			evals = append(evals, &evaluation{Service: s})
		}
	}
	if len(evals) == 0 {
		return fmt.Errorf("no service in %s has a first-contact record", servicesDir)
	}
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	writeFirstContact(f, evals, window)
	return f.Close()
}
