package reach

import (
	"fmt"
	"slices"
	"strings"
)

// Dep is an outbound dependency: what a call waits on.
type Dep struct {
	Key  string // identity: the client's variable or field, and the host when known
	Name string // as users read it: "taxclient.Client.http", "http.DefaultClient → api.tax.example"
	Noun string // "HTTP client", "gRPC client", "Redis client", "subprocess", "network"
	Host string
	Pos  string // declaration of the client's variable or field, "" if none
	Pkg  string
}

// Hold is what a frame holds at a call: a connection, transaction or open
// rows of a pool, or a slot of an executor.
type Hold struct {
	Key  string // the pool's or executor's identity
	Name string
	Noun string // "transaction", "connection", "open rows", "executor slot"
	By   string // what took it: "pgx.BeginFunc in (*store.Store).InTx"
	// Param, when ≥ 0, says the pool is the caller's argument Param (the
	// receiver counting as 0): the caller names it.
	Param int
}

// Call is an outbound call a function reaches: the dependency, the
// functions from the first callee to the one that makes the call, and what
// the frames on the way hold at it.
type Call struct {
	Dep Dep
	// Param, when ≥ 0, says the client is the function's argument Param:
	// its caller names the dependency.
	Param int
	Path  []string
	Held  []Hold
	// Async: a goroutine is started on the way, so the function does not
	// wait on the call.
	Async bool
}

func (c Call) key() string {
	var held []string
	for _, h := range c.Held {
		held = append(held, h.Key+"/"+h.Noun+"/"+fmt.Sprint(h.Param))
	}
	return fmt.Sprintf("%s|%d|%s|%v", c.Dep.Key, c.Param, strings.Join(held, ","), c.Async)
}

// Need is a pool or executor a function uses, and so waits for when it is
// exhausted.
type Need struct {
	Key  string
	Name string
}

// Outbound is the fact on a function: the outbound calls it reaches and
// the pools and executors it needs, through static calls.
type Outbound struct {
	Calls []Call
	Needs []Need
}

// AFact marks Outbound as an analysis fact.
func (*Outbound) AFact() {}

func (f *Outbound) String() string {
	var parts []string
	for _, c := range f.Calls {
		s := c.Dep.Name
		if c.Param >= 0 {
			s = fmt.Sprintf("param %d (%s)", c.Param, c.Dep.Noun)
		}
		for _, h := range c.Held {
			s += " holding " + h.Noun + " of " + h.Name
		}
		parts = append(parts, s)
	}
	slices.Sort(parts)
	parts = slices.Compact(parts)
	var needs []string
	for _, n := range f.Needs {
		needs = append(needs, n.Name)
	}
	slices.Sort(needs)
	return "outbound(" + strings.Join(parts, ", ") + "; needs " + strings.Join(needs, ", ") + ")"
}

// holdsDuring marks a function that runs its func parameter Param while it
// holds something: a user's transaction helper (InTx(ctx, fn)), a wrapper
// of an executor's Do.
type holdsDuring struct {
	Param int
	Hold  Hold
}

// AFact marks holdsDuring as an analysis fact.
func (*holdsDuring) AFact() {}

func (f *holdsDuring) String() string {
	return fmt.Sprintf("holdsDuring(%d: %s of %s)", f.Param, f.Hold.Noun, f.Hold.Name)
}

// releasesParam marks a function that releases (commits, closes) the held
// value passed as its parameter Params[i].
type releasesParam struct{ Params []int }

// AFact marks releasesParam as an analysis fact.
func (*releasesParam) AFact() {}

func (f *releasesParam) String() string { return fmt.Sprintf("releasesParam(%v)", f.Params) }

// Entry is an entry point and what it reaches.
type Entry struct {
	Name  string
	Lane  string // a declared lane, "" if inferred
	Class string // "interactive" or "background" when inferred
	How   string
	Pos   string
	Calls []Call
	Needs []Need
}

// Entries is the package fact: the entry points of one package.
type Entries struct {
	Pkg     string
	Entries []Entry
	Deps    []Dep // the dependencies its functions call, whoever calls them
	// Roots are the functions nothing in the package calls or registers
	// (exported API, handlers wired where bhlint cannot see), with what
	// they reach: listed for a dependency no entry point reaches.
	Roots []Entry
}

// AFact marks Entries as an analysis fact.
func (*Entries) AFact() {}

func (f *Entries) String() string {
	var parts []string
	for _, e := range f.Entries {
		who := e.Lane
		if who == "" {
			who = e.Class
		}
		parts = append(parts, e.Name+"@"+who)
	}
	return "entries(" + strings.Join(parts, ", ") + ")"
}
