package unboundedqueue

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/pkgscope"
)

// servedPerRequest marks a method of an interface this package declares
// that its request handlers call through the interface: an
// openapi-generator controller calling c.service.CreateEnvironment(ctx, …)
// for every request, an oapi-codegen strict handler calling its
// StrictServerInterface. Whatever implements it, in a package this one
// does not import (the program's own service, wired in main), runs once per
// request: per-request is whatever an entry point reaches, through the
// interfaces the entry point's package calls.
type servedPerRequest struct{}

func (*servedPerRequest) AFact()         {}
func (*servedPerRequest) String() string { return "servedPerRequest" }

// exportServedMethods exports servedPerRequest for the methods of this
// package's interfaces that its request paths call through the interface.
func (c *checker) exportServedMethods() {
	if c.dependency || !pkgscope.DeclaredInModule(c.pass.Module, c.pass.Pkg) || !c.declaresInterface() || !c.declaresRequestHandler() {
		return // the program's own packages only; most declare no interface a handler calls: no SSA for this
	}
	for fn := range c.requestPathFrames() {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok || !call.Common().IsInvoke() || c.inTestFile(call.Pos()) {
					continue
				}
				if m := call.Common().Method; c.declaredHere(m) {
					c.pass.ExportObjectFact(m, &servedPerRequest{})
				}
			}
		}
	}
}

// declaredHere reports whether m is a method of a named interface declared
// at this package's top level (a fact needs a path to its object).
func (c *checker) declaredHere(m *types.Func) bool {
	if m.Pkg() != c.pass.Pkg {
		return false
	}
	named, ok := types.Unalias(m.Signature().Recv().Type()).(*types.Named)
	return ok && named.Obj().Parent() == c.pass.Pkg.Scope()
}

// declaresInterface reports whether the package declares a named
// interface with methods.
func (c *checker) declaresInterface() bool {
	scope := c.pass.Pkg.Scope()
	for _, name := range scope.Names() {
		if tn, ok := scope.Lookup(name).(*types.TypeName); ok {
			if it, ok := tn.Type().Underlying().(*types.Interface); ok && it.NumMethods() > 0 {
				return true
			}
		}
	}
	return false
}

// declaresRequestHandler reports whether a function of the package's own
// files takes a request (runsPerRequest), the roots a served method is
// called from.
func (c *checker) declaresRequestHandler() bool {
	for _, f := range c.pass.Files {
		if c.isTest(f) {
			continue
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil && c.handlesRequest(fd) {
				return true
			}
		}
	}
	return false
}

// implementsServed reports whether fn, a method, implements a method of an
// interface another package declares and calls per request
// (servedPerRequest).
func (c *checker) implementsServed(fn *types.Func) bool {
	recv := fn.Signature().Recv()
	if recv == nil {
		return false
	}
	for _, m := range c.servedMethods()[fn.Name()] {
		iface, ok := m.Signature().Recv().Type().Underlying().(*types.Interface)
		if !ok {
			continue
		}
		if implementedBy(recv.Type(), iface) {
			return true
		}
	}
	return false
}

// implementedBy reports whether t, or a pointer to it, implements iface.
func implementedBy(t types.Type, iface *types.Interface) bool {
	if types.Implements(t, iface) {
		return true
	}
	_, isPtr := t.(*types.Pointer)
	return !isPtr && types.Implements(types.NewPointer(t), iface)
}

// servedMethods are the other packages' interface methods that carry
// servedPerRequest, by name; computed once.
func (c *checker) servedMethods() map[string][]*types.Func {
	if c.served == nil {
		c.served = map[string][]*types.Func{}
		for _, f := range c.pass.AllObjectFacts() {
			if _, ok := f.Fact.(*servedPerRequest); !ok {
				continue
			}
			if m, ok := f.Object.(*types.Func); ok && m.Pkg() != c.pass.Pkg && pkgscope.DeclaredInModule(c.pass.Module, m.Pkg()) {
				c.served[m.Name()] = append(c.served[m.Name()], m)
			}
		}
	}
	return c.served
}
