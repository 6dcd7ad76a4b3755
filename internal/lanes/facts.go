// Package lanes holds what bhlint knows about lanes across packages: the
// facts the sharedpool analyzer exports (which resources a function reaches,
// which lane owns a resource, a package's lane entry points) and the lane
// map built from them, rendered as text, JSON or Graphviz DOT.
package lanes

import (
	"fmt"
	"slices"
	"strings"
)

// Resource is a shared, fixed-size resource: a database pool or an outbound
// client, held in a package-level variable or a struct field, or a
// lane-typed runtime pool.
type Resource struct {
	Key    string // identity: "pkgpath.Var", "pkgpath.Type.Field" or a type
	Name   string // as users read it: "ledger.CardDB"
	Noun   string // "database pool", "HTTP client"…
	Lane   string // the lane that owns it, "" if none
	Pkg    string // import path of the declaring package, "" if none
	Obj    string // objectpath of the variable or field in Pkg, "" if none
	Pos    string // "file:line" of the declaration, "" if unknown
	Global bool   // a package-level variable: every caller shares the same one
	Type   string // the Go type (types.TypeString), to find where such a pool is created
}

// Hop is one function on a call path, with what is needed to find it again
// in another package.
type Hop struct {
	Name string // "ledger.MerchantOf", "(*ledger.Store).Card"
	Pkg  string
	Obj  string // objectpath, "" if none
	// File and Line of the declaration (full file name), for a package
	// that cannot find the function by Obj (its package is not visible).
	File string
	Line int
}

// Use is a resource a function reaches, and by what calls: Path runs from
// the first callee to the function that touches the resource.
type Use struct {
	Resource Resource
	Path     []Hop
	// File and Line, on an entry point's uses only: where the entry's own
	// body makes the call (or the load) that leads to the resource, the
	// line a reader changes to move the work to another pool. Entries
	// travel in a Summary (gob); the compact encoding of Reaches and
	// implementations (wire.go) leaves these out, as they are never set there.
	File string `json:",omitempty"`
	Line int    `json:",omitempty"`
}

// PathString renders entry → hops → resource.
func (u Use) PathString(entry string) string {
	parts := []string{entry}
	for _, h := range u.Path {
		parts = append(parts, h.Name)
	}
	return strings.Join(append(parts, u.Resource.Name), " → ")
}

// Reaches is the fact on a function: the resources it reaches through static
// calls, in its package and others. Dispatch holds the calls through an
// interface on the way, not resolved yet: Resource names the interface
// method (Key "dispatch:" + its full name); the package that sees the
// implementations resolves them.
type Reaches struct {
	Uses     []Use
	Dispatch []Use
}

// DispatchPrefix starts the Key of a Use that stands for a call through an
// interface method.
const DispatchPrefix = "dispatch:"

// IsDispatch reports whether a Use stands for an unresolved interface call.
func (u Use) IsDispatch() bool { return strings.HasPrefix(u.Resource.Key, DispatchPrefix) }

// AFact marks Reaches as an analysis fact.
func (*Reaches) AFact() {}

func (f *Reaches) String() string {
	var names []string
	for _, u := range f.Uses {
		lane := u.Resource.Lane
		if lane == "" {
			lane = "no lane"
		}
		names = append(names, u.Resource.Name+"("+lane+")")
	}
	for _, u := range f.Dispatch {
		names = append(names, "via "+u.Resource.Name)
	}
	slices.Sort(names)
	return "reaches(" + strings.Join(names, ", ") + ")"
}

// Owned is the fact on a package-level variable or struct field that a
// //bhlint:lane directive assigns to a lane.
type Owned struct{ Lane string }

// AFact marks Owned as an analysis fact.
func (*Owned) AFact() {}

func (f *Owned) String() string { return "lane(" + f.Lane + ")" }

