package sharedpool

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/guard"
	"github.com/bhlint/bhlint/internal/lanes"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// createsPool marks a function that opens a pool and stores it in a
// package-level variable or a struct field, itself or through the
// functions it calls (models.Setup doing db, err = gorm.Open(…)): a call of
// it in the package that wires the program is where that pool is created.
// A variable is one pool whoever calls the function; a field is filled anew
// by each call, so a package that calls the creator of a field more than
// once has made several pools and no call of them is reported as the one.
type createsPool struct{ Pools []poolCreation }

// poolCreation is one pool a function creates: the variable's resource key
// and name, and the call that opens it (full file name and line).
type poolCreation struct {
	Key, Name string
	File      string
	Line      int
	Call      string // the opening call, as "gorm.Open"
	Global    bool   // a package-level variable, not a field
	Stmt      bool   // statements prepared on the pool, not the pool's own name
	// Inner are the calls that make the pool inside the opening call when
	// it is a function of the same package that returns what they open
	// (openDB returning gorm.Open's result): the lines a reader changes.
	Inner []openAt
	// Also are the other branches that open it (redis, err =
	// NewSentinel(…) in one, redis, err = New(…) in the other).
	Also []openAt
	// Hops counts the package boundaries the creators' facts carried the
	// creation across (0 in the package that opens it), and Wire is the
	// call that carried it across the last one: where the outermost
	// package that reaches the creator by static calls wires the pool.
	Hops int
	Wire openAt
}

// openAt is one call that opens a pool, by file, line and name.
type openAt struct {
	File string
	Line int
	Call string
}

func (*createsPool) AFact() {}

func (f *createsPool) String() string {
	var names []string
	for _, p := range f.Pools {
		names = append(names, p.Name)
	}
	return "creates(" + strings.Join(names, ", ") + ")"
}

// findCreators computes, for this package's functions, the package-level
// pools each one creates, and exports them for the exported ones.
func (c *checker) findCreators(funcs []*ssa.Function) {
	c.creators = map[*ssa.Function][]poolCreation{}
	visiting := map[*ssa.Function]bool{}
	for _, fn := range funcs {
		guard.At(fn.Pos(), func() { c.creationsOf(fn, visiting) })
	}
	for _, fn := range funcs {
		obj, ok := fn.Object().(*types.Func)
		if !ok || !obj.Exported() || fn.Parent() != nil || len(c.creators[fn]) == 0 || c.isTestFile(fn.Pos()) {
			continue
		}
		c.pass.ExportObjectFact(obj, &createsPool{Pools: c.creators[fn]})
	}
	c.anchorCreations()
}

// anchorCreations marks the lines of this package where a main package
// importing it may report a shared pool (createdElsewhere): the openings,
// and the calls that carry another package's creation in. An ignore
// written there is for that finding.
func (c *checker) anchorCreations() {
	done := map[openAt]bool{}
	for _, pools := range c.creators {
		for _, p := range pools {
			for _, at := range []openAt{p.openedAt(), p.wiredAt()} {
				if done[at] {
					continue
				}
				done[at] = true
				if pos := c.posOf(at.File, at.Line); pos.IsValid() && c.inPackage(pos) {
					guard.Anchor(c.pass, pos)
				}
			}
		}
	}
}

