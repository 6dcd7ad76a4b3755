package healthprobe

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// returnsHandler marks a function that returns a closure reaching a shared
// resource (a handler factory: func Readiness(db *sql.DB) http.HandlerFunc):
// a package that registers the closure for a probe's route knows what it
// reaches, and Use.Param is the factory's parameter that is the resource.
type returnsHandler struct {
	Handler string // "the func literal in handlers.Readiness"
	Use     reachesShared
}

func (*returnsHandler) AFact() {}
func (f *returnsHandler) String() string {
	return "returnsHandler(" + f.Handler + ": " + f.Use.String() + ")"
}

// exportFactories exports returnsHandler for the package's functions that
// return a closure that reaches a resource.
func (c *checker) exportFactories() {
	for _, fn := range c.funcs {
		obj, ok := fn.Object().(*types.Func)
		if !ok || fn.Parent() != nil {
			continue
		}
		if f := c.factoryOf(fn); f != nil {
			c.pass.ExportObjectFact(obj, f)
		}
	}
}

func (c *checker) factoryOf(fn *ssa.Function) *returnsHandler {
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok || len(ret.Results) == 0 {
			continue
		}
		mc, ok := unwrap(ret.Results[0]).(*ssa.MakeClosure)
		if !ok {
			continue
		}
		closure, _ := mc.Fn.(*ssa.Function)
		u := c.uses[closure]
		if closure == nil || u == nil {
			continue
		}
		f := &returnsHandler{Handler: funcName(closure), Use: c.withSite(u)}
		f.Use.Path = capPath(f.Use.Path)
		if u.Param >= freeVarBase && u.Param-freeVarBase < len(mc.Bindings) {
			v, _ := c.closureBinder(fn, mc, noBind)(u.Param)
			name, param, own := c.resourceOf(fn, v, u.Noun)
			if own {
				continue
			}
			f.Use.Resource, f.Use.Param = name, param
		} else if u.Param >= 0 {
			f.Use.Param = -1
			f.Use.Resource = "the " + u.Noun + " passed to " + f.Handler
		}
		return f
	}
	return nil
}

func unwrap(v ssa.Value) ssa.Value {
	for {
		switch x := v.(type) {
		case *ssa.MakeInterface:
			v = x.X
		case *ssa.ChangeType:
			v = x.X
		default:
			return v
		}
	}
}

// importedFactory is the fact of another package's factory a call runs.
func (c *checker) importedFactory(common *ssa.CallCommon) *returnsHandler {
	callee := common.StaticCallee()
	if callee == nil || c.local[callee] {
		return nil
	}
	obj, ok := callee.Object().(*types.Func)
	if !ok || obj.Pkg() == nil || obj.Pkg() == c.pass.Pkg {
		return nil
	}
	var f returnsHandler
	if c.pass.ImportObjectFact(obj.Origin(), &f) {
		return &f
	}
	return nil
}
