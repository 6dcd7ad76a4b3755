package lanes

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Map is the lane map of a set of packages: each lane's entry points and
// the resources they reach, and the resources lanes share.
type Map struct {
	Lanes  []Lane   `json:"lanes"`
	Shared []Shared `json:"shared"`
	// Dependencies are the outbound dependencies and who waits on them
	// (filled by the caller: internal/reach computes them).
	Dependencies []Dependency `json:"dependencies"`
}

// Lane is one lane of the map.
type Lane struct {
	Name      string        `json:"name"`
	Entries   []EntryPoint  `json:"entries"`
	Resources []LaneReached `json:"resources"`
	// Inferred: no lane is declared, and this is a workload class bhlint
	// inferred ("interactive": request handlers; "background": loops
	// started at start-up).
	Inferred bool `json:"inferred,omitempty"`
}

// EntryPoint is where work enters a lane.
type EntryPoint struct {
	Name string `json:"name"`
	Pos  string `json:"pos,omitempty"`
	Pkg  string `json:"pkg,omitempty"` // import path of its package
	How  string `json:"how,omitempty"` // for an inferred one: what made it an entry point
}

// LaneReached is a resource a lane reaches, with the entry points that
// reach it and the path from the first of them.
type LaneReached struct {
	Name    string   `json:"name"`
	Noun    string   `json:"kind"`
	Owner   string   `json:"owner,omitempty"` // the resource's own lane, "" if none
	Pos     string   `json:"pos,omitempty"`
	Pkg     string   `json:"pkg,omitempty"` // import path of the declaring package
	Path    string   `json:"path"`
	Entries []string `json:"entries"`

	paths map[string]string // entry point → its path here, for KeepInferred
}

// Shared is a resource more than one lane reaches or wraps.
type Shared struct {
	Name  string   `json:"name"`
	Noun  string   `json:"kind"`
	Owner string   `json:"owner,omitempty"`
	Pos   string   `json:"pos,omitempty"`
	Pkg   string   `json:"pkg,omitempty"`
	Lanes []string `json:"lanes"`
	Why   []string `json:"why"`
	// Field: a struct field with no lane, which the lanes share through one
	// value of the struct (a service's one Server); the sharedpool analyzer
	// leaves these out, since each lane could hold a value of its own.
	Field bool `json:"field,omitempty"`
}