// creationsOf returns the pools fn creates: its own stores of a call's
// result into a package-level pool variable, those of the closures it
// makes (sync.Once.Do(func() { db = open() })), and those of the functions
// it calls, in this package or, by their facts, in others.
func (c *checker) creationsOf(fn *ssa.Function, visiting map[*ssa.Function]bool) []poolCreation {
	fn = origin(fn)
	if got, ok := c.creators[fn]; ok || visiting[fn] || !c.local[fn] {
		return got
	}
	visiting[fn] = true
	defer delete(visiting, fn)
	seen := map[string]poolCreation{}
	seenIn := map[string]*ssa.BasicBlock{}
	twice := map[string]bool{}
	var out []poolCreation
	var block *ssa.BasicBlock
	add := func(ps ...poolCreation) {
		for _, p := range ps {
			prev, ok := seen[p.Key]
			switch {
			case !ok:
				seen[p.Key], seenIn[p.Key] = p, block
				out = append(out, p)
			case p.File == prev.File && p.Line == prev.Line:
			case ssautil.Exclusive(seenIn[p.Key], block):
				// Branches that choose one opening (the configured
				// driver's): one pool, opened here or there.
				addAlso(out, p)
			default:
				twice[p.Key] = true
			}
		}
	}
	for _, b := range fn.Blocks {
		block = b
		for _, instr := range b.Instrs {
			switch instr := instr.(type) {
			case *ssa.Store:
				if p, ok := c.storedCreation(instr); ok {
					add(p)
				}
			case *ssa.MakeClosure:
				if anon, ok := instr.Fn.(*ssa.Function); ok {
					add(c.creationsOf(anon, visiting)...)
				}
			case ssa.CallInstruction:
				callee := instr.Common().StaticCallee()
				if callee == nil {
					continue
				}
				add(c.handedCreations(fn, instr.Common(), visiting)...)
				if c.local[origin(callee)] {
					add(c.creationsOf(callee, visiting)...)
				} else if obj, ok := origin(callee).Object().(*types.Func); ok && obj.Pkg() != c.pass.Pkg {
					var fact createsPool
					if c.pass.ImportObjectFact(obj, &fact) {
						add(c.carriedBy(instr, fact.Pools)...)
					}
				}
			}
		}
	}
	// A field this function fills from two openings one after the other
	// (NewStore(a) for the handlers, NewStore(b) for the jobs) holds two
	// pools: neither opening is the one that creates it.
	out = slices.DeleteFunc(out, func(p poolCreation) bool { return twice[p.Key] && !p.Global })
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	c.linkOpenings(out)
	c.creators[fn] = out
	return out
}

// addAlso records p's opening as another branch of the creation in out
// with p's key.
func addAlso(out []poolCreation, p poolCreation) {
	for i := range out {
		if out[i].Key == p.Key && len(out[i].Also) < maxInnerOpens {
			out[i].Also = append(append(out[i].Also, p.openedAt()), p.Also...)
		}
	}
}

// carriedBy is another package's creations, carried across its boundary
// by a call of this package.
func (c *checker) carriedBy(call ssa.CallInstruction, pools []poolCreation) []poolCreation {
	pos := c.callStart(call.Pos())
	if !pos.IsValid() {
		return pools
	}
	at := c.pass.Fset.Position(pos)
	out := make([]poolCreation, len(pools))
	for i, p := range pools {
		p.Hops++
		p.Wire = openAt{File: at.Filename, Line: at.Line, Call: callName(call.Common())}
		out[i] = p
	}
	return out
}

// storedCreation recognises db, err = gorm.Open(…) and &Database{engine:
// e} after e, err = xorm.NewEngine(…): a store into a pool variable or field
// with no lane of the result of a call of a
// function (not a method: db.Unsafe(), a getter), as creationOf does.
func (c *checker) storedCreation(st *ssa.Store) (poolCreation, bool) {
	switch st.Addr.(type) {
	case *ssa.Global, *ssa.FieldAddr:
	default:
		return poolCreation{}, false
	}
	r, ok := c.loadedResource(st.Addr)
	if !ok || r.Lane != "" {
		return poolCreation{}, false
	}
	// The opening calls the stored value comes from, through a local
	// variable and the branches that choose between them (dbHandle =
	// stdlib.OpenDB(…) in one, dbHandle, err = sql.Open(…) in the other):
	// the first in the source is the creation, the others Also.
	var first *ssa.Call
	var also []openAt
	for _, call := range c.openingCalls(st.Val, true) {
		pos := c.callStart(call.Pos())
		if !pos.IsValid() || c.isTestFile(pos) {
			continue
		}
		if first == nil {
			first = call
			continue
		}
		if len(also) < maxInnerOpens {
			p := c.pass.Fset.Position(pos)
			also = append(also, openAt{File: p.Filename, Line: p.Line, Call: callName(call.Common())})
		}
	}
	if first == nil {
		return poolCreation{}, false
	}
	p := c.pass.Fset.Position(c.callStart(first.Pos()))
	return poolCreation{Key: r.Key, Name: r.Name, File: p.Filename, Line: p.Line, Call: callName(first.Common()),
		Global: r.Global || heldByGlobal(st.Addr),
		Inner:  c.returnedOpens(first.Common().StaticCallee()), Also: also}, true
}

