package sharedpool

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/guard"
	"github.com/bhlint/bhlint/internal/lanes"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// A pool is where it is opened, not every field that holds it. A store
// keeps each repository's handle in a field of its own, filled from a
// getter of the pool (&deviceRepo{db: db.GetDB()}, where GetDB returns
// p.dbx): the repositories' fields are one pool, the getter's, opened where
// p.dbx is. Keyed by their own fields they would be a pool each, none of
// them opened anywhere, and a finding would name a repository's field and
// sit at main's package clause instead of the line that opens the pool.

// poolGetter marks a method that returns a pool field of its receiver
// (func (p *Postgres) GetDB() *sqlx.DB { return p.dbx }), or a function
// that returns a pool field of one of its parameters.
type poolGetter struct{ Pool lanes.Resource }

func (*poolGetter) AFact()           {}
func (f *poolGetter) String() string { return "gets(" + f.Pool.Name + ")" }

// filledFrom marks a pool field that every store in its package fills from
// a getter of one other pool: the field is another name for that pool.
type filledFrom struct{ Pool lanes.Resource }

func (*filledFrom) AFact()           {}
func (f *filledFrom) String() string { return "aliases(" + f.Pool.Name + ")" }

// findAliases learns this package's pool getters and the pool fields it
// fills only from them, before any resource is looked up.
func (c *checker) findAliases(funcs []*ssa.Function) {
	c.getters = map[*types.Func]lanes.Resource{}
	c.aliases = map[*types.Var]lanes.Resource{}
	for _, fn := range funcs {
		guard.At(fn.Pos(), func() {
			obj, ok := fn.Object().(*types.Func)
			if !ok || c.isTestFile(fn.Pos()) {
				return
			}
			if r, ok := c.getterPool(fn); ok {
				c.getters[obj] = r
				c.pass.ExportObjectFact(obj, &poolGetter{Pool: r})
			}
		})
	}
	fills := map[*types.Var]lanes.Resource{}
	mixed := map[*types.Var]bool{}
	for _, fn := range funcs {
		if c.isTestFile(fn.Pos()) {
			continue
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok {
					continue
				}
				v := c.poolField(st.Addr)
				if v == nil {
					continue
				}
				r, ok := c.gotPool(st.Val)
				if prev, seen := fills[v]; !ok || seen && prev.Key != r.Key {
					mixed[v] = true
					continue
				}
				fills[v] = r
			}
		}
	}
	for v, r := range fills {
		if mixed[v] || v.Origin() == c.lookupVar(r) {
			continue
		}
		if _, owned := c.decl.owned[v]; owned {
			continue // a lane the user gave this field: its own resource
		}
		c.aliases[v] = r
		c.pass.ExportObjectFact(v, &filledFrom{Pool: r})
	}
}

// poolField is the field of this package that addr stores to, when its
// type is a pool's.
func (c *checker) poolField(addr ssa.Value) *types.Var {
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok {
		return nil
	}
	ptr, ok := fa.X.Type().Underlying().(*types.Pointer)
	if !ok {
		return nil
	}
	v := ssautil.StructField(ptr.Elem(), fa.Field)
	if v == nil || v.Pkg() != c.pass.Pkg {
		return nil
	}
	if _, ok := c.computeResource(v.Origin(), ptr.Elem()); !ok {
		return nil
	}
	return v.Origin()
}

// getterPool is the pool field fn returns on every path: a load of its
// receiver's field, or, for a function, of one parameter's (nightingale's
// models.DB(ctx) returning ctx.DB): what its argument holds, not a pool it
// opens.
func (c *checker) getterPool(fn *ssa.Function) (lanes.Resource, bool) {
	if len(fn.Params) == 0 || fn.Signature.Results().Len() == 0 {
		return lanes.Resource{}, false
	}
	holders := fn.Params
	if fn.Signature.Recv() != nil {
		holders = fn.Params[:1]
	}
	for _, holder := range holders {
		if r, ok := c.returnedField(fn, holder); ok {
			return r, true
		}
	}
	return lanes.Resource{}, false
}

