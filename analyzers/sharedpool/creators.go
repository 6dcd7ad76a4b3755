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
	// Inner are the calls that make the pool inside the opening call when
	// it is a function of the same package that returns what they open
	// (openDB returning gorm.Open's result): the lines a reader changes.
	Inner []openAt
	// Also are the other branches that open it (redis, err =
	// NewSentinel(…) in one, redis, err = New(…) in the other).
	Also []openAt
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
	twice := map[string]bool{}
	var out []poolCreation
	add := func(ps ...poolCreation) {
		for _, p := range ps {
			prev, ok := seen[p.Key]
			if !ok {
				seen[p.Key] = p
				out = append(out, p)
			} else if p.File != prev.File || p.Line != prev.Line {
				twice[p.Key] = true
			}
		}
	}
	for _, b := range fn.Blocks {
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
						add(fact.Pools...)
					}
				}
			}
		}
	}
	// A field this function fills from two openings (NewStore(a) for the
	// handlers, NewStore(b) for the jobs) holds two pools: neither opening
	// is the one that creates it.
	out = slices.DeleteFunc(out, func(p poolCreation) bool { return twice[p.Key] && !p.Global })
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	c.linkOpenings(out)
	c.creators[fn] = out
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
	v := st.Val
	for {
		switch x := v.(type) {
		case *ssa.Extract:
			v = x.Tuple
			continue
		case *ssa.ChangeType:
			v = x.X
			continue
		case *ssa.UnOp:
			// A local variable that closures capture lives in memory:
			// dbConn, err := openDB(cfg) is stored, and loaded at the use.
			if stored := onlyStore(x); stored != nil {
				v = stored
				continue
			}
		}
		break
	}
	call, ok := v.(*ssa.Call)
	if !ok {
		return poolCreation{}, false
	}
	if common := call.Common(); common.IsInvoke() || common.Signature().Recv() != nil {
		return poolCreation{}, false
	}
	pos := c.callStart(call.Pos())
	if !pos.IsValid() || c.isTestFile(pos) {
		return poolCreation{}, false
	}
	p := c.pass.Fset.Position(pos)
	return poolCreation{Key: r.Key, Name: r.Name, File: p.Filename, Line: p.Line, Call: callName(call.Common()), Global: r.Global,
		Inner: c.returnedOpens(call.Common().StaticCallee())}, true
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

// onlyStore is the value a load reads when it loads a local variable (an
// Alloc) that one store writes, or nil.
func onlyStore(load *ssa.UnOp) ssa.Value {
	alloc, ok := load.X.(*ssa.Alloc)
	if !ok || load.Op != token.MUL {
		return nil
	}
	return ssautil.StoredOnce(alloc)
}

// creatorCall finds the first call of this package (outside tests) of a
// function that creates the pool of the given key: the line of the wiring
// that opens it (models.Setup() in main), and what it creates.
func (c *checker) creatorCall(key string) (token.Pos, poolCreation) {
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
		return token.NoPos, poolCreation{}
	}
	return best, found
}

// fieldFuncs returns the functions this package stores in a func-typed
// field of one of its own struct types (Run: func(c) error { … } in a
// package-level &CronJob{…}): a call through that field (j.Run(c)) runs one
// of them. Fields of other packages' types are not followed: who else
// stores into them is not known here.
func (c *checker) fieldFuncs(field *types.Var) []*ssa.Function {
	if c.storedFuncs == nil {
		c.storedFuncs = map[*types.Var][]*ssa.Function{}
		scan := []*ssa.Function{}
		for fn := range c.local {
			scan = append(scan, fn)
		}
		if c.initFn != nil {
			scan = append(scan, c.initFn)
		}
		sort.Slice(scan, func(i, j int) bool { return scan[i].Pos() < scan[j].Pos() })
		scan = slices.DeleteFunc(scan, func(fn *ssa.Function) bool { return c.isTestFile(fn.Pos()) })
		for fa, target := range ssautil.FuncsStoredInFields(scan) {
			ptr, ok := fa.X.Type().Underlying().(*types.Pointer)
			if !ok {
				continue
			}
			v := fieldOf(ptr.Elem(), fa.Field)
			if v == nil || v.Pkg() != c.pass.Pkg {
				continue
			}
			if !slices.Contains(c.storedFuncs[v], target) {
				c.storedFuncs[v] = append(c.storedFuncs[v], target)
			}
		}
	}
	return c.storedFuncs[field]
}

// calledField returns the func-typed field of this package's struct types a
// dynamic call loads its function from (j.Run(c)), or nil.
func (c *checker) calledField(common *ssa.CallCommon) *types.Var {
	if common.IsInvoke() || common.StaticCallee() != nil {
		return nil
	}
	var v *types.Var
	switch x := common.Value.(type) {
	case *ssa.UnOp:
		fa, ok := x.X.(*ssa.FieldAddr)
		if !ok || x.Op != token.MUL {
			return nil
		}
		if ptr, ok := fa.X.Type().Underlying().(*types.Pointer); ok {
			v = fieldOf(ptr.Elem(), fa.Field)
		}
	case *ssa.Field:
		v = fieldOf(x.X.Type(), x.Field)
	}
	if v == nil || v.Pkg() != c.pass.Pkg {
		return nil
	}
	if _, ok := v.Type().Underlying().(*types.Signature); !ok {
		return nil
	}
	return v
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
// name is linked from the first, whichever package links them.
func (c *checker) linkOpenings(created []poolCreation) {
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
