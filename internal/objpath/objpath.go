// Package objpath names objects for facts, as golang.org/x/tools'
// objectpath does, faster for the methods of named interfaces.
//
// objectpath's Encoder finds an interface method's path by searching every
// type of the method's package in turn; sharedpool asks for one for every
// interface method a package calls, and in a package that calls into a
// generated gRPC or protobuf package of thousands of types the searches were
// a fifth of the pass. Paths indexes the interface methods of a package once
// and answers from the index, checking each answer by decoding it.
package objpath

import (
	"go/types"
	"strconv"

	"golang.org/x/tools/go/types/objectpath"
)

// Paths is an objectpath.Encoder with an index of interface methods. The
// zero value is ready to use; one serves one pass.
type Paths struct {
	enc     objectpath.Encoder
	methods map[*types.Package]map[*types.Func]objectpath.Path
}

// For returns obj's object path, as objectpath.For does.
func (p *Paths) For(obj types.Object) (objectpath.Path, error) {
	if fn, ok := obj.(*types.Func); ok && fn.Pkg() != nil && isInterfaceMethod(fn) {
		if path, ok := p.index(fn.Pkg())[fn]; ok {
			return path, nil
		}
	}
	return p.enc.For(obj)
}

func isInterfaceMethod(fn *types.Func) bool {
	recv := fn.Signature().Recv()
	return recv != nil && types.IsInterface(recv.Type())
}

// index maps the methods of pkg's package-level named interfaces to their
// paths: the type's name, its underlying type, the method's index
// ("Store.UM0"). A method two interfaces share (one embeds the other) gets
// the first in scope order, as objectpath's search does; a path that does
// not decode to its method is left out, for the Encoder to answer.
func (p *Paths) index(pkg *types.Package) map[*types.Func]objectpath.Path {
	if idx, ok := p.methods[pkg]; ok {
		return idx
	}
	idx := map[*types.Func]objectpath.Path{}
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		iface, ok := tn.Type().Underlying().(*types.Interface)
		if !ok {
			continue
		}
		for i := range iface.NumMethods() {
			m := iface.Method(i)
			if _, seen := idx[m]; seen {
				continue
			}
			path := objectpath.Path(name + ".UM" + strconv.Itoa(i))
			if obj, err := objectpath.Object(pkg, path); err == nil && obj == m {
				idx[m] = path
			}
		}
	}
	if p.methods == nil {
		p.methods = map[*types.Package]map[*types.Func]objectpath.Path{}
	}
	p.methods[pkg] = idx
	return idx
}
