package unboundedqueue

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
)

// claimsUnderLock marks a function that makes a claim by hand: it takes a
// mutex, returns false (or nil) when the key or slot is already taken and,
// before returning true (or the address of what it recorded), records it
// in shared state (sftpgo's
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
	for _, d := range c.funcDecls(false) {
		if c.returnsOneBoolOrPointer(d.fd) && c.claimsInBody(d.fd.Body) {
			c.claimers[d.obj] = true
			c.pass.ExportObjectFact(d.obj, new(claimsUnderLock))
		}
	}
}

// returnsOneBoolOrPointer: fd's one result says yes or no, as a bool or as
// a pointer that is nil for no (sftpgo's RetentionChecks.Add returning the
// check it recorded).
func (c *checker) returnsOneBoolOrPointer(fd *ast.FuncDecl) bool {
	res := fd.Type.Results
	if res == nil || len(res.List) != 1 || len(res.List[0].Names) > 1 {
		return false
	}
	t := c.pass.TypesInfo.TypeOf(res.List[0].Type)
	_, isPtr := t.(*types.Pointer)
	return isPtr || types.Identical(t, types.Typ[types.Bool])
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
			refuses = refuses || c.returnsNo(n)
		case *ast.BlockStmt:
			for i, stmt := range n.List {
				if ret, ok := stmt.(*ast.ReturnStmt); ok && i > 0 && c.returnsYes(ret) && c.writesShared(n.List[i-1]) {
					records = true
				}
			}
		}
		return true
	})
	return locks && refuses && records
}

// returnsNo reports whether ret returns the constant false or nil.
func (c *checker) returnsNo(ret *ast.ReturnStmt) bool {
	if len(ret.Results) != 1 {
		return false
	}
	tv := c.pass.TypesInfo.Types[ret.Results[0]]
	if tv.IsNil() {
		return true
	}
	return tv.Value != nil && tv.Value.Kind() == constant.Bool && !constant.BoolVal(tv.Value)
}

// returnsYes reports whether ret returns the constant true or the address
// of a value (&check).
func (c *checker) returnsYes(ret *ast.ReturnStmt) bool {
	if len(ret.Results) != 1 {
		return false
	}
	if u, ok := ast.Unparen(ret.Results[0]).(*ast.UnaryExpr); ok && u.Op == token.AND {
		return true
	}
	tv := c.pass.TypesInfo.Types[ret.Results[0]]
	return tv.Value != nil && tv.Value.Kind() == constant.Bool && constant.BoolVal(tv.Value)
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
