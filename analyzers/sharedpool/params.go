package sharedpool

import (
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/guard"
	"github.com/bhlint/bhlint/internal/lanes"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// storesParam marks a function that stores a pool it is handed into
// package-level variables or struct fields, itself or through the
// functions it calls (data.NewBlobStore(…, redis, …) filling
// redis.BlobStore{Client: redis}): the pool is the caller's, and where the
// caller opened it is where the pool the fields hold is created. A pool is
// identified by where it is opened, not by the field that carries it.
type storesParam struct{ Params []storedParam }

// storedParam is one parameter (by index, the receiver first for a method)
// and the pools it is stored as: key, name and whether it is a variable.
type storedParam struct {
	Index int
	Pools []poolCreation
}

func (*storesParam) AFact() {}

func (f *storesParam) String() string {
	var parts []string
	for _, p := range f.Params {
		var names []string
		for _, pc := range p.Pools {
			names = append(names, pc.Name)
		}
		parts = append(parts, strings.Join(names, "+"))
	}
	return "storesParam(" + strings.Join(parts, ", ") + ")"
}

// maxParamStores caps the variables and fields one parameter is followed
// into.
const maxParamStores = 8

// findParamStores computes, for this package's functions, where each one
// stores the pools it is handed, and exports it for the exported ones.
func (c *checker) findParamStores(funcs []*ssa.Function) {
	c.paramStores = map[*ssa.Function]map[int][]poolCreation{}
	visiting := map[*ssa.Function]bool{}
	for _, fn := range funcs {
		guard.At(fn.Pos(), func() { c.paramStoresOf(fn, visiting) })
	}
	for _, fn := range funcs {
		obj, ok := fn.Object().(*types.Func)
		stores := c.paramStores[fn]
		if !ok || !obj.Exported() || fn.Parent() != nil || len(stores) == 0 || c.isTestFile(fn.Pos()) {
			continue
		}
		var fact storesParam
		for i := range fn.Params {
			if ps := stores[i]; len(ps) > 0 {
				fact.Params = append(fact.Params, storedParam{Index: i, Pools: ps})
			}
		}
		c.pass.ExportObjectFact(obj, &fact)
	}
}

// paramStoresOf returns, by parameter index, the pools fn stores its
// parameters as: its own stores of a parameter into a pool variable or
// field with no lane, and the parameters it passes on to functions that
// store theirs (in this package, or by their facts).
func (c *checker) paramStoresOf(fn *ssa.Function, visiting map[*ssa.Function]bool) map[int][]poolCreation {
	fn = origin(fn)
	if got, ok := c.paramStores[fn]; ok || visiting[fn] || !c.local[fn] || len(fn.Params) == 0 {
		return got
	}
	visiting[fn] = true
	defer delete(visiting, fn)
	out := map[int][]poolCreation{}
	add := func(v ssa.Value, ps ...poolCreation) {
		i := slices.Index(fn.Params, paramOf(v))
		if i < 0 {
			return
		}
		for _, p := range ps {
			if len(out[i]) < maxParamStores && !slices.ContainsFunc(out[i], func(q poolCreation) bool { return q.Key == p.Key }) {
				out[i] = append(out[i], p)
			}
		}
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch instr := instr.(type) {
			case *ssa.Store:
				switch instr.Addr.(type) {
				case *ssa.Global, *ssa.FieldAddr:
					if r, ok := c.loadedResource(instr.Addr); ok && r.Lane == "" {
						add(instr.Val, poolCreation{Key: r.Key, Name: r.Name, Global: r.Global})
					}
				}
			case ssa.CallInstruction:
				common := instr.Common()
				if param, stmts := c.stmtsPreparedOnParam(fn, common); param != nil {
					for _, r := range stmts {
						add(param, poolCreation{Key: r.Key, Name: r.Name, Stmt: true})
					}
				}
				for j, ps := range c.calleeParamStores(common.StaticCallee(), visiting) {
					if j < len(common.Args) {
						add(common.Args[j], ps...)
					}
				}
			}
		}
	}
	c.paramStores[fn] = out
	return out
}

// stmtsPreparedOnParam is, for a call that fills statements through a
// pointer it is handed beside one of fn's parameters, the one database
// pool among its arguments (inbox.New(…, db *sqlx.DB, …) calling
// ScanSQLFile("queries.sql", &q, db, efs)): that parameter and the
// statements, which are the pool the caller hands in, as a field stored
// from it would be.
func (c *checker) stmtsPreparedOnParam(fn *ssa.Function, common *ssa.CallCommon) (*ssa.Parameter, []lanes.Resource) {
	fills := c.filledStmts(common.Args)
	if len(fills) != 1 {
		return nil, nil
	}
	var pool *ssa.Parameter
	for _, arg := range common.Args {
		if arg == fills[0].arg || catalog.ResourceNoun(arg.Type()) != "database pool" {
			continue
		}
		p := paramOf(arg)
		if p == nil || pool != nil || !slices.Contains(fn.Params, p) {
			return nil, nil // not fn's, or two pools: which one prepares is not known
		}
		pool = p
	}
	if pool == nil {
		return nil, nil
	}
	return pool, fills[0].stmts
}

