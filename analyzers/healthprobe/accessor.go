package healthprobe

import (
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/netio"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// A pool is anything wrapping a pool type: a function that returns the
// module's interface, and boxes a pool into it (return x, x a *xorm.Engine;
// return x.Context(ctx), a session of it), is a pool accessor. A call
// through that interface on its result (db.GetEngine(ctx).Ping()) reaches
// the pool, whatever else the function may return on other paths (a
// transaction from the context holds a connection of the same pool).

// returnsPool marks a pool accessor: the pool, as the accessor names it,
// and the methods of its result's interface that answer from the process
// on that pool (ProbeInProcessMethods).
type returnsPool struct {
	Noun, Resource string
	InProcess      []string
}

func (*returnsPool) AFact() {}
func (f *returnsPool) String() string {
	return "returnsPool(" + f.Noun + " " + f.Resource + ")"
}

// accessorUse: a call through an interface on the result of a pool
// accessor reaches the accessor's pool.
func (c *checker) accessorUse(fn *ssa.Function, common *ssa.CallCommon) *use {
	v := common.Value
	for {
		ci, ok := v.(*ssa.ChangeInterface)
		if !ok {
			break
		}
		v = ci.X
	}
	call, ok := v.(*ssa.Call)
	if !ok {
		return nil
	}
	callee := call.Common().StaticCallee()
	if callee == nil {
		return nil
	}
	r := c.accessorOf(callee)
	if r == nil || slices.Contains(r.InProcess, common.Method.Name()) {
		return nil
	}
	hop := funcName(callee)
	return &use{reachesShared: reachesShared{Noun: r.Noun, Resource: r.Resource, Call: netio.Name(common.Method),
		Path: []string{hop}, Param: -1}, at: common.Pos()}
}

// accessorOf is the pool a function returns boxed in an interface: this
// package's by its body, another's by its fact.
func (c *checker) accessorOf(fn *ssa.Function) *returnsPool {
	fn = ssautil.Origin(fn)
	if !c.local[fn] {
		obj, ok := fn.Object().(*types.Func)
		var f returnsPool
		if ok && obj.Pkg() != nil && obj.Pkg() != c.pass.Pkg && c.pass.ImportObjectFact(obj.Origin(), &f) {
			return &f
		}
		return nil
	}
	if r, done := c.accessors[fn]; done {
		return r
	}
	c.accessors[fn] = nil // a recursive accessor returns through itself
	r := c.computeAccessor(fn)
	c.accessors[fn] = r
	return r
}

// computeAccessor looks at fn's returned interfaces for a boxed pool, a
// view of one (a method called on it), or another accessor's result; and
// at its returned pools (or values wrapping one) for one kept in a
// variable or field.
func (c *checker) computeAccessor(fn *ssa.Function) *returnsPool {
	results := fn.Signature.Results()
	for i := 0; i < results.Len(); i++ {
		t := results.At(i).Type()
		iface, ok := t.Underlying().(*types.Interface)
		moduleIface := ok && iface.NumMethods() > 0 && !isLibraryPath(namedPkg(t))
		noun := wrappedPoolNoun(t)
		if !moduleIface && noun == "" {
			continue
		}
		for _, b := range fn.Blocks {
			ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
			if !ok || i >= len(ret.Results) {
				continue
			}
			var r *returnsPool
			if moduleIface {
				r = c.boxedPool(fn, ret.Results[i], iface, 4)
			}
			if r == nil && noun != "" {
				r = c.storedPool(fn, ret.Results[i], noun)
			}
			if r != nil {
				return r
			}
		}
	}
	return nil
}

// wrappedPoolNoun: t is a pool or client type of the catalogue, or a
// struct embedding one (chirpstack's storage.DBLogger embeds *sqlx.DB).
func wrappedPoolNoun(t types.Type) string {
	noun, _ := ssautil.EmbeddedFind(t, 3, func(t types.Type) (string, bool) {
		noun := catalog.ResourceNoun(t)
		return noun, noun != ""
	})
	return noun
}

// storedPool: a function that returns the pool a package variable or a
// field holds (func DB() *DBLogger { return db }) hands out that pool;
// it opens none. Only a pool read from a variable counts: one returned by
// a call (sql.Open, redis.NewClient) is new.
func (c *checker) storedPool(fn *ssa.Function, v ssa.Value, noun string) *returnsPool {
	name, param, own := c.resourceOf(fn, v, noun)
	if own || param >= 0 || name == "" || strings.HasPrefix(name, "a ") || strings.HasPrefix(name, "the ") {
		return nil
	}
	return &returnsPool{Noun: noun, Resource: name}
}

func namedPkg(t types.Type) *types.Package {
	if named, ok := types.Unalias(t).(*types.Named); ok {
		return named.Obj().Pkg()
	}
	return nil
}

func (c *checker) boxedPool(fn *ssa.Function, v ssa.Value, iface *types.Interface, depth int) *returnsPool {
	if depth == 0 {
		return nil
	}
	switch x := v.(type) {
	case *ssa.Phi:
		for _, e := range x.Edges {
			if r := c.boxedPool(fn, e, iface, depth-1); r != nil {
				return r
			}
		}
	case *ssa.ChangeInterface:
		return c.boxedPool(fn, x.X, iface, depth-1)
	case *ssa.Call:
		if callee := x.Common().StaticCallee(); callee != nil {
			return c.accessorOf(callee)
		}
	case *ssa.MakeInterface:
		pool := x.X
		if call, ok := pool.(*ssa.Call); ok {
			if recv, _ := resourceValue(ssautil.Receiver(call.Common())); recv != nil {
				pool = recv // a view of the pool: x.Context(ctx), db.WithContext(ctx)
			}
		}
		noun := catalog.ResourceNoun(pool.Type())
		if noun == "" {
			return nil
		}
		name, param, own := c.resourceOf(fn, pool, noun)
		if own || param >= 0 || name == "" || strings.HasPrefix(name, "a ") {
			return nil // the probe's own pool, or one a caller passed in
		}
		return &returnsPool{Noun: noun, Resource: name, InProcess: inProcessMethods(x.X.Type(), iface)}
	}
	return nil
}

// inProcessMethods are the methods of iface that t answers from the process.
func inProcessMethods(t types.Type, iface *types.Interface) []string {
	var out []string
	for m := range iface.Methods() {
		obj, _, _ := types.LookupFieldOrMethod(t, true, m.Pkg(), m.Name())
		if impl, ok := obj.(*types.Func); ok && catalog.ProbeInProcessMethods.Has(impl) {
			out = append(out, m.Name())
		}
	}
	return out
}

// exportAccessors exports returnsPool for the package's pool accessors.
func (c *checker) exportAccessors() {
	for _, fn := range c.funcs {
		obj, ok := fn.Object().(*types.Func)
		if !ok || fn.Parent() != nil {
			continue
		}
		if r := c.accessorOf(fn); r != nil {
			c.pass.ExportObjectFact(obj, r)
		}
	}
}
