// Package ssautil holds the small SSA and position helpers that several
// bhlint analyzers need, so each does not keep its own copy.
package ssautil

import (
	"go/ast"
	"go/token"
	"go/types"
	"iter"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// Origin returns the generic function an instantiation was made from, or fn
// itself: facts and tables are keyed on the origin.
func Origin(fn *ssa.Function) *ssa.Function {
	if o := fn.Origin(); o != nil {
		return o
	}
	return fn
}

// CallStarts maps the Lparen position SSA records for a call to the start
// of the call expression, where a user expects a finding. The zero value is
// ready; the map is built on first use.
type CallStarts struct {
	starts map[token.Pos]token.Pos
}

// Start returns the start of the call whose Lparen is at lparen, or lparen
// when no call of files has it.
func (c *CallStarts) Start(files []*ast.File, lparen token.Pos) token.Pos {
	if c.starts == nil {
		c.starts = map[token.Pos]token.Pos{}
		for _, f := range files {
			ast.Inspect(f, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok {
					c.starts[call.Lparen] = call.Pos()
				}
				return true
			})
		}
	}
	if start, ok := c.starts[lparen]; ok {
		return start
	}
	return lparen
}

// Referrers returns v's referrers, or nil where SSA keeps none (globals,
// functions, constants): callers need not check for a nil slice pointer.
func Referrers(v ssa.Value) []ssa.Instruction {
	if refs := v.Referrers(); refs != nil {
		return *refs
	}
	return nil
}

// Receiver is the value a method is called on, or nil for a function call.
func Receiver(common *ssa.CallCommon) ssa.Value {
	if common.IsInvoke() {
		return common.Value
	}
	if callee := common.StaticCallee(); callee != nil && callee.Signature.Recv() != nil && len(common.Args) > 0 {
		return common.Args[0]
	}
	return nil
}

// FuncOf resolves a func-typed value to the function it denotes, if static.
func FuncOf(v ssa.Value) *ssa.Function {
	switch v := v.(type) {
	case *ssa.Function:
		return v
	case *ssa.MakeClosure:
		fn, _ := v.Fn.(*ssa.Function)
		return fn
	case *ssa.ChangeType:
		return FuncOf(v.X)
	}
	return nil
}

// IsNil reports whether v is the constant nil.
func IsNil(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.IsNil()
}

// IsError reports whether t is the built-in error type.
func IsError(t types.Type) bool { return types.Identical(t, types.Universe.Lookup("error").Type()) }

// WaitedCalls yields the calls fn waits for, in block order: its calls and
// its deferred calls, not the calls it starts in a goroutine.
func WaitedCalls(fn *ssa.Function) iter.Seq[*ssa.CallCommon] {
	return func(yield func(*ssa.CallCommon) bool) {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				var common *ssa.CallCommon
				switch instr := instr.(type) {
				case *ssa.Call:
					common = instr.Common()
				case *ssa.Defer:
					common = instr.Common()
				default:
					continue
				}
				if !yield(common) {
					return
				}
			}
		}
	}
}

// FuncsStoredInFields yields each store, among funcs' instructions, of a
// static function or closure into a struct field (s.run = f, &Job{Run:
// func…}): the field's address and the function. Callers key the field as
// they need and decide which fields to trust.
func FuncsStoredInFields(funcs []*ssa.Function) iter.Seq2[*ssa.FieldAddr, *ssa.Function] {
	return func(yield func(*ssa.FieldAddr, *ssa.Function) bool) {
		for _, fn := range funcs {
			for _, b := range fn.Blocks {
				for _, instr := range b.Instrs {
					st, ok := instr.(*ssa.Store)
					if !ok {
						continue
					}
					fa, ok := st.Addr.(*ssa.FieldAddr)
					if !ok {
						continue
					}
					if f := FuncOf(st.Val); f != nil && !yield(fa, f) {
						return
					}
				}
			}
		}
	}
}