// returnedField is the pool field of holder that fn returns on every path.
func (c *checker) returnedField(fn *ssa.Function, holder *ssa.Parameter) (lanes.Resource, bool) {
	var pool lanes.Resource
	found := false
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok || len(ret.Results) == 0 {
			continue
		}
		r, ok := c.receiverField(holder, ret.Results[0])
		if !ok || found && r.Key != pool.Key {
			return lanes.Resource{}, false
		}
		pool, found = r, true
	}
	return pool, found
}

// receiverField is the pool resource of the receiver's field that v loads
// (*p.dbx through a pointer receiver, p.dbx of a value receiver).
func (c *checker) receiverField(recv *ssa.Parameter, v ssa.Value) (lanes.Resource, bool) {
	v = ssautil.Unconverted(v)
	switch x := v.(type) {
	case *ssa.UnOp:
		if fa, ok := x.X.(*ssa.FieldAddr); ok && x.Op == token.MUL && fa.X == recv {
			return c.loadedResource(fa)
		}
	case *ssa.Field:
		if x.X == recv {
			if f := ssautil.StructField(recv.Type(), x.Field); f != nil {
				return c.resourceOf(f, recv.Type())
			}
		}
	}
	return lanes.Resource{}, false
}

// gotPool is the pool a stored value is the getter's result of: a getter of
// this package, one another package's fact names, or, through an
// interface, the getter every visible implementation is (at least one).
func (c *checker) gotPool(v ssa.Value) (lanes.Resource, bool) {
	v = ssautil.Unconverted(v)
	call, ok := v.(*ssa.Call)
	if !ok {
		return lanes.Resource{}, false
	}
	common := call.Common()
	if !common.IsInvoke() {
		return c.staticGetter(common)
	}
	iface, ok := common.Value.Type().Underlying().(*types.Interface)
	if !ok {
		return lanes.Resource{}, false
	}
	var pool lanes.Resource
	found := false
	for _, t := range c.typesWithMethod(common.Method.Name()) {
		if !types.Implements(t, iface) {
			continue
		}
		obj, _, _ := types.LookupFieldOrMethod(t, true, common.Method.Pkg(), common.Method.Name())
		m, ok := obj.(*types.Func)
		if !ok || promotedFromInterface(m) {
			continue
		}
		r, ok := c.getterOf(m)
		if !ok || found && r.Key != pool.Key {
			return lanes.Resource{}, false
		}
		pool, found = r, true
	}
	return pool, found
}

// staticGetter is the pool a static call's callee gets, if it is a getter.
func (c *checker) staticGetter(common *ssa.CallCommon) (lanes.Resource, bool) {
	callee := common.StaticCallee()
	if callee == nil {
		return lanes.Resource{}, false
	}
	obj, ok := origin(callee).Object().(*types.Func)
	if !ok {
		return lanes.Resource{}, false
	}
	return c.getterOf(obj)
}

// getterOf is the pool m gets, by this package's analysis or m's fact.
func (c *checker) getterOf(m *types.Func) (lanes.Resource, bool) {
	if m.Pkg() == c.pass.Pkg {
		r, ok := c.getters[m]
		return r, ok
	}
	var fact poolGetter
	if m.Pkg() != nil && c.pass.ImportObjectFact(m, &fact) {
		return fact.Pool, true
	}
	return lanes.Resource{}, false
}

// aliasOf is the pool a field is another name for (filledFrom), if any.
func (c *checker) aliasOf(v *types.Var) (lanes.Resource, bool) {
	if !v.IsField() || v.Pkg() == nil {
		return lanes.Resource{}, false
	}
	if v.Pkg() == c.pass.Pkg {
		r, ok := c.aliases[v]
		return r, ok
	}
	var fact filledFrom
	if c.pass.ImportObjectFact(v, &fact) {
		return fact.Pool, true
	}
	return lanes.Resource{}, false
}

// lookupVar is the variable or field a resource names, when visible here.
func (c *checker) lookupVar(r lanes.Resource) *types.Var {
	v, _ := c.lookup(r.Pkg, r.Obj).(*types.Var)
	return v
}
