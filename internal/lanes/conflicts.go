package lanes

import (
	"slices"
	"sort"
)

// Claim is one lane's hold on a resource.
type Claim struct {
	Lane string
	Pkg  string // the package the claim was made in
	How  string // "declared", "reached" or "wrapped"
	By   string // the entry point, or what wraps the resource
	Path string // for "reached": entry → … → resource
	Pos  string

	// For a claim of an inferred workload class: what made the entry an
	// entry point, where (full file name and line), and the functions on
	// the path, the entry first.
	Inferred bool
	Via      string
	File     string
	Line     int
	Hops     []Hop
	// UseFile and UseLine: where the entry's body leads to the resource
	// (Use.File, Use.Line), when known.
	UseFile string
	UseLine int
}

// Conflict is a resource claimed by two or more lanes.
type Conflict struct {
	Resource Resource
	Claims   []Claim
}

// Inferred reports whether the conflict is between inferred workload
// classes, not declared lanes.
func (c Conflict) Inferred() bool {
	for _, cl := range c.Claims {
		if !cl.Inferred {
			return false
		}
	}
	return len(c.Claims) > 0
}

// InferredNouns are the resources whose sharing between inferred workload
// classes is a conflict: pools of connections, not outbound clients.
var InferredNouns = map[string]bool{"database pool": true, "Redis client": true}

// Lanes returns the distinct lanes of the claims, sorted.
func (c Conflict) Lanes() []string { return lanesOf(c.Claims) }

func lanesOf(claims []Claim) []string {
	var out []string
	for _, cl := range claims {
		if !slices.Contains(out, cl.Lane) {
			out = append(out, cl.Lane)
		}
	}
	slices.Sort(out)
	return out
}

// Conflicts returns the resources that two or more lanes share:
//   - a package-level resource with no lane reached from entry points of two
//     lanes;
//   - a resource wrapped into two lanes, or into a lane other than its own;
//   - when no lane is declared anywhere in sums, a pool with no lane (a
//     package-level variable or a struct field) reached from entry points
//     of both inferred workload classes.
//
// A laned resource reached from another lane's entry point is not a
// conflict here: the analyzer reports it where the entry point is.
// Declared lanes win: inferred entries are ignored once any is declared.
func Conflicts(sums []*Summary) []Conflict {
	claims := map[string][]Claim{}
	resources := map[string]Resource{}
	wrapped := map[string]bool{}
	sums = Dedup(sums)
	declared := false
	for _, s := range sums {
		declared = declared || len(s.Wraps) > 0
		for _, e := range s.Entries {
			declared = declared || !e.Inferred
		}
	}
	for _, s := range sums {
		for _, e := range s.Entries {
			if e.Inferred && declared {
				continue
			}
			for _, u := range e.Uses {
				r := u.Resource
				if r.Lane != "" || u.IsDispatch() || (!e.Inferred && !r.Global) || (e.Inferred && !InferredNouns[r.Noun]) {
					continue
				}
				resources[r.Key] = r
				cl := Claim{Lane: e.Lane, Pkg: s.Pkg, How: "reached", By: e.Name, Path: u.PathString(e.Name), Pos: e.Pos}
				if e.Inferred {
					cl.Inferred, cl.Via, cl.File, cl.Line = true, e.How, e.File, e.Line
					cl.Hops = append([]Hop{e.Func}, u.Path...)
					cl.UseFile, cl.UseLine = u.File, u.Line
				}
				claims[r.Key] = append(claims[r.Key], cl)
			}
		}
		for _, w := range s.Wraps {
			r := w.Inner
			resources[r.Key] = r
			wrapped[r.Key] = true
			claims[r.Key] = append(claims[r.Key], Claim{Lane: w.Lane, Pkg: s.Pkg, How: "wrapped", By: w.Outer, Pos: w.Pos})
		}
	}
	var out []Conflict
	for key, cls := range claims {
		r := resources[key]
		if r.Lane != "" && wrapped[key] {
			cls = append([]Claim{{Lane: r.Lane, Pkg: r.Pkg, How: "declared", By: r.Name, Pos: r.Pos}}, cls...)
		}
		if len(lanesOf(cls)) < 2 {
			continue
		}
		sort.SliceStable(cls, func(i, j int) bool { return cls[i].Lane < cls[j].Lane })
		out = append(out, Conflict{Resource: r, Claims: cls})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Resource.Key < out[j].Resource.Key })
	return out
}

// Within returns the claims made in the given packages.
func (c Conflict) Within(pkgs []string) []Claim {
	var out []Claim
	for _, cl := range c.Claims {
		if cl.How == "declared" || slices.Contains(pkgs, cl.Pkg) {
			out = append(out, cl)
		}
	}
	return out
}

// SeenBefore reports whether one of the dependency summaries already saw
// the conflict whole, so that it was reported there.
func (c Conflict) SeenBefore(deps []*Summary) bool {
	for _, d := range deps {
		if len(lanesOf(c.Within(d.Seen))) >= 2 {
			return true
		}
	}
	return false
}

// Dedup returns one summary per package, in package order.
func Dedup(sums []*Summary) []*Summary {
	byPkg := map[string]*Summary{}
	for _, s := range sums {
		if s != nil {
			byPkg[s.Pkg] = s
		}
	}
	out := make([]*Summary, 0, len(byPkg))
	for _, s := range byPkg {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Pkg < out[j].Pkg })
	return out
}
