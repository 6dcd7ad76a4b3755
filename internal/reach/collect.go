package reach

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	analysischecker "golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/bhlint/bhlint/internal/lanes"
)

// Dependencies runs the analyzer over pkgs (loaded with syntax and types
// for every dependency, as the lane map's packages are) and returns the
// outbound dependencies of the root packages: who calls them, what they
// hold meanwhile, who stalls. Its error joins the errors of the packages
// that could not be analysed; the others' dependencies are still returned.
func Dependencies(pkgs []*packages.Package) ([]lanes.Dependency, error) {
	graph, err := analysischecker.Analyze([]*analysis.Analyzer{Analyzer}, pkgs, nil)
	if err != nil {
		return nil, err
	}
	var facts []*Entries
	var errs []error
	for act := range graph.All() {
		if act.Analyzer != Analyzer {
			continue
		}
		if act.Err != nil {
			errs = append(errs, fmt.Errorf("%s: %v", act.Package.PkgPath, act.Err))
			continue
		}
		if !act.IsRoot {
			continue
		}
		for _, pf := range act.AllPackageFacts() {
			if f, ok := pf.Fact.(*Entries); ok && pf.Package == act.Package.Types {
				facts = append(facts, f)
			}
		}
	}
	return Build(facts), errors.Join(errs...)
}

// maxRoots bounds the uncalled functions listed for a dependency no entry
// point reaches.
const maxRoots = 5

// Build makes the dependencies section of the lane map from the packages'
// entry points (a package seen twice counts once).
func Build(facts []*Entries) []lanes.Dependency {
	byPkg := map[string]*Entries{}
	for _, f := range facts {
		if f != nil {
			byPkg[f.Pkg] = f
		}
	}
	pkgs := make([]string, 0, len(byPkg))
	for p := range byPkg {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)

	deps := map[string]*lanes.Dependency{}
	depOf := func(d Dep) *lanes.Dependency {
		if deps[d.Key] == nil {
			deps[d.Key] = &lanes.Dependency{Name: d.Name, Noun: d.Noun, Host: d.Host, Pos: d.Pos, Pkg: d.Pkg}
		}
		return deps[d.Key]
	}
	type needer struct {
		ref  lanes.EntryRef
		name string
	}
	needers := map[string][]needer{} // pool or executor key → entry points that need it
	callerSeen := map[string]bool{}
	// Declared lanes win: inferred entry points count only when no lane
	// is declared anywhere (as in sharedpool).
	declared := false
	for _, f := range byPkg {
		for _, e := range f.Entries {
			declared = declared || e.Lane != ""
		}
	}
	for _, p := range pkgs {
		f := byPkg[p]
		for _, d := range f.Deps {
			depOf(d)
		}
		for _, e := range f.Entries {
			if declared && e.Lane == "" {
				continue
			}
			ref := lanes.EntryRef{Entry: e.Name, Lane: e.Lane, Class: e.Class, Pos: e.Pos, Pkg: f.Pkg}
			for _, n := range e.Needs {
				if !slices.ContainsFunc(needers[n.Key], func(x needer) bool { return x.ref.Label() == ref.Label() }) {
					needers[n.Key] = append(needers[n.Key], needer{ref, n.Name})
				}
			}
			for _, call := range e.Calls {
				dep := depOf(call.Dep)
				caller := lanes.DepCaller{EntryRef: ref, Path: strings.Join(append(append([]string{e.Name}, call.Path...), call.Dep.Name), " → "), Async: call.Async}
				var keys []string
				for _, h := range call.Held {
					if slices.ContainsFunc(caller.Held, func(x lanes.Held) bool { return x.Key == h.Key && x.Noun == h.Noun }) {
						continue
					}
					caller.Held = append(caller.Held, lanes.Held{Key: h.Key, Name: h.Name, Noun: h.Noun, By: h.By})
					keys = append(keys, h.Key+"/"+h.Noun)
				}
				id := fmt.Sprintf("%s|%s|%s|%v", call.Dep.Key, ref.Label(), strings.Join(keys, ","), call.Async)
				if !callerSeen[id] {
					callerSeen[id] = true
					dep.Callers = append(dep.Callers, caller)
				}
			}
		}
	}
	// A dependency no entry point reaches is listed with the functions that
	// reach it and that nothing calls: handlers wired where bhlint cannot
	// see, exported API. A function another package's code calls (a
	// client's method) is on their paths, not a root.
	onPaths := map[string]bool{}
	for _, f := range byPkg {
		for _, e := range append(slices.Clip(f.Entries), f.Roots...) {
			for _, call := range e.Calls {
				for _, hop := range call.Path {
					onPaths[hop] = true
				}
			}
		}
	}
	for _, p := range pkgs {
		f := byPkg[p]
		for _, e := range f.Roots {
			if onPaths[e.Name] {
				continue
			}
			for _, call := range e.Calls {
				dep := deps[call.Dep.Key]
				if dep == nil || (len(dep.Callers) > 0 && !dep.Callers[0].Root) || len(dep.Callers) >= maxRoots {
					continue
				}
				caller := lanes.DepCaller{EntryRef: lanes.EntryRef{Entry: e.Name, Pos: e.Pos, Pkg: f.Pkg}, Root: true,
					Path: strings.Join(append(append([]string{e.Name}, call.Path...), call.Dep.Name), " → "), Async: call.Async}
				for _, h := range call.Held {
					if !slices.ContainsFunc(caller.Held, func(x lanes.Held) bool { return x.Key == h.Key && x.Noun == h.Noun }) {
						caller.Held = append(caller.Held, lanes.Held{Key: h.Key, Name: h.Name, Noun: h.Noun, By: h.By})
					}
				}
				if !slices.ContainsFunc(dep.Callers, func(x lanes.DepCaller) bool { return x.Entry == caller.Entry }) {
					dep.Callers = append(dep.Callers, caller)
				}
			}
		}
	}
	out := make([]lanes.Dependency, 0, len(deps))
	for _, d := range deps {
		stalled := map[string]bool{}
		for _, c := range d.Callers {
			for _, h := range c.Held {
				if c.Root {
					continue // not known to run at all
				}
				for _, n := range needers[h.Key] {
					// The caller itself, or the entry point that handed the
					// caller (a func literal) to an executor, waits already.
					if n.ref.Label() == c.Label() || strings.HasSuffix(c.Entry, " in "+n.ref.Entry) || stalled[n.ref.Label()+"|"+h.Name] {
						continue
					}
					stalled[n.ref.Label()+"|"+h.Name] = true
					d.Stalls = append(d.Stalls, lanes.Stall{EntryRef: n.ref, Needs: h.Name, HeldBy: c.Entry, HeldKind: h.Noun})
				}
			}
		}
		out = append(out, *d)
	}
	lanes.SortDependencies(out)
	return out
}