// ConcreteTypes yields pkg's declared named types that could implement an
// interface: not aliases, not interfaces, not generic (an uninstantiated
// type implements nothing), in the scope's name order.
func ConcreteTypes(pkg *types.Package) iter.Seq[*types.Named] {
	return func(yield func(*types.Named) bool) {
		for named := range declaredTypes(pkg) {
			if !types.IsInterface(named) && !yield(named) {
				return
			}
		}
	}
}

// declaredTypes yields pkg's declared named types that are not aliases and
// not generic, in the scope's name order.
func declaredTypes(pkg *types.Package) iter.Seq[*types.Named] {
	return func(yield func(*types.Named) bool) {
		scope := pkg.Scope()
		for _, name := range scope.Names() {
			tn, ok := scope.Lookup(name).(*types.TypeName)
			if !ok || tn.IsAlias() {
				continue
			}
			named, ok := tn.Type().(*types.Named)
			if !ok || named.TypeParams().Len() > 0 {
				continue
			}
			if !yield(named) {
				return
			}
		}
	}
}

// Implementation returns the method of named (or of a pointer to it) that
// implements m of iface, or nil when neither implements iface.
func Implementation(named *types.Named, iface *types.Interface, m *types.Func) *types.Func {
	for _, t := range []types.Type{named, types.NewPointer(named)} {
		if !types.Implements(t, iface) {
			continue
		}
		obj, _, _ := types.LookupFieldOrMethod(t, true, m.Pkg(), m.Name())
		if fn, ok := obj.(*types.Func); ok {
			return fn.Origin()
		}
	}
	return nil
}

// MethodImplementation pairs an interface method with a method that
// implements it.
type MethodImplementation struct {
	Method *types.Func // an interface method declared in the package
	Impl   *types.Func // a method of a concrete type of the package that implements it
}

// Interfaces are the interface types with methods that pkg declares.
func Interfaces(pkg *types.Package) iter.Seq[*types.Interface] {
	return func(yield func(*types.Interface) bool) {
		for named := range declaredTypes(pkg) {
			iface, ok := named.Underlying().(*types.Interface)
			if ok && iface.NumMethods() > 0 && !yield(iface) {
				return
			}
		}
	}
}

// LocalImplementations pairs the methods declared by pkg's interfaces with
// the methods of pkg's concrete types that implement them: interfaces in
// the scope's name order, and for each its implementations in
// ConcreteTypes' order. A package that declares an interface and its
// implementation (a generated gRPC client, an SDK's request builder) is
// where the interface's calls can be resolved once for every importer.
func LocalImplementations(pkg *types.Package) []MethodImplementation {
	var out []MethodImplementation
	for iface := range Interfaces(pkg) {
		for concrete := range ConcreteTypes(pkg) {
			t := types.Type(types.NewPointer(concrete)) // the method set of both
			if !types.Implements(t, iface) {
				continue
			}
			for m := range iface.Methods() {
				if m.Pkg() != pkg {
					continue // declared by an embedded interface of another package
				}
				if impl, ok := methodOf(t, m).(*types.Func); ok {
					out = append(out, MethodImplementation{m, impl.Origin()})
				}
			}
		}
	}
	return out
}

// FuncImplementation is a MethodImplementation with the implementation's
// SSA function.
type FuncImplementation struct {
	Method *types.Func
	Impl   *ssa.Function
}

// LocalImplementationFuncs is LocalImplementations with each
// implementation's SSA function, where prog has one.
func LocalImplementationFuncs(pkg *types.Package, prog *ssa.Program) []FuncImplementation {
	var out []FuncImplementation
	for _, im := range LocalImplementations(pkg) {
		if fn := prog.FuncValue(im.Impl); fn != nil {
			out = append(out, FuncImplementation{im.Method, fn})
		}
	}
	return out
}

func methodOf(t types.Type, m *types.Func) types.Object {
	obj, _, _ := types.LookupFieldOrMethod(t, false, m.Pkg(), m.Name())
	return obj
}

// SameLine reports whether a and b are valid positions on one line of one
// file: two ends of a finding that one line of related information shows.
func SameLine(fset *token.FileSet, a, b token.Pos) bool {
	if !a.IsValid() || !b.IsValid() {
		return false
	}
	pa, pb := fset.Position(a), fset.Position(b)
	return pa.Filename == pb.Filename && pa.Line == pb.Line
}

