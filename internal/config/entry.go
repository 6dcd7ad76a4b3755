package config

import "go/ast"

// DeclaresEntry reports whether fd is the entry point a lane declaration's
// func names: "" is every exported function and method, otherwise "Func"
// or "Type.Method" (the receiver's type name, without pointer or type
// parameters).
func DeclaresEntry(fd *ast.FuncDecl, name string) bool {
	if name == "" {
		return fd.Name.IsExported()
	}
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name == name
	}
	return receiverTypeName(fd.Recv.List[0].Type)+"."+fd.Name.Name == name
}

func receiverTypeName(x ast.Expr) string {
	switch x := x.(type) {
	case *ast.StarExpr:
		return receiverTypeName(x.X)
	case *ast.IndexExpr:
		return receiverTypeName(x.X)
	case *ast.IndexListExpr:
		return receiverTypeName(x.X)
	case *ast.Ident:
		return x.Name
	}
	return ""
}
