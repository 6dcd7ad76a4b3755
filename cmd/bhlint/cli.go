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
	"github.com/bhlint/bhlint/internal/lazyssa"
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
	version  bool
	gate     gateFlags
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
	if opts.version {
		printVersion(stdout)
		return exitClean
	}
	if opts.explain != "" {
		return explain(opts.explain, stdout, stderr)
	}
	if opts.fix {
		return applyFixes(opts, stdout, stderr)
	}
	return report(opts, stdout, stderr)
}

// report analyses, writes the findings in the chosen format and the summary
// on stderr, and returns the exit status.
func report(opts *options, stdout, stderr io.Writer) int {
	findings, sum, runErr := analyze("", opts)
	if runErr != nil && sum == nil {
		fmt.Fprintln(stderr, runErr)
		return exitError
	}
	if opts.gate.writeBaseline != "" {
		return recordBaseline(opts.gate.writeBaseline, findings, sum, runErr, stderr)
	}
	findings, err := opts.gate.narrow(findings, sum, opts.runs)
	if err != nil {
		fmt.Fprintln(stderr, "bhlint:", err)
		return exitError
	}
	relativize(findings)
	relativize(sum.held())
	sum.relativize()
	if err := write(opts.format, findings, sum, stdout); err != nil {
		fmt.Fprintln(stderr, "bhlint:", err)
		return exitError
	}
	if runErr != nil {
		fmt.Fprintln(stderr, runErr)
	}
	sum.print(stderr, len(findings))
	return exitStatus(findings, sum, runErr)
}