// heldByGlobal reports whether addr is the field of a value the function
// then keeps in a package-level variable (provider = &PGSQLProvider{dbHandle:
// db}): its pool is one, whoever calls, like a package-level pool.
func heldByGlobal(addr ssa.Value) bool {
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok {
		return false
	}
	alloc, ok := fa.X.(*ssa.Alloc)
	if !ok || !alloc.Heap {
		return false
	}
	var held func(v ssa.Value, depth int) bool
	held = func(v ssa.Value, depth int) bool {
		if depth == 0 {
			return false
		}
		for _, ref := range *v.Referrers() {
			switch r := ref.(type) {
			case *ssa.Store:
				if _, ok := r.Addr.(*ssa.Global); ok && r.Val == v {
					return true
				}
			case *ssa.MakeInterface:
				if held(r, depth-1) {
					return true
				}
			case *ssa.ChangeType:
				if held(r, depth-1) {
					return true
				}
			}
		}
		return false
	}
	return held(alloc, 3)
}

// maxInnerOpens caps the inner opening calls a finding points at.
const maxInnerOpens = 4

// returnedOpens are the calls of functions whose results fn, a function of
// this package, returns as its first result (db, err := gorm.Open(…);
// return db, err), through the branches that choose between them.
func (c *checker) returnedOpens(fn *ssa.Function) []openAt {
	if fn == nil || !c.local[origin(fn)] {
		return nil
	}
	var out []openAt
	seen := map[ssa.Value]bool{}
	var walk func(v ssa.Value)
	walk = func(v ssa.Value) {
		if v == nil || seen[v] || len(out) == maxInnerOpens {
			return
		}
		seen[v] = true
		switch x := v.(type) {
		case *ssa.Extract:
			walk(x.Tuple)
		case *ssa.ChangeType:
			walk(x.X)
		case *ssa.Phi:
			for _, e := range x.Edges {
				walk(e)
			}
		case *ssa.Call:
			if common := x.Common(); !common.IsInvoke() && common.Signature().Recv() == nil {
				if pos := c.callStart(x.Pos()); pos.IsValid() {
					p := c.pass.Fset.Position(pos)
					out = append(out, openAt{File: p.Filename, Line: p.Line, Call: callName(common)})
				}
			}
		}
	}
	for _, b := range fn.Blocks {
		if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && len(ret.Results) > 0 {
			walk(ret.Results[0])
		}
	}
	return out
}

// creatorCalls finds the first call of this package (outside tests) of a
// function that creates the pool of the given key: the line of the wiring
// that opens it (models.Setup() in main), and what it creates.
// It also returns how many calls of other packages' creators of the pool
// this package makes.
func (c *checker) creatorCalls(key string) (token.Pos, poolCreation, int) {
	best, found, bestRank := token.NoPos, poolCreation{}, 2
	calls := map[token.Pos]bool{}
	for fn := range c.local {
		if c.isTestFile(fn.Pos()) {
			continue
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				callee := call.Common().StaticCallee()
				if callee == nil {
					continue
				}
				// A call of another package's creator is the line of the
				// wiring; a local helper on the way to it comes second.
				var pools []poolCreation
				rank := 1
				if c.local[origin(callee)] {
					pools = c.creators[origin(callee)]
				} else if obj, ok := origin(callee).Object().(*types.Func); ok && obj.Pkg() != c.pass.Pkg {
					var fact createsPool
					if c.pass.ImportObjectFact(obj, &fact) {
						pools, rank = fact.Pools, 0
					}
				}
				for _, p := range pools {
					pos := c.callStart(call.Pos())
					if p.Key != key || !pos.IsValid() {
						continue
					}
					if rank == 0 {
						calls[pos] = true
					}
					if rank < bestRank || rank == bestRank && pos < best {
						best, found, bestRank = pos, p, rank
					}
				}
			}
		}
	}
	if len(calls) > 1 && !found.Global {
		// A field filled by a constructor this package calls twice holds
		// two pools: neither call is the one that creates the shared pool.
		return token.NoPos, poolCreation{}, len(calls)
	}
	return best, found, len(calls)
}