// BuildMap makes the lane map from the package summaries of a set of
// packages (duplicates are dropped).
func BuildMap(sums []*Summary) *Map {
	byLane := map[string]*Lane{}
	reachers := map[string]map[string]bool{} // resource key → lanes
	resources := map[string]Resource{}
	why := map[string][]string{}
	sums = Dedup(sums)
	// Declared lanes win: inferred workload classes are shown only when no
	// lane is declared anywhere, as sharedpool reports them.
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
			l := byLane[e.Lane]
			if l == nil {
				l = &Lane{Name: e.Lane, Inferred: e.Inferred}
				byLane[e.Lane] = l
			}
			l.Entries = append(l.Entries, EntryPoint{Name: e.Name, Pos: e.Pos, Pkg: s.Pkg, How: e.How})
			for _, u := range e.Uses {
				r := u.Resource
				resources[r.Key] = r
				if reachers[r.Key] == nil {
					reachers[r.Key] = map[string]bool{}
				}
				if !reachers[r.Key][e.Lane] {
					reachers[r.Key][e.Lane] = true
					l.Resources = append(l.Resources, LaneReached{Name: r.Name, Noun: r.Noun, Owner: r.Lane, Pos: r.Pos, Pkg: r.Pkg, Path: u.PathString(e.Name)})
					why[r.Key] = append(why[r.Key], fmt.Sprintf("lane %s reaches it: %s", e.Lane, u.PathString(e.Name)))
				}
				for i := range l.Resources {
					if rr := &l.Resources[i]; rr.Name == r.Name && !slices.Contains(rr.Entries, e.Name) {
						rr.Entries = append(rr.Entries, e.Name)
						if rr.paths == nil {
							rr.paths = map[string]string{}
						}
						rr.paths[e.Name] = u.PathString(e.Name)
					}
				}
			}
		}
	}
	m := &Map{}
	for _, l := range byLane {
		sort.Slice(l.Entries, func(i, j int) bool { return l.Entries[i].Name < l.Entries[j].Name })
		sort.Slice(l.Resources, func(i, j int) bool { return l.Resources[i].Name < l.Resources[j].Name })
		for _, r := range l.Resources {
			slices.Sort(r.Entries)
		}
		m.Lanes = append(m.Lanes, *l)
	}
	sort.Slice(m.Lanes, func(i, j int) bool { return m.Lanes[i].Name < m.Lanes[j].Name })
	shared := map[string]*Shared{}
	for key, lanes := range reachers {
		owners := map[string]bool{}
		for l := range lanes {
			owners[l] = true
		}
		if r := resources[key]; r.Lane != "" {
			owners[r.Lane] = true
		}
		r := resources[key]
		field := r.Lane == "" && !r.Global
		if len(owners) < 2 || (field && r.Obj == "") {
			continue // known by its type alone (a parameter): each caller may pass its own
		}
		if onlyInferred(owners, byLane) && !InferredNouns[r.Noun] {
			continue // between inferred classes only pools count, as sharedpool reports them
		}
		shared[key] = &Shared{Name: r.Name, Noun: r.Noun, Owner: r.Lane, Pos: r.Pos, Pkg: r.Pkg, Lanes: keys(owners), Why: why[key], Field: field}
	}
	for _, c := range Conflicts(sums) {
		sh := shared[c.Resource.Key]
		if sh == nil {
			r := c.Resource
			sh = &Shared{Name: r.Name, Noun: r.Noun, Owner: r.Lane, Pos: r.Pos, Pkg: r.Pkg}
			shared[r.Key] = sh
		}
		for _, cl := range c.Claims {
			if !slices.Contains(sh.Lanes, cl.Lane) {
				sh.Lanes = append(sh.Lanes, cl.Lane)
			}
			if cl.How == "wrapped" {
				sh.Why = append(sh.Why, fmt.Sprintf("wrapped into lane %s by %s", cl.Lane, cl.By))
			}
		}
		slices.Sort(sh.Lanes)
	}
	for _, sh := range shared {
		slices.Sort(sh.Why)
		m.Shared = append(m.Shared, *sh)
	}
	sort.Slice(m.Shared, func(i, j int) bool { return m.Shared[i].Name < m.Shared[j].Name })
	return m
}

// onlyInferred: every lane of the set is an inferred workload class.
func onlyInferred(set map[string]bool, byLane map[string]*Lane) bool {
	for l := range set {
		if byLane[l] == nil || !byLane[l].Inferred {
			return false
		}
	}
	return true
}

