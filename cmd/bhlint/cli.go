package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bhlint/bhlint/internal/suite"
)

// Exit codes: the CI gate's contract.
const (
	exitClean    = 0
	exitFindings = 1
	exitError    = 2
)

type options struct {
	format   string
	explain  string
	disabled map[string]bool
	packages []string
}

func runCLI(args []string, stdout, stderr io.Writer) int {
	opts, err := parseFlags(args, stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitClean
		}
		fmt.Fprintln(stderr, "bhlint:", err)
		return exitError
	}
	if opts.explain != "" {
		return explain(opts.explain, stdout, stderr)
	}
	findings, runErr := analyze("", opts)
	relativize(findings)
	if err := write(opts.format, findings, stdout); err != nil {
		fmt.Fprintln(stderr, "bhlint:", err)
		return exitError
	}
	switch {
	case runErr != nil:
		fmt.Fprintln(stderr, runErr)
		return exitError
	case len(findings) > 0:
		return exitFindings
	}
	return exitClean
}

func parseFlags(args []string, stderr io.Writer) (*options, error) {
	fs := flag.NewFlagSet("bhlint", flag.ContinueOnError)
	fs.SetOutput(stderr)
	opts := &options{disabled: map[string]bool{}}
	fs.StringVar(&opts.format, "format", "text", "output format: text, json or sarif")
	fs.StringVar(&opts.explain, "explain", "", "print the documentation of an analyzer or diagnostic code, and exit")
	disable := fs.String("disable", "", "comma-separated analyzers not to run")
	dir := fs.String("C", "", "change to `dir` before doing anything else, as go -C does")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: bhlint [flags] [packages]   (default ./...)\n"+
			"       go vet -vettool=$(which bhlint) [packages]\n\nflags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if !slices.Contains([]string{"text", "json", "sarif"}, opts.format) {
		return nil, fmt.Errorf("unknown -format %q (want text, json or sarif)", opts.format)
	}
	for _, name := range splitList(*disable) {
		if !knownAnalyzer(name) {
			return nil, fmt.Errorf("-disable: unknown analyzer %q (known: %s)", name, strings.Join(analyzerNames(), ", "))
		}
		opts.disabled[name] = true
	}
	if *dir != "" {
		if err := os.Chdir(*dir); err != nil {
			return nil, fmt.Errorf("-C: %v", err)
		}
	}
	opts.packages = fs.Args()
	if len(opts.packages) == 0 {
		opts.packages = []string{"./..."}
	}
	return opts, nil
}

func splitList(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}

func analyzerNames() []string {
	var names []string
	for _, a := range analyzers() {
		names = append(names, a.Name)
	}
	return names
}

func knownAnalyzer(name string) bool { return slices.Contains(analyzerNames(), name) }

func explain(what string, stdout, stderr io.Writer) int {
	if e, ok := suite.Lookup(what); ok {
		fmt.Fprintf(stdout, "%s (%s)\n\n%s", e.Analyzer.Name, e.Code, e.Analyzer.Doc)
		return exitClean
	}
	fmt.Fprintf(stderr, "bhlint: -explain: no analyzer or code named %q\n", what)
	return exitError
}

// analyze runs the analyzers through `go vet -vettool=<this binary> -json`:
// the go command loads and type-checks packages, runs dependencies for facts
// in parallel, and caches results, so an unchanged tree re-checks quickly.
// dir is where to run, "" for the working directory. File names in the
// findings are absolute.
func analyze(dir string, opts *options) ([]finding, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("bhlint: cannot find its own executable to hand to go vet: %v", err)
	}
	args := []string{"vet", "-vettool=" + self, "-json"}
	for name := range opts.disabled {
		args = append(args, "-"+name+"=false")
	}
	args = append(args, opts.packages...)
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	vetErr := cmd.Run()
	findings, analyzerErrs, parseErr := parseVetJSON(out.Bytes())
	if parseErr != nil {
		return findings, fmt.Errorf("bhlint: reading go vet's output: %v", parseErr)
	}
	findings = sortFindings(findings)
	return findings, loadError(vetErr, errOut.String(), analyzerErrs)
}

// loadError turns go vet's failure (packages that do not load or type-check)
// and analyzer errors into one error; the findings of the other packages are
// still reported.
func loadError(vetErr error, stderr string, analyzerErrs []string) error {
	var msgs []string
	if vetErr != nil {
		var exitErr *exec.ExitError
		if !errors.As(vetErr, &exitErr) {
			return fmt.Errorf("bhlint: running go vet: %v (is the go command on PATH?)", vetErr)
		}
		msgs = append(msgs, strings.TrimSpace(stderr))
	}
	msgs = append(msgs, analyzerErrs...)
	if len(msgs) == 0 {
		return nil
	}
	return fmt.Errorf("bhlint: some packages could not be analysed:\n%s", strings.Join(msgs, "\n"))
}

// relPath shortens an absolute file name to one relative to the working
// directory when it lies below it, as go vet prints them.
func relPath(file string) string {
	wd, err := os.Getwd()
	if err != nil {
		return file
	}
	rel, err := filepath.Rel(wd, file)
	if err != nil || strings.HasPrefix(rel, "..") {
		return file
	}
	return rel
}

// jsonDiagnostic is the shape unitchecker's -json output gives a diagnostic.
type jsonDiagnostic struct {
	Posn    string `json:"posn"`
	Message string `json:"message"`
	Related []struct {
		Posn    string `json:"posn"`
		Message string `json:"message"`
	} `json:"related"`
	SuggestedFixes []fix `json:"suggested_fixes"`
}

func parseVetJSON(data []byte) ([]finding, []string, error) {
	var findings []finding
	var errs []string
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		var tree map[string]map[string]json.RawMessage
		if err := dec.Decode(&tree); err == io.EOF {
			return findings, errs, nil
		} else if err != nil {
			return findings, errs, err
		}
		for pkg, byAnalyzer := range tree {
			for name, raw := range byAnalyzer {
				fs, errMsg, err := decodeAnalyzerResult(name, raw)
				if err != nil {
					return findings, errs, err
				}
				if errMsg != "" {
					errs = append(errs, fmt.Sprintf("%s: %s: %s", pkg, name, errMsg))
				}
				findings = append(findings, fs...)
			}
		}
	}
}

func decodeAnalyzerResult(analyzer string, raw json.RawMessage) ([]finding, string, error) {
	var failed struct {
		Error string `json:"error"`
	}
	if len(raw) > 0 && raw[0] == '{' {
		if err := json.Unmarshal(raw, &failed); err != nil {
			return nil, "", err
		}
		return nil, failed.Error, nil
	}
	var diags []jsonDiagnostic
	if err := json.Unmarshal(raw, &diags); err != nil {
		return nil, "", err
	}
	var out []finding
	for _, d := range diags {
		f := newFinding(analyzer, d.Posn, d.Message)
		for _, r := range d.Related {
			f.Related = append(f.Related, newLocation(r.Posn, r.Message))
		}
		f.Fixes = append(f.Fixes, d.SuggestedFixes...)
		out = append(out, f)
	}
	return out, "", nil
}
