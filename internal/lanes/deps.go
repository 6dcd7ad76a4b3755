package lanes

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Dependency is an outbound dependency (an HTTP client or host, a gRPC
// connection or client, a Redis client, a subprocess), the entry points
// whose calls reach it, what they hold while they wait on it, and so which
// other entry points stall when it slows.
type Dependency struct {
	Name    string      `json:"name"`
	Noun    string      `json:"kind"`
	Host    string      `json:"host,omitempty"`
	Pos     string      `json:"pos,omitempty"`
	Pkg     string      `json:"pkg,omitempty"`
	Callers []DepCaller `json:"callers"`
	Stalls  []Stall     `json:"stalls"`
}

// EntryRef names an entry point: of a declared lane, or of an inferred
// workload class (interactive, background) when it has no lane.
type EntryRef struct {
	Entry string `json:"entry"`
	Lane  string `json:"lane,omitempty"`
	Class string `json:"class,omitempty"` // "interactive", "background": inferred
	Pos   string `json:"pos,omitempty"`
	Pkg   string `json:"pkg,omitempty"`
}

// Label is how the text and the DOT name the entry point.
func (e EntryRef) Label() string {
	if e.Lane != "" {
		return e.Entry + " (lane " + e.Lane + ")"
	}
	if e.Class != "" {
		return e.Entry + " (" + e.Class + ", inferred)"
	}
	return e.Entry
}

// node is the entry point's DOT node: the lane map's own when it has a lane.
func (e EntryRef) node() string {
	switch {
	case e.Lane != "":
		return e.Lane + ": " + e.Entry
	case e.Class != "":
		return e.Class + ": " + e.Entry
	}
	return "func: " + e.Entry
}

// DepCaller is one entry point that reaches the dependency, by Path, and
// what it holds at the call.
type DepCaller struct {
	EntryRef
	Path string `json:"path"`
	Held []Held `json:"held"`
	// Async: the call is made in a goroutine the entry point starts on the
	// way; the entry point does not wait on it.
	Async bool `json:"async,omitempty"`
	// Root: no entry point reaches the dependency; this function, which
	// nothing in its package calls or registers, does.
	Root bool `json:"root,omitempty"`
}

// Held is a fixed-size thing held while the call waits: a connection or
// transaction of a pool, a slot of an executor.
type Held struct {
	Key  string `json:"-"`
	Name string `json:"name"` // the pool or executor
	Noun string `json:"kind"` // "transaction", "connection", "open rows", "executor slot"
	By   string `json:"by,omitempty"`
}

// Stall is an entry point that needs what a caller holds while it waits on
// the dependency: it waits too when the dependency slows.
type Stall struct {
	EntryRef
	Needs    string `json:"needs"`     // the pool or executor it needs
	HeldBy   string `json:"held_by"`   // the caller that holds it while waiting
	HeldKind string `json:"held_kind"` // what the caller holds of it
}

// SortDependencies puts dependencies, their callers and stalls in a stable
// order.
func SortDependencies(deps []Dependency) {
	for i := range deps {
		d := &deps[i]
		sort.Slice(d.Callers, func(a, b int) bool {
			return d.Callers[a].Label()+d.Callers[a].Path < d.Callers[b].Label()+d.Callers[b].Path
		})
		sort.Slice(d.Stalls, func(a, b int) bool {
			return d.Stalls[a].Label()+d.Stalls[a].Needs < d.Stalls[b].Label()+d.Stalls[b].Needs
		})
		if d.Callers == nil {
			d.Callers = []DepCaller{}
		}
		if d.Stalls == nil {
			d.Stalls = []Stall{}
		}
		for j := range d.Callers {
			if d.Callers[j].Held == nil {
				d.Callers[j].Held = []Held{}
			}
		}
	}
	sort.Slice(deps, func(a, b int) bool { return deps[a].Name < deps[b].Name })
}

func (m *Map) relativeDeps(rel func(pos, pkg string) string) {
	for i := range m.Dependencies {
		d := &m.Dependencies[i]
		d.Pos = rel(d.Pos, d.Pkg)
		for j := range d.Callers {
			d.Callers[j].Pos = rel(d.Callers[j].Pos, d.Callers[j].Pkg)
		}
		for j := range d.Stalls {
			d.Stalls[j].Pos = rel(d.Stalls[j].Pos, d.Stalls[j].Pkg)
		}
	}
}

// writeDepsText is the dependencies section of the text map.
func (m *Map) writeDepsText(b *strings.Builder) {
	if len(m.Dependencies) == 0 {
		return
	}
	b.WriteString("outbound dependencies (who waits when one slows):\n")
	for _, d := range m.Dependencies {
		fmt.Fprintf(b, "  %s (%s%s)\n", d.Name, d.Noun, at(d.Pos))
		switch {
		case len(d.Callers) == 0:
			b.WriteString("    called by: no entry point found\n")
		case d.Callers[0].Root:
			b.WriteString("    called by: no entry point found; reached from functions nothing calls or registers where bhlint sees:\n")
		default:
			b.WriteString("    called by:\n")
		}
		for _, c := range d.Callers {
			fmt.Fprintf(b, "      %s via %s\n", c.Label(), c.Path)
			if c.Async {
				b.WriteString("        in a goroutine it starts: it does not wait on the call\n")
			}
			if len(c.Held) == 0 {
				b.WriteString("        holding: nothing\n")
			}
			for _, h := range c.Held {
				fmt.Fprintf(b, "        holding: %s\n", h.describe())
			}
		}
		switch {
		case len(d.Callers) == 0 || d.Callers[0].Root:
		case len(d.Stalls) == 0:
			b.WriteString("    stalls when it slows: no other entry point (only its callers wait)\n")
		default:
			b.WriteString("    stalls when it slows:\n")
		}
		for _, s := range d.Stalls {
			fmt.Fprintf(b, "      %s: needs %s, which %s holds (%s) while it waits\n", s.Label(), s.Needs, s.HeldBy, s.HeldKind)
		}
	}
}

func (h Held) describe() string {
	s := h.Noun + " of " + h.Name
	if h.By != "" {
		s += " (" + h.By + ")"
	}
	return s
}

// writeDepsDOT draws each dependency, an edge from it to each entry point
// that waits on it, from that entry point to what it holds while it waits,
// and from what is held to the entry points that stall.
func (m *Map) writeDepsDOT(b *strings.Builder, drawn map[string]bool) {
	nodes := map[string]bool{}
	entry := func(e EntryRef) string {
		id := e.node()
		if !drawn[id] && !nodes[id] {
			nodes[id] = true
			fmt.Fprintf(b, "  %s [shape=box, style=rounded, label=%s];\n", strconv.Quote(id), strconv.Quote(e.Label()))
		}
		return strconv.Quote(id)
	}
	held := func(h Held) string {
		id := "held: " + h.Name
		if !drawn["res: "+h.Name] && !nodes[id] {
			nodes[id] = true
			shape := "cylinder"
			if h.Noun == "executor slot" {
				shape = "box3d"
			}
			fmt.Fprintf(b, "  %s [shape=%s, label=%s, color=orange];\n", strconv.Quote(id), shape, strconv.Quote(h.Name))
		}
		if drawn["res: "+h.Name] {
			id = "res: " + h.Name
		}
		return strconv.Quote(id)
	}
	edges := map[string]bool{}
	edge := func(s string) {
		if !edges[s] {
			edges[s] = true
			b.WriteString(s)
		}
	}
	for _, d := range m.Dependencies {
		dep := strconv.Quote("dep: " + d.Name)
		fmt.Fprintf(b, "  %s [shape=hexagon, label=\"%s\"];\n", dep, escapeDOT(d.Name+"\\n"+d.Noun))
		heldBy := map[string]string{}
		for _, c := range d.Callers {
			e := entry(c.EntryRef)
			edge(fmt.Sprintf("  %s -> %s [color=blue, label=\"waits\"];\n", dep, e))
			for _, h := range c.Held {
				heldBy[h.Name] = held(h)
				edge(fmt.Sprintf("  %s -> %s [color=orange, style=bold, label=%s];\n", e, heldBy[h.Name], strconv.Quote("holds "+h.Noun)))
			}
		}
		for _, s := range d.Stalls {
			if from, ok := heldBy[s.Needs]; ok {
				edge(fmt.Sprintf("  %s -> %s [color=orange, style=dashed, label=\"stalls\"];\n", from, entry(s.EntryRef)))
			}
		}
	}
}
