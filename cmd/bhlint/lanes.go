package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"golang.org/x/tools/go/packages"

	"github.com/bhlint/bhlint/analyzers/poolbudget"
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
	tags := fs.String("tags", "", "comma-separated build tags, as for go build")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: bhlint lanes [flags] [packages]   (default ./...)\n\n%s\nflags:\n", lanesHelp)
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
	buildFlags := lanesBuildFlags(*tags)
	key := lanesKey(*format, buildFlags, patterns)
	if out, ok := cachedLanes(key); ok {
		_, err := stdout.Write(out)
		return exitStatusOfWrite(err, stderr)
	}
	pkgs, err := packages.Load(&packages.Config{Mode: sharedpool.LoadMode | packages.NeedModule, BuildFlags: buildFlags}, patterns...)
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
		dirOf := moduleDirs(pkgs)
		m.KeepInferred(func(pkg string) bool { _, ok := dirOf(pkg); return ok })
		deps, derr := reach.Dependencies(pkgs)
		m.Dependencies = deps
		err = errors.Join(err, derr)
		m.Relative(dirOf)
		var out bytes.Buffer
		if werr := write(m, &out); werr != nil {
			fmt.Fprintf(stderr, "bhlint lanes: %v\n", werr)
			return exitError
		}
		if *format == "text" {
			rows, berr := poolbudget.Table(pkgs)
			err = errors.Join(err, berr)
			writeBudgets(&out, rows, dirOf)
		}
		if err == nil {
			keepLanes(key, out.Bytes())
		}
		if _, werr := stdout.Write(out.Bytes()); werr != nil {
			return exitStatusOfWrite(werr, stderr)
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "bhlint lanes: some packages could not be analysed:\n%v\n", err)
		return exitError
	}
	return exitClean
}

func exitStatusOfWrite(err error, stderr io.Writer) int {
	if err != nil {
		fmt.Fprintf(stderr, "bhlint lanes: %v\n", err)
		return exitError
	}
	return exitClean
}

// lanesHelp is what `bhlint lanes -h` says the map shows.
const lanesHelp = `Prints the lane map of the packages:

  lanes                   each lane's entry points (//bhlint:lane NAME, bulkhead.Executor[L]) and the
                          pools and clients it reaches, by which calls
  shared between lanes    pools and clients more than one lane reaches or wraps: one failure domain
  outbound dependencies   who else does this reach? For each outbound dependency (an HTTP client or
                          host, a gRPC connection or client, a Redis client, a subprocess):
                            called by       the entry points whose calls reach it (declared lanes'; and
                                            inferred ones, "interactive" request handlers and "background"
                                            start-up loops, marked inferred), with the path
                            holding         what each holds while it waits: a transaction, connection or
                                            open rows of which pool, a slot of which executor
                            stalls          the other entry points that need what is held: they wait too
                                            when the dependency slows

  connection budgets      (text only; when .bhlint.yml declares databases or dependencies) each
                          command's pools times deploy.replicas against what each database or
                          dependency allows, within the limits or not: poolbudget's arithmetic

A dependency is named by the variable or field of its client (and the host when a constant URL
shows it). Followed: static calls, across packages; func values passed as arguments; function
literals where they are made (a goroutine holds nothing of its parent). Not followed: calls
through interfaces (other than gRPC's generated clients and the catalogue's), whatever the
number of implementations; func values stored in a field or map and called elsewhere. What is
not followed is missed, not guessed.

A call made in a goroutine the entry point starts is marked so (it does not wait on it). A
dependency no entry point reaches lists the functions that reach it and that nothing calls or
registers where bhlint sees (a handler wired through a map, exported API), with what they hold.

JSON: the keys "lanes" (an inferred class has "inferred": true, its entry points "how") and
"shared", and "dependencies" (name, kind, host, pos, callers[entry, lane or class, path, held[name,
kind, by], async, root], stalls[entry, needs, held_by, held_kind]).
DOT: lanes as clusters; dependency → entry point (waits), entry point → held pool or executor
(holds), held → entry point (stalls).
`

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