// inPackage reports whether pos is in one of this package's files.
func (c *checker) inPackage(pos token.Pos) bool {
	return ssautil.FileAt(c.pass.Files, pos) != nil
}

// createdElsewhere is where a main package reports a pool that no call of
// its own leads to by static calls (main runs a command tree, and the
// commands are closures in cobra.Command fields): a package-level pool, or
// the field of a value kept in one, where it is opened, whoever calls; any
// other field where the outermost package the creators' facts reach fills
// it, when it does so at one call only. Two such calls fill two pools, and
// neither is the shared one; when main itself wires it more than once
// (wiredHere calls) or the outermost calls are several, the one call that
// opens the pool for all of them, if there is one, is where it is created.
func (c *checker) createdElsewhere(key string, wiredHere int) (token.Pos, poolCreation) {
	var global, outer, all []poolCreation
	for _, d := range c.deps {
		for _, cr := range d.Created {
			if cr.Key != key {
				continue
			}
			p := poolCreation{Key: cr.Key, File: cr.File, Line: cr.Line, Call: cr.Call, Global: cr.Global,
				Hops: cr.Hops, Wire: openAt{File: cr.WireFile, Line: cr.WireLine, Call: cr.WireCall}}
			all = append(all, p)
			switch {
			case p.Global:
				global = append(global, p)
			case len(outer) == 0 || p.Hops > outer[0].Hops:
				outer = []poolCreation{p}
			case p.Hops == outer[0].Hops:
				outer = append(outer, p)
			}
		}
	}
	if len(global) > 0 {
		first := slices.MinFunc(global, func(a, b poolCreation) int { return compareAt(a.openedAt(), b.openedAt()) })
		return c.posOf(first.File, first.Line), first
	}
	places := map[openAt]bool{}
	for _, p := range outer {
		places[p.wiredAt()] = true
	}
	if len(places) != 1 || wiredHere > 1 {
		// Wired in several places (a serve command's pre-run and a
		// migrate command each call NewDB), but opened by one call: that
		// call, where the pool's limits are set, is the line to change.
		if p, ok := oneOpening(all); ok {
			return c.posOf(p.File, p.Line), p
		}
		// None wired by a static call, each opened by one of the
		// configuration's choices (dex's StorageConfig.Open, from a map of
		// flavours): one process runs one, and that one is shared.
		if wiredHere == 0 && len(outer) > 1 && !slices.ContainsFunc(outer, func(p poolCreation) bool { return p.Hops > 0 }) {
			first := slices.MinFunc(outer, func(a, b poolCreation) int { return compareAt(a.openedAt(), b.openedAt()) })
			for _, p := range outer {
				if p.openedAt() != first.openedAt() {
					first.Also = append(first.Also, p.openedAt())
				}
			}
			return c.posOf(first.File, first.Line), first
		}
		return token.NoPos, poolCreation{}
	}
	at := outer[0].wiredAt()
	return c.posOf(at.File, at.Line), outer[0]
}

