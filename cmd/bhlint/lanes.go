package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"golang.org/x/tools/go/packages"

	"github.com/bhlint/bhlint/analyzers/sharedpool"
	"github.com/bhlint/bhlint/internal/reach"
)

// runLanes is `bhlint lanes [-format=text|json|dot] [-C dir] [packages]`:
// it prints the lane map of the packages — each lane's entry points, the
// resources it reaches, and the resources lanes share.
func runLanes(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bhlint lanes", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("format", "text", "output format: text, json or dot (Graphviz)")
	dir := fs.String("C", "", "change to `dir` before doing anything else, as go -C does")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: bhlint lanes [flags] [packages]   (default ./...)\n\nflags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return exitClean
		}
		return exitError
	}
	write := map[string]func(m mapWriter, w io.Writer) error{
		"text": mapWriter.WriteText, "json": mapWriter.WriteJSON, "dot": mapWriter.WriteDOT,
	}[*format]
	if write == nil {
		fmt.Fprintf(stderr, "bhlint lanes: unknown -format %q (want text, json or dot)\n", *format)
		return exitError
	}
	if *dir != "" {
		if err := os.Chdir(*dir); err != nil {
			fmt.Fprintf(stderr, "bhlint lanes: -C: %v\n", err)
			return exitError
		}
	}
	patterns := fs.Args()
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	pkgs, err := packages.Load(&packages.Config{Mode: sharedpool.LoadMode | packages.NeedModule}, patterns...)
	if err != nil {
		fmt.Fprintf(stderr, "bhlint lanes: %v\n", err)
		return exitError
	}
	if packages.PrintErrors(pkgs) > 0 {
		fmt.Fprintln(stderr, "bhlint lanes: some packages could not be loaded")
		return exitError
	}
	m, err := sharedpool.LaneMap(pkgs)
	if m != nil {
		deps, derr := reach.Dependencies(pkgs)
		m.Dependencies = deps
		err = errors.Join(err, derr)
		m.Relative(moduleDirs(pkgs))
		if werr := write(m, stdout); werr != nil {
			fmt.Fprintf(stderr, "bhlint lanes: %v\n", werr)
			return exitError
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "bhlint lanes: some packages could not be analysed:\n%v\n", err)
		return exitError
	}
	return exitClean
}

// moduleDirs gives the directory, relative to its module's root, of each
// package of the main module (or modules, in a workspace).
func moduleDirs(pkgs []*packages.Package) func(pkg string) (string, bool) {
	dirs := map[string]string{}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if p.Module == nil || !p.Module.Main || len(p.GoFiles) == 0 {
			return
		}
		if rel, err := filepath.Rel(p.Module.Dir, filepath.Dir(p.GoFiles[0])); err == nil {
			dirs[p.PkgPath] = filepath.ToSlash(rel)
		}
	})
	return func(pkg string) (string, bool) {
		dir, ok := dirs[pkg]
		return dir, ok
	}
}

// mapWriter is the lane map's three renderings.
type mapWriter interface {
	WriteText(io.Writer) error
	WriteJSON(io.Writer) error
	WriteDOT(io.Writer) error
}
