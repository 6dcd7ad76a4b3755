package guard

import (
	"go/ast"
	"go/token"

	"golang.org/x/tools/go/analysis"
)

// withSpan gives a diagnostic, and each of its related positions, that
// says only where it starts the end of the syntax starting there, so that
// editors underline the offending expression instead of nothing. The
// analyzers report the start of a call, a statement or a declaration; one
// place that derives the end keeps every analyzer's ranges alike.
func withSpan(pass *analysis.Pass, d analysis.Diagnostic) analysis.Diagnostic {
	if !d.End.IsValid() {
		d.End = spanEnd(pass.Files, d.Pos)
	}
	for i := range d.Related {
		if r := &d.Related[i]; !r.End.IsValid() {
			r.End = spanEnd(pass.Files, r.Pos)
		}
	}
	return d
}

// spanEnd is the end of the outermost node that starts at pos: the whole
// call for the start of a call, the whole assignment for a statement. A node
// with a body (a function literal, a loop, a declaration) ends at its first
// opening brace, so that `go func() {` is underlined and not the whole
// goroutine; a file ends at its package name. NoPos when no node starts at
// pos (a comment), which leaves the diagnostic as the analyzer made it.
func spanEnd(files []*ast.File, pos token.Pos) token.Pos {
	for _, f := range files {
		if pos < f.FileStart || pos > f.FileEnd {
			continue
		}
		if pos == f.Package {
			return f.Name.End()
		}
		var start ast.Node
		ast.Inspect(f, func(n ast.Node) bool {
			if start != nil || n == nil || pos < n.Pos() || pos >= n.End() {
				return false
			}
			if n.Pos() == pos {
				start = n // pre-order: the first node found is the outermost
				return false
			}
			return true
		})
		if start == nil {
			return token.NoPos
		}
		return headEnd(start)
	}
	return token.NoPos
}

// headEnd is where n's head ends: n itself, or up to its first brace or
// a case's colon when it has a body.
func headEnd(n ast.Node) token.Pos {
	switch n := n.(type) {
	case *ast.CaseClause:
		return n.Colon + 1
	case *ast.CommClause:
		return n.Colon + 1
	case *ast.TypeSpec:
		switch t := n.Type.(type) {
		case *ast.StructType:
			return t.Fields.Opening + 1
		case *ast.InterfaceType:
			return t.Methods.Opening + 1
		}
	}
	if brace := firstBrace(n); brace.IsValid() {
		return brace + 1
	}
	return n.End()
}

// firstBrace is the opening brace of the first block inside n, NoPos when
// n holds none.
func firstBrace(n ast.Node) token.Pos {
	brace := token.NoPos
	ast.Inspect(n, func(n ast.Node) bool {
		if b, ok := n.(*ast.BlockStmt); ok && !brace.IsValid() {
			brace = b.Lbrace
		}
		return !brace.IsValid()
	})
	return brace
}