// KeepInferred keeps, of the inferred workload classes, the entry points of
// the packages keep accepts (the main module's: a dependency's own
// handlers and loops are not the service's), and what they alone reach and
// share. Declared lanes are left as they are.
func (m *Map) KeepInferred(keep func(pkg string) bool) {
	dropped := map[string]bool{} // "lane|entry"
	var lanesOut []Lane
	for _, l := range m.Lanes {
		if !l.Inferred {
			lanesOut = append(lanesOut, l)
			continue
		}
		var entries []EntryPoint
		for _, e := range l.Entries {
			if keep(e.Pkg) {
				entries = append(entries, e)
			} else {
				dropped[l.Name+"|"+e.Name] = true
			}
		}
		if len(entries) == 0 {
			continue
		}
		l.Entries = entries
		var resources []LaneReached
		for _, r := range l.Resources {
			var kept []string
			for _, e := range r.Entries {
				if !dropped[l.Name+"|"+e] {
					kept = append(kept, e)
				}
			}
			if len(kept) == 0 {
				continue
			}
			if r.paths[kept[0]] != "" && len(kept) < len(r.Entries) {
				r.Path = r.paths[kept[0]]
			}
			r.Entries = kept
			resources = append(resources, r)
		}
		l.Resources = resources
		lanesOut = append(lanesOut, l)
	}
	m.Lanes = lanesOut
	if len(dropped) == 0 {
		return
	}
	reachedBy := map[string]map[string]string{} // resource → lane → path
	for _, l := range m.Lanes {
		for _, r := range l.Resources {
			if reachedBy[r.Name] == nil {
				reachedBy[r.Name] = map[string]string{}
			}
			reachedBy[r.Name][l.Name] = r.Path
		}
	}
	var shared []Shared
	for _, s := range m.Shared {
		var why []string
		lanesLeft := map[string]bool{}
		if s.Owner != "" {
			lanesLeft[s.Owner] = true
		}
		for lane := range reachedBy[s.Name] {
			lanesLeft[lane] = true
		}
		changed := false
		for _, w := range s.Why {
			lane, path, reached := strings.Cut(strings.TrimPrefix(w, "lane "), " reaches it: ")
			if !reached {
				if _, l, ok := strings.Cut(w, "wrapped into lane "); ok {
					l, _, _ = strings.Cut(l, " ")
					lanesLeft[l] = true
				}
				why = append(why, w)
				continue
			}
			entry, _, _ := strings.Cut(path, " → ")
			if !dropped[lane+"|"+entry] {
				why = append(why, w)
				continue
			}
			changed = true
			if p, ok := reachedBy[s.Name][lane]; ok {
				why = append(why, fmt.Sprintf("lane %s reaches it: %s", lane, p))
			}
		}
		if changed {
			if len(lanesLeft) < 2 {
				continue
			}
			slices.Sort(why)
			s.Why, s.Lanes = why, keys(lanesLeft)
		}
		shared = append(shared, s)
	}
	m.Shared = shared
}

// Relative rewrites each position, which the facts record as file:line:col
// within the package's directory, as a path from the module root. dirOf
// gives a package's directory relative to the root, or false for a package
// outside the module, whose positions are then led by its import path.
func (m *Map) Relative(dirOf func(pkg string) (string, bool)) {
	rel := func(pos, pkg string) string {
		if pos == "" || pkg == "" || strings.Contains(pos, "/") {
			return pos
		}
		dir, ok := dirOf(pkg)
		if !ok {
			dir = pkg
		}
		return path.Join(dir, pos)
	}
	for i := range m.Lanes {
		l := &m.Lanes[i]
		for j := range l.Entries {
			l.Entries[j].Pos = rel(l.Entries[j].Pos, l.Entries[j].Pkg)
		}
		for j := range l.Resources {
			l.Resources[j].Pos = rel(l.Resources[j].Pos, l.Resources[j].Pkg)
		}
	}
	for i := range m.Shared {
		m.Shared[i].Pos = rel(m.Shared[i].Pos, m.Shared[i].Pkg)
	}
	m.relativeDeps(rel)
}