// calleeParamStores is what a static callee stores its parameters as: its
// own computation in this package, its fact in another.
func (c *checker) calleeParamStores(callee *ssa.Function, visiting map[*ssa.Function]bool) map[int][]poolCreation {
	if callee == nil {
		return nil
	}
	callee = origin(callee)
	if c.local[callee] {
		return c.paramStoresOf(callee, visiting)
	}
	obj, ok := callee.Object().(*types.Func)
	if !ok || obj.Pkg() == c.pass.Pkg {
		return nil
	}
	var fact storesParam
	if !c.pass.ImportObjectFact(obj, &fact) {
		return nil
	}
	out := map[int][]poolCreation{}
	for _, p := range fact.Params {
		out[p.Index] = p.Pools
	}
	return out
}

// paramOf is the parameter a value is, through conversions, or nil.
func paramOf(v ssa.Value) *ssa.Parameter {
	for range 4 {
		switch x := v.(type) {
		case *ssa.Parameter:
			return x
		case *ssa.ChangeType:
			v = x.X
		case *ssa.MakeInterface:
			v = x.X
		default:
			return nil
		}
	}
	return nil
}

// handedCreations are the pools fn creates by opening one and handing it to
// a function that stores its parameter (redis, err = dataRedis.New(url);
// data.NewBlobStore(…, redis, …)): a creation at the opening call, of each
// variable or field the callee stores it as.
func (c *checker) handedCreations(fn *ssa.Function, common *ssa.CallCommon, visiting map[*ssa.Function]bool) []poolCreation {
	var out []poolCreation
	for j, ps := range c.calleeParamStores(common.StaticCallee(), visiting) {
		if j >= len(common.Args) {
			continue
		}
		var opens []openAt
		var first *ssa.Call
		for _, call := range c.openingCalls(common.Args[j], false) {
			pos := c.callStart(call.Pos())
			if !pos.IsValid() || c.isTestFile(pos) || len(opens) == maxInnerOpens {
				continue
			}
			if first == nil {
				first = call
			}
			p := c.pass.Fset.Position(pos)
			opens = append(opens, openAt{File: p.Filename, Line: p.Line, Call: callName(call.Common())})
		}
		if first == nil {
			continue
		}
		for _, pc := range ps {
			pc.File, pc.Line, pc.Call = opens[0].File, opens[0].Line, opens[0].Call
			pc.Inner = c.returnedOpens(first.Common().StaticCallee())
			pc.Also = opens[1:]
			out = append(out, pc)
		}
	}
	return out
}

// openingCalls are the calls of functions (not methods, nor getters: a
// function returning a pool field of a parameter) whose result a
// value is, through the tuple, conversions, a local variable (each store
// into it: a closure captures it) and the branches that choose between such
// calls, in the order of the source. With once, a local variable written
// more than once (conn reopened on retry) is no call's result: which pool
// it holds depends on the run, and the one left behind is a pool too.
func (c *checker) openingCalls(v ssa.Value, once bool) []*ssa.Call {
	var out []*ssa.Call
	seen := map[ssa.Value]bool{}
	var walk func(v ssa.Value, depth int)
	walk = func(v ssa.Value, depth int) {
		if v == nil || seen[v] || depth == 0 {
			return
		}
		seen[v] = true
		switch x := v.(type) {
		case *ssa.Extract:
			walk(x.Tuple, depth-1)
		case *ssa.ChangeType:
			walk(x.X, depth-1)
		case *ssa.MakeInterface:
			walk(x.X, depth-1)
		case *ssa.UnOp:
			if alloc, ok := x.X.(*ssa.Alloc); ok && x.Op == token.MUL {
				stored := storedValues(alloc)
				if once && len(stored) > 1 {
					return
				}
				for _, stored := range stored {
					walk(stored, depth-1)
				}
			}
		case *ssa.Phi:
			for _, e := range x.Edges {
				walk(e, depth-1)
			}
		case *ssa.Call:
			if common := x.Common(); !common.IsInvoke() && common.Signature().Recv() == nil && !c.callsGetter(common) {
				out = append(out, x)
			}
		}
	}
	walk(v, 8)
	slices.SortFunc(out, func(a, b *ssa.Call) int { return int(a.Pos() - b.Pos()) })
	return out
}

// storedValues are the values stored into a local variable, in order.
func storedValues(alloc *ssa.Alloc) []ssa.Value {
	var out []ssa.Value
	for _, ref := range ssautil.Referrers(alloc) {
		if st, ok := ref.(*ssa.Store); ok && st.Addr == alloc {
			out = append(out, st.Val)
		}
	}
	return out
}
