package unboundedqueue

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/lazyssa"
	"github.com/bhlint/bhlint/internal/pkgscope"
)

// returnsNetworkFunc marks a function that returns a function which, when
// called, waits on the network (a handler factory: Handle(node) returns a
// closure that calls a proxy over HTTP): a caller that calls the result
// while holding a mutex holds it across the wait (shape 9).
type returnsNetworkFunc struct{ Via string }

func (*returnsNetworkFunc) AFact()           {}
func (f *returnsNetworkFunc) String() string { return "returnsNetworkFunc(" + f.Via + ")" }

// learnNetworkFuncReturners exports returnsNetworkFunc for the package's
// functions with a result of func type that return a function or literal
// waiting on the network. Only functions with such a result need SSA.
func (c *checker) learnNetworkFuncReturners() {
	c.funcReturners = map[*types.Func]string{}
	if !pkgscope.Reaches(c.pass.Pkg, catalog.NetworkPackages) {
		return
	}
	var decls []*types.Func
	for _, f := range c.pass.Files {
		if c.isTest(f) {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			if obj, ok := c.pass.TypesInfo.Defs[fd.Name].(*types.Func); ok && returnsFunc(obj) {
				decls = append(decls, obj)
			}
		}
	}
	if len(decls) == 0 {
		return
	}
	prog := c.pass.ResultOf[lazyssa.Analyzer].(*lazyssa.Builder).Package().Prog
	for _, obj := range decls {
		fn := prog.FuncValue(obj)
		if fn == nil {
			continue
		}
		if via := c.returnedWaits(fn); via != "" {
			c.funcReturners[obj] = via
			c.pass.ExportObjectFact(obj, &returnsNetworkFunc{Via: via})
		}
	}
}

func returnsFunc(fn *types.Func) bool {
	res := fn.Signature().Results()
	for i := range res.Len() {
		if _, ok := res.At(i).Type().Underlying().(*types.Signature); ok {
			return true
		}
	}
	return false
}

// returnedWaits is how a function fn returns waits on the network, "" if
// none does.
func (c *checker) returnedWaits(fn *ssa.Function) string {
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		for _, r := range ret.Results {
			if _, ok := r.Type().Underlying().(*types.Signature); !ok {
				continue
			}
			if via := c.funcVia(r, nil, 0); via != "" {
				return via
			}
		}
	}
	return ""
}

// returnsNetworkFunc is how the function fn returns waits on the network
// (this package's, or a fact), or "".
func (c *checker) returnsNetworkFunc(fn *types.Func) string {
	fn = fn.Origin()
	if via, ok := c.funcReturners[fn]; ok {
		return via
	}
	var fact returnsNetworkFunc
	if fn.Pkg() != nil && fn.Pkg() != c.pass.Pkg && c.pass.ImportObjectFact(fn, &fact) {
		return fact.Via
	}
	return ""
}