func keys(set map[string]bool) []string {
	var out []string
	for k := range set {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// WriteText writes the map for people.
func (m *Map) WriteText(w io.Writer) error {
	var b strings.Builder
	if len(m.Lanes) == 0 {
		b.WriteString("no lanes declared (//bhlint:lane NAME or bulkhead.Executor[L])\n")
	}
	for _, l := range m.Lanes {
		fmt.Fprintf(&b, "lane %s%s\n  entry points:\n", l.Name, inferredNote(l))
		for _, e := range l.Entries {
			how := ""
			if e.How != "" {
				how = " (" + e.How + ")"
			}
			fmt.Fprintf(&b, "    %s%s%s\n", e.Name, at(e.Pos), how)
		}
		b.WriteString("  resources:\n")
		if len(l.Resources) == 0 {
			b.WriteString("    (none)\n")
		}
		for _, r := range l.Resources {
			owner := "no lane"
			if r.Owner != "" {
				owner = "lane " + r.Owner
			}
			mark := ""
			if r.Owner != "" && r.Owner != l.Name {
				mark = "  ← another lane's"
			}
			fmt.Fprintf(&b, "    %s (%s, %s) via %s%s\n", r.Name, r.Noun, owner, r.Path, mark)
		}
	}
	if len(m.Shared) > 0 {
		b.WriteString("shared between lanes:\n")
	}
	for _, s := range m.Shared {
		through := ""
		if s.Field {
			through = ", through one value of its struct"
		}
		fmt.Fprintf(&b, "  %s (%s%s) shared by %s%s\n", s.Name, s.Noun, at(s.Pos), strings.Join(s.Lanes, ", "), through)
		for _, why := range s.Why {
			fmt.Fprintf(&b, "    %s\n", why)
		}
	}
	m.writeDepsText(&b)
	if len(m.Lanes) > 0 || len(m.Dependencies) > 0 {
		b.WriteString(textLegend)
	}
	if len(m.Dependencies) > 0 {
		b.WriteString(depsLegend)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

const textLegend = `legend:
  lane NAME                         work that enters by its entry points (//bhlint:lane NAME, bulkhead.Executor[NAME])
  (inferred: …)                     no lane is declared: interactive (request handlers) and background (start-up loops)
                                    are the workload classes bhlint inferred; after each entry point, what made it one
  (KIND, lane NAME)                 the resource belongs to that lane; "no lane": nothing gives it one
  via A → B → R                     the calls by which the first entry point reaches the resource
  ← another lane's                  this lane reaches a resource of another lane: that lane's slowness becomes this one's
  shared between lanes              resources more than one lane reaches or wraps: one failure domain for all of them
  through one value of its struct   a struct field with no lane, which these lanes reach in the same value
  file:line:col                     from the module root; a package outside the module is named by its import path
`

const depsLegend = `  outbound dependencies             HTTP clients and hosts, gRPC, Redis, subprocesses the code calls, by the variable or field of the client
  called by E via A → B → D         entry point E reaches a call on D by these calls ("inferred": found without a lane, by its workload class)
  holding: KIND of P (BY)           what E holds at that call: a connection or transaction of pool P, a slot of executor P
  in a goroutine it starts          the call is made in a goroutine started on the way: E itself does not wait on it
  stalls when it slows              other entry points that need what a caller holds while it waits: they wait too
`

// inferredNote says that a lane is an inferred workload class.
func inferredNote(l Lane) string {
	if !l.Inferred {
		return ""
	}
	switch l.Name {
	case "interactive":
		return " (inferred: request handlers; no lane is declared)"
	case "background":
		return " (inferred: loops started at start-up; no lane is declared)"
	}
	return " (inferred; no lane is declared)"
}

func at(pos string) string {
	if pos == "" {
		return ""
	}
	return " at " + pos
}

// WriteJSON writes the map as one indented JSON object.
func (m *Map) WriteJSON(w io.Writer) error {
	out := *m
	if out.Lanes == nil {
		out.Lanes = []Lane{}
	}
	if out.Shared == nil {
		out.Shared = []Shared{}
	}
	if out.Dependencies == nil {
		out.Dependencies = []Dependency{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// WriteDOT writes the map as a Graphviz digraph: one cluster per lane with
// its entry points, an edge from each entry point to the resources it
// reaches, shared resources drawn in red (dashed for a struct field shared
// through one value), and a legend.
func (m *Map) WriteDOT(w io.Writer) error {
	var b strings.Builder
	b.WriteString("digraph lanes {\n  rankdir=LR;\n  node [fontname=\"Helvetica\"];\n")
	shared := map[string]Shared{}
	for _, s := range m.Shared {
		shared[s.Name] = s
	}
	resources := map[string]LaneReached{}
	for i, l := range m.Lanes {
		label, style := "lane "+l.Name, ""
		if l.Inferred {
			label, style = "lane "+l.Name+" (inferred)", "    style=dashed;\n"
		}
		fmt.Fprintf(&b, "  subgraph cluster_%d {\n    label=%s;\n%s", i, strconv.Quote(label), style)
		for _, e := range l.Entries {
			fmt.Fprintf(&b, "    %s [shape=box];\n", strconv.Quote(l.Name+": "+e.Name))
		}
		b.WriteString("  }\n")
		for _, r := range l.Resources {
			resources[r.Name] = r
		}
	}
	for _, name := range slices.Sorted(maps.Keys(resources)) {
		r := resources[name]
		label := r.Name + "\\n" + r.Noun
		if r.Owner != "" {
			label += ", lane " + r.Owner
		}
		fmt.Fprintf(&b, "  %s [shape=cylinder, label=\"%s\", %s];\n", strconv.Quote("res: "+name), escapeDOT(label), resourceStyle(shared, name))
	}
	for _, l := range m.Lanes {
		for _, r := range l.Resources {
			color := "black"
			if r.Owner != "" && r.Owner != l.Name {
				color = "red"
			}
			for _, entry := range r.Entries {
				fmt.Fprintf(&b, "  %s -> %s [color=%s];\n", strconv.Quote(l.Name+": "+entry), strconv.Quote("res: "+r.Name), color)
			}
		}
	}
	for _, s := range m.Shared {
		if _, drawn := resources[s.Name]; !drawn {
			fmt.Fprintf(&b, "  %s [shape=cylinder, label=\"%s\", %s];\n", strconv.Quote("res: "+s.Name), escapeDOT(s.Name+"\\n"+s.Noun), resourceStyle(shared, s.Name))
		}
	}
	drawn := map[string]bool{}
	for _, l := range m.Lanes {
		for _, e := range l.Entries {
			drawn[l.Name+": "+e.Name] = true
		}
	}
	for name := range resources {
		drawn["res: "+name] = true
	}
	for _, s := range m.Shared {
		drawn["res: "+s.Name] = true
	}
	m.writeDepsDOT(&b, drawn)
	if len(m.Lanes) > 0 || len(m.Dependencies) > 0 {
		b.WriteString(dotLegend)
	}
	if len(m.Dependencies) > 0 {
		b.WriteString(dotDepsLegend)
	}
	b.WriteString("}\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// resourceStyle: red for a resource lanes share, dashed when they share it
// through one value of a struct, black otherwise.
func resourceStyle(shared map[string]Shared, name string) string {
	s, ok := shared[name]
	switch {
	case !ok:
		return "color=black"
	case s.Field:
		return "color=red, style=dashed"
	}
	return "color=red"
}

// dotLegend explains the shapes and colours, in a cluster of its own.
const dotLegend = `  subgraph cluster_legend {
    label="legend";
    fontsize=10;
    node [fontsize=10];
    edge [fontsize=10];
    "legend: entry" [shape=box, label="entry point of a lane\n(//bhlint:lane, bulkhead.Executor[L])"];
    "legend: inferred" [shape=box, style=dashed, label="lane (inferred): a workload class\nbhlint inferred, no lane declared"];
    "legend: own" [shape=cylinder, label="resource (pool, client)\nof this lane or of none", color=black];
    "legend: other" [shape=cylinder, label="another lane's resource", color=black];
    "legend: shared" [shape=cylinder, label="shared by lanes:\none failure domain", color=red];
    "legend: field" [shape=cylinder, label="struct field with no lane,\nshared through one value", color=red, style=dashed];
    "legend: entry" -> "legend: own" [color=black, label="reaches"];
    "legend: entry" -> "legend: other" [color=red, label="reaches another lane's"];
    "legend: entry" -> "legend: shared" [style=invis];
    "legend: entry" -> "legend: field" [style=invis];
    "legend: entry" -> "legend: inferred" [style=invis];
  }
`

// dotDepsLegend explains the dependency part of the graph.
const dotDepsLegend = `  subgraph cluster_legend_deps {
    label="legend: outbound dependencies";
    fontsize=10;
    node [fontsize=10];
    edge [fontsize=10];
    "legend: dep" [shape=hexagon, label="outbound dependency\n(HTTP, gRPC, Redis, subprocess)"];
    "legend: caller" [shape=box, style=rounded, label="entry point that waits on it\n(inferred: workload class)"];
    "legend: held" [shape=cylinder, label="pool or executor\nheld while waiting", color=orange];
    "legend: stalled" [shape=box, style=rounded, label="entry point that\nneeds what is held"];
    "legend: dep" -> "legend: caller" [color=blue, label="waits"];
    "legend: caller" -> "legend: held" [color=orange, style=bold, label="holds"];
    "legend: held" -> "legend: stalled" [color=orange, style=dashed, label="stalls"];
  }
`

func escapeDOT(s string) string { return strings.ReplaceAll(s, `"`, `\"`) }