// LinePos turns a file name and line recorded in another package's fact
// into a position: in the file set if the file is there (export data
// records the files of its declarations), else in a file added for it, so
// that a finding or its related information can point into another
// package. NoPos for an empty file or a line below 1.
func LinePos(fset *token.FileSet, file string, line int) token.Pos {
	if file == "" || line <= 0 {
		return token.NoPos
	}
	var found *token.File
	fset.Iterate(func(f *token.File) bool {
		if f.Name() == file && line <= f.LineCount() {
			found = f
			return false
		}
		return true
	})
	if found == nil {
		lines := make([]int, line)
		for i := range lines {
			lines[i] = i
		}
		found = fset.AddFile(file, -1, line+1)
		found.SetLines(lines)
	}
	return found.LineStart(line)
}

// PackageVars yields each package-level variable f declares with a value
// of its own (var rates = map[…]…{…}), by its name's identifier: a table
// written in the source. A declaration whose names take the values of one
// call (var a, b = f()) yields nothing.
func PackageVars(f *ast.File) iter.Seq2[*ast.Ident, ast.Expr] {
	return func(yield func(*ast.Ident, ast.Expr) bool) {
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				if len(vs.Values) != len(vs.Names) {
					continue
				}
				for i, name := range vs.Names {
					if !yield(name, vs.Values[i]) {
						return
					}
				}
			}
		}
	}
}

// FileAt is the file among files that holds pos, or nil: pos is in
// another package's file (or none).
func FileAt(files []*ast.File, pos token.Pos) *ast.File {
	for _, f := range files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			return f
		}
	}
	return nil
}

// SameValue is v before the conversions that keep its identity: into an
// interface, between interfaces, and between types with the same
// underlying type (a *bun.DB handed on as a bun.IDB is the same pool).
func SameValue(v ssa.Value) ssa.Value {
	for {
		switch x := v.(type) {
		case *ssa.MakeInterface:
			v = x.X
		case *ssa.ChangeInterface:
			v = x.X
		case *ssa.ChangeType:
			v = x.X
		default:
			return v
		}
	}
}

// Unconverted is v before its conversions between types with the same
// underlying type: a literal passed as http.HandlerFunc, jwt.Keyfunc or a
// framework's handler type.
func Unconverted(v ssa.Value) ssa.Value {
	for {
		ct, ok := v.(*ssa.ChangeType)
		if !ok {
			return v
		}
		v = ct.X
	}
}

// StoredOnce is the value the only store into alloc writes (a local
// variable kept in memory because a closure captures it or its address is
// taken: x := f(…) is stored there and loaded at each use), or nil when
// more than one store writes it.
func StoredOnce(alloc *ssa.Alloc) ssa.Value {
	var stored ssa.Value
	for _, ref := range Referrers(alloc) {
		st, ok := ref.(*ssa.Store)
		if !ok || st.Addr != alloc {
			continue
		}
		if stored != nil {
			return nil
		}
		stored = st.Val
	}
	return stored
}

// FreeVarBinding is the value a function literal's free variable was
// bound to where the literal was made (its parent's MakeClosure), or nil.
func FreeVarBinding(fv *ssa.FreeVar) ssa.Value {
	lit := fv.Parent()
	parent := lit.Parent()
	i := slices.Index(lit.FreeVars, fv)
	if parent == nil || i < 0 {
		return nil
	}
	for _, b := range parent.Blocks {
		for _, instr := range b.Instrs {
			if mc, ok := instr.(*ssa.MakeClosure); ok && mc.Fn == lit && i < len(mc.Bindings) {
				return mc.Bindings[i]
			}
		}
	}
	return nil
}