// exitStatus: 2 when anything asked for was not checked, whatever was
// found elsewhere; 1 for findings; 0 only for a complete, clean run.
func exitStatus(findings []finding, sum *runSummary, runErr error) int {
	switch {
	case runErr != nil || !sum.complete():
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
	fs.StringVar(&opts.format, "format", "text", "output format: text, json, sarif or github (GitHub Actions annotations)")
	fs.StringVar(&opts.explain, "explain", "", "print the documentation of an analyzer or diagnostic code, and exit")
	disable := fs.String("disable", "", "comma-separated analyzers not to run")
	enable := fs.String("enable", "", "comma-separated analyzers to run, and no others (analyzers off in .bhlint.yml stay off)")
	fs.BoolVar(&opts.fix, "fix", false, "apply the suggested fixes analyzers offer (through go fix), instead of reporting")
	fs.BoolVar(&opts.diff, "diff", false, "with -fix: print the fixes as a unified diff instead of applying them")
	fs.BoolVar(&opts.version, "version", false, "print bhlint's version and exit")
	opts.gate.addFlags(fs)
	dir := fs.String("C", "", "change to `dir` before doing anything else, as go -C does")
	passOn := addPassThroughFlags(fs)
	fs.Usage = func() { printUsage(fs, stderr) }
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if opts.diff && !opts.fix {
		return nil, errors.New("-diff needs -fix (bhlint -fix -diff ./... previews the fixes)")
	}
	if !slices.Contains([]string{"text", "json", "sarif", "github"}, opts.format) {
		return nil, fmt.Errorf("unknown -format %q (want text, json, sarif or github)", opts.format)
	}
	if err := opts.gate.check(opts.fix && opts.diff); err != nil {
		return nil, err
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

// explain prints an analyzer's documentation, found by name or code in any
// case; on a miss it lists what it knows.
func explain(what string, stdout, stderr io.Writer) int {
	var known []string
	for _, e := range suite.All {
		if strings.EqualFold(what, e.Analyzer.Name) || strings.EqualFold(what, e.Code) {
			fmt.Fprintf(stdout, "%s (%s)\n\n%s", e.Analyzer.Name, e.Code, e.Analyzer.Doc)
			return exitClean
		}
		known = append(known, fmt.Sprintf("  %-16s %s", e.Analyzer.Name, e.Code))
	}
	fmt.Fprintf(stderr, "bhlint: -explain: no analyzer or code named %q; these are known:\n%s\n", what, strings.Join(known, "\n"))
	return exitError
}

// analyze runs the analyzers through `go vet -vettool=<this binary> -json`:
// the go command loads and type-checks packages, runs dependencies for facts
// in parallel, and caches results, so an unchanged tree re-checks quickly
// (the cache key holds every .bhlint.yml: see printToolID). dir is where to
// run, "" for the working directory. File names in the findings are
// absolute. The summary is nil only when nothing could run at all; an
// error with a summary is go vet's own report of what did not load.
func analyze(dir string, opts *options) ([]finding, *runSummary, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, nil, fmt.Errorf("bhlint: cannot find its own executable to hand to go vet: %v", err)
	}
	if _, err := projectConfig(dir); err != nil {
		return nil, nil, err
	}
	args := []string{"vet", "-vettool=" + self, "-json", "-" + runRecord.Name + ".record"}
	for _, name := range analyzerNames() {
		if !opts.runs(name) {
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
	if vetErr != nil && !isExitError(vetErr) {
		return nil, nil, fmt.Errorf("bhlint: running go vet: %v (is the go command on PATH?)", vetErr)
	}
	findings, sum, parseErr := parseVetJSON(out.Bytes(), rootPackages(dir, buildFlags(opts.vetArgs), opts.packages))
	if parseErr != nil {
		return findings, nil, fmt.Errorf("bhlint: reading go vet's output: %v", parseErr)
	}
	findings = sortFindings(findings)
	sum.sortNotices()
	if vetErr == nil {
		return findings, sum, nil
	}
	sum.explainUnanalysed(dir, opts.packages, buildFlags(opts.vetArgs), errOut.String())
	return findings, sum, loadError(errOut.String(), sum)
}

func isExitError(err error) bool {
	var exitErr *exec.ExitError
	return errors.As(err, &exitErr)
}

// buildFlags are the vet arguments that change which files make a package,
// for go list to agree with go vet.
func buildFlags(vetArgs []string) []string {
	var out []string
	for _, a := range vetArgs {
		if strings.HasPrefix(a, "-tags=") {
			out = append(out, a)
		}
	}
	return out
}

// applyFixes applies the analyzers' suggested fixes through go fix, which
// runs the same vet protocol with this binary as its fix tool.
func applyFixes(opts *options, stdout, stderr io.Writer) int {
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintln(stderr, "bhlint: cannot find its own executable to hand to go fix:", err)
		return exitError
	}
	if _, err := projectConfig(""); err != nil {
		fmt.Fprintln(stderr, err)
		return exitError
	}
	args := []string{"fix", "-fixtool=" + self}
	if opts.diff {
		args = append(args, "-diff")
	}
	for _, name := range analyzerNames() {
		if !opts.runs(name) {
			args = append(args, "-"+name+"=false")
		}
	}
	args = append(args, opts.vetArgs...)
	cmd := exec.Command("go", append(args, opts.packages...)...)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	err = cmd.Run()
	switch {
	case opts.diff && err != nil: // go fix -diff fails when the diff is not empty
		return max(reportUnfixable(opts, stderr), exitFindings)
	case opts.diff:
		return reportUnfixable(opts, stderr)
	case err != nil:
		fmt.Fprintln(stderr, "bhlint: go fix:", err)
		return exitError
	}
	// Findings no fix resolved are still findings: report them, and fail.
	return report(opts, stdout, stderr)
}

// reportUnfixable is the rest of -fix -diff: the findings no suggested fix
// resolves, which the diff does not show, listed on stderr. The run is
// cached from go fix's, so it costs little.
func reportUnfixable(opts *options, stderr io.Writer) int {
	findings, sum, runErr := analyze("", opts)
	if runErr != nil {
		fmt.Fprintln(stderr, runErr)
		return exitError
	}
	relativize(findings)
	var left []finding
	for _, f := range findings {
		if len(f.Fixes) == 0 {
			left = append(left, f)
		}
	}
	fmt.Fprintf(stderr, "bhlint: -fix -diff: %s with a suggested fix (the diff above), %s with none, left for you to fix:\n",
		plural(len(findings)-len(left), "finding"), plural(len(left), "finding"))
	if err := write("text", left, sum, stderr); err != nil {
		fmt.Fprintln(stderr, "bhlint:", err)
	}
	return exitStatus(left, sum, nil)
}

// runs reports whether the -enable and -disable flags leave an analyzer on.
// .bhlint.yml is not consulted here: the analyzers honour the file that
// applies to each package themselves (a nested file may turn on what the
// one above turns off), under every driver.
func (o *options) runs(name string) bool {
	return !o.disabled[name] && (len(o.only) == 0 || o.only[name])
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
	if err := cfg.CheckAnalyzers(analyzerNames()); err != nil {
		return nil, fmt.Errorf("bhlint: %v", err)
	}
	return cfg, nil
}

// loadError is go vet's report of the packages that did not load or
// type-check (the summary names every package left unanalysed), and a note
// when this binary was built with an x/tools whose vet protocol rejects
// valid code.
func loadError(vetStderr string, sum *runSummary) error {
	msg := strings.TrimSpace(vetStderr)
	if note := xtoolsCaveat(sum); note != "" {
		msg += "\n" + note
	}
	return errors.New(msg)
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
	Category string `json:"category"`
	Posn     string `json:"posn"`
	End      string `json:"end"` // where the flagged syntax ends (the LSP range)
	Message  string `json:"message"`
	Related  []struct {
		Posn    string `json:"posn"`
		End     string `json:"end"`
		Message string `json:"message"`
	} `json:"related"`
	SuggestedFixes []fix `json:"suggested_fixes"`
}

func parseVetJSON(data []byte, roots map[string]bool) ([]finding, *runSummary, error) {
	var findings []finding
	sum := newSummary()
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		var tree map[string]map[string]json.RawMessage
		if err := dec.Decode(&tree); err == io.EOF {
			return findings, sum, nil
		} else if err != nil {
			return findings, sum, err
		}
		for pkg, byAnalyzer := range tree {
			if !isRoot(roots, pkg) {
				continue // a dependency analysed in full for the cache (dependencies.go)
			}
			for name, raw := range byAnalyzer {
				fs, errMsg, err := decodeAnalyzerResult(name, raw)
				if err != nil {
					return findings, sum, err
				}
				if errMsg != "" {
					sum.Errors = append(sum.Errors, fmt.Sprintf("%s: %s: %s", pkg, name, errMsg))
				}
				for _, f := range fs {
					f.Package, _, _ = strings.Cut(pkg, " ")
					switch f.category {
					case recordCategory:
						sum.recordAnalysed(pkg)
					case lazyssa.SkipCategory:
						sum.Skipped = append(sum.Skipped, skipNotice{Analyzer: f.Analyzer, Message: f.Message, Location: f.Location})
					default:
						findings = append(findings, f)
					}
				}
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
		f.category = d.Category
		for _, r := range d.Related {
			f.Related = append(f.Related, newLocation(r.Posn, r.Message).withEnd(r.End))
		}
		f.Fixes = append(f.Fixes, d.SuggestedFixes...)
		out = append(out, f)
	}
	return out, "", nil
}
