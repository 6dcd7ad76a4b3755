package unboundedqueue

import (
	"go/ast"
	"go/constant"
	"go/types"
)

// claimsUnderLock marks a function that makes a claim by hand: it takes a
// mutex, returns false when the key or slot is already taken and, before
// returning true, records it in shared state (sftpgo's
// AddVFolderQuotaScan: lock, return false if the folder is among the
// active scans, append it, return true). As CompareAndSwap or LoadOrStore,
// it lets one caller through per key until the claim is released: a
// goroutine started only when it returns true runs once per key at a time.
type claimsUnderLock struct{}

func (*claimsUnderLock) AFact()         {}
func (*claimsUnderLock) String() string { return "claimsUnderLock" }

// learnClaimers exports claimsUnderLock for this package's functions that
// make a claim under a lock.
func (c *checker) learnClaimers() {
	c.claimers = map[*types.Func]bool{}
	for _, f := range c.pass.Files {
		if c.isTest(f) {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || !c.returnsOneBool(fd) {
				continue
			}
			if obj, _ := c.pass.TypesInfo.Defs[fd.Name].(*types.Func); obj != nil && c.claimsInBody(fd.Body) {
				c.claimers[obj] = true
				c.pass.ExportObjectFact(obj, new(claimsUnderLock))
			}
		}
	}
}

func (c *checker) returnsOneBool(fd *ast.FuncDecl) bool {
	res := fd.Type.Results
	if res == nil || len(res.List) != 1 || len(res.List[0].Names) > 1 {
		return false
	}
	return types.Identical(c.pass.TypesInfo.TypeOf(res.List[0].Type), types.Typ[types.Bool])
}

// claimsInBody reports whether body locks a mutex (Lock, not RLock),
// returns the constant false somewhere, and returns the constant true
// right after a statement that writes shared state (a field, a map entry,
// a package variable).
func (c *checker) claimsInBody(body *ast.BlockStmt) bool {
	locks, refuses, records := false, false, false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			locks = locks || mutexLocks.Has(c.callee(n))
		case *ast.ReturnStmt:
			refuses = refuses || c.returnsConstBool(n, false)
		case *ast.BlockStmt:
			for i, stmt := range n.List {
				if ret, ok := stmt.(*ast.ReturnStmt); ok && i > 0 && c.returnsConstBool(ret, true) && c.writesShared(n.List[i-1]) {
					records = true
				}
			}
		}
		return true
	})
	return locks && refuses && records
}

func (c *checker) returnsConstBool(ret *ast.ReturnStmt, want bool) bool {
	if len(ret.Results) != 1 {
		return false
	}
	tv := c.pass.TypesInfo.Types[ret.Results[0]]
	return tv.Value != nil && tv.Value.Kind() == constant.Bool && constant.BoolVal(tv.Value) == want
}

// writesShared reports whether stmt assigns to a field, a map or slice
// element, or a package variable.
func (c *checker) writesShared(stmt ast.Stmt) bool {
	as, ok := stmt.(*ast.AssignStmt)
	if !ok {
		return false
	}
	for _, lhs := range as.Lhs {
		switch l := ast.Unparen(lhs).(type) {
		case *ast.SelectorExpr, *ast.IndexExpr:
			return true
		case *ast.Ident:
			if v, ok := c.pass.TypesInfo.ObjectOf(l).(*types.Var); ok && v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
				return true
			}
		}
	}
	return false
}

// claimsByCall reports whether fn makes a claim under a lock: this
// package's, or another's (a fact).
func (c *checker) claimsByCall(fn *types.Func) bool {
	return c.marked(fn, c.claimers, new(claimsUnderLock))
}