// CapturedValue is the value v, in function f, stands for in the functions
// that enclose f: a free variable is what the closure was made with, and a
// captured variable (a free variable's cell, loaded) is what its enclosing
// function stored in it once (nil when stored more than once).
func CapturedValue(f *ssa.Function, v ssa.Value) ssa.Value {
	v = Unconverted(v)
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		if fv, ok := load.X.(*ssa.FreeVar); ok {
			if cell, ok := FreeVarBinding(fv).(*ssa.Alloc); ok {
				if stored := StoredOnce(cell); stored != nil {
					return Unconverted(stored)
				}
				return nil
			}
		}
		return v
	}
	if fv, ok := v.(*ssa.FreeVar); ok && f.Parent() != nil {
		if b := FreeVarBinding(fv); b != nil {
			return CapturedValue(f.Parent(), b)
		}
	}
	return v
}

// ReceiverCall is the call whose result cur is called on, in a chain of
// builder calls: x.A().B() → x.A(); nil when cur is not called on a call.
func ReceiverCall(cur *ast.CallExpr) *ast.CallExpr {
	sel, ok := ast.Unparen(cur.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	inner, _ := ast.Unparen(sel.X).(*ast.CallExpr)
	return inner
}

// FieldName is the name of the struct field fa addresses, or "" when its
// operand is not a pointer to a struct.
func FieldName(fa *ssa.FieldAddr) string {
	ptr, ok := fa.X.Type().Underlying().(*types.Pointer)
	if !ok {
		return ""
	}
	if f := StructField(ptr.Elem(), fa.Field); f != nil {
		return f.Name()
	}
	return ""
}

// StructField is field i of the struct type t, or nil when t is not a
// struct (a type parameter whose core type is one) or has no such field.
func StructField(t types.Type, i int) *types.Var {
	st, ok := t.Underlying().(*types.Struct)
	if !ok || i >= st.NumFields() {
		return nil
	}
	return st.Field(i)
}

// StoredElements are the values stored into the elements of array, an
// array the function allocates (the backing array of a slice literal or of
// a variadic call's arguments): each *IndexAddr(array, i) = v.
func StoredElements(array ssa.Value) []ssa.Value {
	var out []ssa.Value
	for _, ref := range Referrers(array) {
		ia, ok := ref.(*ssa.IndexAddr)
		if !ok {
			continue
		}
		for _, use := range Referrers(ia) {
			if st, ok := use.(*ssa.Store); ok && st.Addr == ia {
				out = append(out, st.Val)
			}
		}
	}
	return out
}

// IsContext reports whether t is context.Context.
func IsContext(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "context" && n.Obj().Name() == "Context"
}

// NamedOf is the named type t is or points to, or nil.
func NamedOf(t types.Type) *types.Named {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	named, _ := types.Unalias(t).(*types.Named)
	return named
}

// EmbeddedFind returns what match finds for t or, failing that, for the
// first type a struct t (or one t points to) embeds, through at most
// maxDepth embeddings (a struct may embed a pointer to itself): a project's
// type that wraps a framework's context or an ORM's handle is that
// context or handle.
func EmbeddedFind[T any](t types.Type, maxDepth int, match func(types.Type) (T, bool)) (T, bool) {
	if v, ok := match(t); ok || maxDepth == 0 {
		return v, ok
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	if st, ok := t.Underlying().(*types.Struct); ok {
		for f := range st.Fields() {
			if !f.Embedded() {
				continue
			}
			if v, ok := EmbeddedFind(f.Type(), maxDepth-1, match); ok {
				return v, ok
			}
		}
	}
	var zero T
	return zero, false
}

// Exclusive reports whether no run of the function passes both a and b:
// neither block reaches the other (the two cases of a switch, the two
// branches of an if). A block inside a loop reaches itself, so it is not
// exclusive with itself.
func Exclusive(a, b *ssa.BasicBlock) bool {
	return a != nil && b != nil && a != b && !Reaches(a, b) && !Reaches(b, a)
}

// Reaches reports whether some path of the control-flow graph leads from
// block from to block to.
func Reaches(from, to *ssa.BasicBlock) bool {
	seen := map[*ssa.BasicBlock]bool{}
	stack := []*ssa.BasicBlock{from}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, s := range b.Succs {
			if s == to {
				return true
			}
			if !seen[s] {
				seen[s] = true
				stack = append(stack, s)
			}
		}
	}
	return false
}
