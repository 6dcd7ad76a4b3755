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

	"github.com/bhlint/bhlint/internal/config"
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
	disabled map[string]bool // -disable
	only     map[string]bool // -enable: run only these (of those .bhlint.yml leaves on)
	fix      bool
	diff     bool
	packages []string
	vetArgs  []string         // passed on to go vet: see passthrough.go
	loading  func(pkg string) // with vetArgs -v: each package go vet loads, as it does (the LSP server's progress)
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
	if opts.fix {
		return applyFixes(opts, stdout, stderr)
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
	opts := &options{disabled: map[string]bool{}, only: map[string]bool{}}
	fs.StringVar(&opts.format, "format", "text", "output format: text, json or sarif")
	fs.StringVar(&opts.explain, "explain", "", "print the documentation of an analyzer or diagnostic code, and exit")
	disable := fs.String("disable", "", "comma-separated analyzers not to run")
	enable := fs.String("enable", "", "comma-separated analyzers to run, and no others (analyzers off in .bhlint.yml stay off)")
	fs.BoolVar(&opts.fix, "fix", false, "apply the suggested fixes analyzers offer (through go fix), instead of reporting")
	fs.BoolVar(&opts.diff, "diff", false, "with -fix: print the fixes as a unified diff instead of applying them")
	dir := fs.String("C", "", "change to `dir` before doing anything else, as go -C does")
	passOn := addPassThroughFlags(fs)
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
	for flagName, list := range map[string]string{"disable": *disable, "enable": *enable} {
		for _, name := range splitList(list) {
			e, ok := suite.Lookup(name)
			if !ok {
				return nil, fmt.Errorf("-%s: unknown analyzer %q (known: %s)", flagName, name, strings.Join(analyzerNames(), ", "))
			}
			if flagName == "disable" {
				opts.disabled[e.Analyzer.Name] = true
			} else {
				opts.only[e.Analyzer.Name] = true
			}
		}
	}
	if *dir != "" {
		if err := os.Chdir(*dir); err != nil {
			return nil, fmt.Errorf("-C: %v", err)
		}
	}
	opts.vetArgs = passOn.vetArgs()
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
	cfg, err := projectConfig(dir)
	if err != nil {
		return nil, err
	}
	args := []string{"vet", "-vettool=" + self, "-json", "-directives.config=" + cfg.Hash}
	for _, name := range analyzerNames() {
		if !opts.runs(name, cfg) {
			args = append(args, "-"+name+"=false")
		}
	}
	args = append(args, opts.vetArgs...)
	args = append(args, opts.packages...)
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if opts.loading != nil {
		cmd.Stderr = &loadingLines{rest: &errOut, loading: opts.loading}
	}
	vetErr := cmd.Run()
	findings, analyzerErrs, parseErr := parseVetJSON(out.Bytes())
	if parseErr != nil {
		return findings, fmt.Errorf("bhlint: reading go vet's output: %v", parseErr)
	}
	findings = sortFindings(findings)
	return findings, loadError(vetErr, errOut.String(), analyzerErrs)
}

// applyFixes applies the analyzers' suggested fixes through go fix, which
// runs the same vet protocol with this binary as its fix tool.
func applyFixes(opts *options, stdout, stderr io.Writer) int {
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintln(stderr, "bhlint: cannot find its own executable to hand to go fix:", err)
		return exitError
	}
	cfg, err := projectConfig("")
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitError
	}
	args := []string{"fix", "-fixtool=" + self}
	if opts.diff {
		args = append(args, "-diff")
	}
	for _, name := range analyzerNames() {
		if !opts.runs(name, cfg) {
			args = append(args, "-"+name+"=false")
		}
	}
	cmd := exec.Command("go", append(args, opts.packages...)...)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Run(); err != nil {
		if opts.diff {
			return exitFindings // go fix -diff fails when the diff is not empty
		}
		fmt.Fprintln(stderr, "bhlint: go fix:", err)
		return exitError
	}
	return exitClean
}

// runs reports whether an analyzer is on: .bhlint.yml (which the analyzers
// also honour themselves, under every driver), then -enable and -disable.
func (o *options) runs(name string, cfg *config.Config) bool {
	if !cfg.Enabled(name) || o.disabled[name] {
		return false
	}
	return len(o.only) == 0 || o.only[name]
}

// projectConfig loads the .bhlint.yml in effect for dir and checks the
// analyzer names it turns on or off.
func projectConfig(dir string) (*config.Config, error) {
	if dir == "" {
		dir = "."
	}
	cfg, err := config.ForDir(dir)
	if err != nil {
		return nil, fmt.Errorf("bhlint: %v", err)
	}
	for name := range cfg.Analyzers {
		if !knownAnalyzer(name) {
			return nil, fmt.Errorf("bhlint: %s: analyzers: unknown analyzer %q (known: %s)", cfg.Path, name, strings.Join(analyzerNames(), ", "))
		}
	}
	return cfg, nil
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
		msgs = append(msgs, strings.TrimSpace(stderr),
			"(packages that import these were not analysed either; the findings printed are the other packages')")
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
	End     string `json:"end"` // where the flagged syntax ends (the LSP range)
	Message string `json:"message"`
	Related []struct {
		Posn    string `json:"posn"`
		End     string `json:"end"`
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
		f.Location = f.Location.withEnd(d.End)
		for _, r := range d.Related {
			f.Related = append(f.Related, newLocation(r.Posn, r.Message).withEnd(r.End))
		}
		f.Fixes = append(f.Fixes, d.SuggestedFixes...)
		out = append(out, f)
	}
	return out, "", nil
}