// created is what the summary carries of the pools this package and those
// before it create (createdElsewhere), each once.
func (c *checker) created() []lanes.Created {
	var out []lanes.Created
	seen := map[lanes.Created]bool{}
	add := func(cr lanes.Created) {
		if !seen[cr] {
			seen[cr] = true
			out = append(out, cr)
		}
	}
	for _, d := range c.deps {
		for _, cr := range d.Created {
			add(cr)
		}
	}
	var fns []*ssa.Function
	for fn := range c.creators {
		fns = append(fns, fn)
	}
	sort.Slice(fns, func(i, j int) bool { return fns[i].Pos() < fns[j].Pos() })
	for _, fn := range fns {
		for _, p := range c.creators[fn] {
			add(lanes.Created{Key: p.Key, Call: p.Call, File: p.File, Line: p.Line, Global: p.Global,
				Hops: p.Hops, WireFile: p.Wire.File, WireCall: p.Wire.Call, WireLine: p.Wire.Line})
		}
	}
	return out
}

// openedAt is the call that opens the pool; wiredAt the call that wires it,
// the same in the package that opens it.
func (p poolCreation) openedAt() openAt { return openAt{File: p.File, Line: p.Line, Call: p.Call} }

func (p poolCreation) wiredAt() openAt {
	if p.Hops == 0 {
		return p.openedAt()
	}
	return p.Wire
}

func compareAt(a, b openAt) int {
	if a.File != b.File {
		return strings.Compare(a.File, b.File)
	}
	return a.Line - b.Line
}

// fieldCallees resolves calls through the package's own func-typed fields
// (j.Run(c), with Run: func(c) error { … } in a package-level
// &CronJob{…}) to the functions stored there, outside tests, initialisers'
// closures included.
func (c *checker) fieldCallees() *ssautil.FieldCallees {
	if c.fields == nil {
		scan := []*ssa.Function{}
		for fn := range c.local {
			scan = append(scan, fn)
		}
		if c.initFn != nil {
			scan = append(scan, c.initFn)
		}
		sort.Slice(scan, func(i, j int) bool { return scan[i].Pos() < scan[j].Pos() })
		scan = slices.DeleteFunc(scan, func(fn *ssa.Function) bool { return c.isTestFile(fn.Pos()) })
		c.fields = ssautil.NewFieldCallees(c.pass.Pkg, scan)
	}
	return c.fields
}

// initClosures are the closures the package initialiser makes, at any
// depth: the func literals of package-level variables' initialisers.
func initClosures(init *ssa.Function) []*ssa.Function {
	if init == nil {
		return nil
	}
	var out []*ssa.Function
	var visit func(fn *ssa.Function)
	visit = func(fn *ssa.Function) {
		for _, anon := range fn.AnonFuncs {
			out = append(out, anon)
			visit(anon)
		}
	}
	visit(init)
	return out
}

// linkOpenings links the variables and fields one opening fills (redis
// handed to the token store, the blob store and the actives counter): one
// pool under several names, so that handlers reaching one and background
// work reaching another share it. The created are sorted by key: each
// name is linked from the first, whichever package links them; a pool's
// own names come before the statements prepared on it, so that the pool
// names the finding.
func (c *checker) linkOpenings(created []poolCreation) {
	created = slices.Clone(created)
	slices.SortStableFunc(created, func(a, b poolCreation) int {
		switch {
		case a.Stmt == b.Stmt:
			return 0
		case b.Stmt:
			return -1
		}
		return 1
	})
	first := map[string]string{}
	for _, p := range created {
		if p.File == "" {
			continue
		}
		at := fmt.Sprint(p.File, ":", p.Line)
		from, ok := first[at]
		if !ok {
			first[at] = p.Key
			continue
		}
		if l := (lanes.Link{From: from, To: p.Key}); !slices.Contains(c.links, l) {
			c.links = append(c.links, l)
		}
	}
}

// oneOpening is the creation whose opening call every one of creations
// shares, if they share one.
func oneOpening(creations []poolCreation) (poolCreation, bool) {
	if len(creations) == 0 {
		return poolCreation{}, false
	}
	for _, p := range creations[1:] {
		if p.openedAt() != creations[0].openedAt() {
			return poolCreation{}, false
		}
	}
	return creations[0], true
}