// Entry is an entry point of a lane: a function with a //bhlint:lane
// directive, or a function handed to a lane's executor. When a package
// declares no lanes, sharedpool infers workload classes: Inferred is set,
// Lane is the class ("interactive" or "background") and How says what made
// the function an entry point.
type Entry struct {
	Lane     string
	Name     string
	Pos      string
	Uses     []Use
	Dispatch []Use // interface calls on the way, resolved where implementations are visible

	Inferred bool
	How      string // "chi handler registered with Router.Get", "ticker loop started by go Runner.Run()"
	File     string // full file name and line of Pos, to point at it from another package
	Line     int
	Func     Hop // the function that runs
}

// Wrap records a resource built on another: a lane-typed pool wrapping a
// *sql.DB, a laned client with a shared transport.
type Wrap struct {
	Inner Resource
	Lane  string
	Outer string // what wraps it: "payments.TaxDB", "lanedb.NewDB"
	Pos   string
}

// Impl is a concrete method that implements an interface method.
type Impl struct {
	Method   string // the interface method's dispatch key (DispatchPrefix + full name)
	Impl     Hop
	Uses     []Use // the pools it reaches
	Dispatch []Use
	// StandIn: a no-op kept beside the interface, or a double in test
	// support. That it reaches no pool proves nothing of the backends.
	StandIn bool
}

// Carried is an inferred entry of another package, carried forward.
type Carried struct {
	Pkg   string
	Entry Entry
}

// Link says that the pool in From is stored into To: one pool, two names.
// FromType is From's Go type, where known: a pool no entry reaches but
// through its statements, or through a library's fields it was handed
// into, is reported where such a pool is created.
type Link struct{ From, To, FromType string }

// Summary is the package fact: the lane entry points and wraps of one
// package, and which packages' summaries were visible when it was made.
type Summary struct {
	Pkg     string
	Entries []Entry
	Wraps   []Wrap
	Seen    []string // packages with a summary visible here, this one included
	// Links are pools copied from one variable or field into another
	// (feedQueryBuilder{db: s.db}): the same pool under two names.
	Links []Link
	// Declared says whether a declared lane (an entry point or a wrap) is
	// visible here or was in a package before: declared lanes win over
	// inferred classes.
	Declared bool
	// Carried are the inferred entries of the packages before this one, one
	// per class and pool (or interface call), each with that one use: a
	// package that imports this one may not see their summaries (a driver
	// only reads the facts of packages its export data mentions).
	Carried []Carried
	// Impls are the implementations of interface methods this package and
	// those before it declare, with what each reaches: where a call through
	// the interface is resolved, the implementing package may not be
	// visible. The methods of Dead are left out.
	Impls ImplList
	// Dead are the interface methods known here, or in a package before,
	// to have an implementation that reaches no pool: their calls resolve
	// to nothing.
	Dead DeadSet
	// Pending are inferred conflicts this package saw whole but left to a
	// package that imports it (one that creates the pool, or main): the
	// summaries they come from may not be visible there.
	Pending []Conflict
	// Reported are the keys of the resources whose inferred sharing this
	// package or one before it reported (inferred conflicts can only be
	// seen whole where the interfaces on the way resolve).
	Reported []string
	// Created are the pools this package and those before it create, for
	// main to report a shared one where it is created: the driver shows
	// main the facts of the creating package's functions only when its
	// export data mentions them.
	Created []Created
}

// Created is one pool a function creates (sharedpool's creators): the call
// that opens it, and the call that carried it across the last package
// boundary on the creators' static calls (Hops of them), where the
// outermost package that reaches it wires the pool.
type Created struct {
	Key, Call          string
	File               string
	Line               int
	Global             bool // one pool whoever calls: a package-level variable, or a field of a value kept in one
	Hops               int
	WireFile, WireCall string
	WireLine           int
}

// AFact marks Summary as an analysis fact.
func (*Summary) AFact() {}

func (s *Summary) String() string {
	var parts []string
	for _, e := range s.Entries {
		parts = append(parts, fmt.Sprintf("%s@%s", e.Name, e.Lane))
	}
	for _, w := range s.Wraps {
		parts = append(parts, fmt.Sprintf("%s⊂%s@%s", w.Inner.Name, w.Outer, w.Lane))
	}
	return "lanes(" + strings.Join(parts, ", ") + ")"
}
