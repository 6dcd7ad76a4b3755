package ssautil

import "golang.org/x/tools/go/ssa"

// Rounds computes a property of a package's functions to a fixed point, the
// way the passes learn which of their functions reach a pool or the network
// through calls of each other: in rounds over the functions in source
// order, until a round changes nothing. A round computes again only the
// functions that read something (a function's property, an interface
// method's) that changed since they were last computed; computing any other
// gives what it has. What a function's body reads does not change from
// round to round, so the first round records it, through Read.
//
// The order is the one a plain loop of full rounds would follow, so the
// result is the same, to the position and path a function keeps for each
// thing it reaches; only the computations that could change nothing are
// left out. (A package with a call chain declared callee-last took one full
// round per link.)
type Rounds struct {
	readers map[any][]*ssa.Function
	reading *ssa.Function
	stale   map[*ssa.Function]bool
	again   bool
}

// Read notes that the function being computed reads what is known of key
// (a function, an interface method). It does nothing outside the first
// round, or on a nil *Rounds.
func (r *Rounds) Read(key any) {
	if r == nil || r.reading == nil {
		return
	}
	// The reads of one computation come together: a repeat is the last one.
	if rs := r.readers[key]; len(rs) == 0 || rs[len(rs)-1] != r.reading {
		r.readers[key] = append(rs, r.reading)
	}
}

// Changed marks the functions that read key to be computed again.
func (r *Rounds) Changed(key any) {
	for _, fn := range r.readers[key] {
		r.stale[fn] = true
		r.again = true
	}
}

// Run calls compute for every function of funcs, then again, round after
// round, for those marked by Changed, until none is. endRound, if not nil,
// runs after each round, for what is computed from the functions' results
// (interface methods from their implementations); it may call Changed too.
func (r *Rounds) Run(funcs []*ssa.Function, compute func(*ssa.Function), endRound func()) {
	r.readers = map[any][]*ssa.Function{}
	r.stale = make(map[*ssa.Function]bool, len(funcs))
	for _, fn := range funcs {
		r.stale[fn] = true
	}
	for first := true; first || r.again; first = false {
		r.again = false
		for _, fn := range funcs {
			if !r.stale[fn] {
				continue
			}
			r.stale[fn] = false
			if first {
				r.reading = fn
			}
			compute(fn)
			r.reading = nil
		}
		if endRound != nil {
			endRound()
		}
	}
}
