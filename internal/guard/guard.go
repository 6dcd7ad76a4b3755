// Package guard wraps a bhlint analyzer so that every driver (bhlint, go vet
// -vettool, golangci-lint, the LSP server) behaves the same:
//
//   - //bhlint:ignore CODE reason suppresses CODE on its own line, on the
//     line below it, or, in a function's doc comment, in the whole function;
//     an ignore that suppresses nothing is itself reported;
//   - findings in generated files are dropped;
//   - a panic becomes an error naming the analyzer, the package and, where
//     the analyzer said where it was, the position — never a crashed driver.
package guard

import (
	"fmt"
	"go/ast"
	"go/token"
	"runtime/debug"

	"golang.org/x/tools/go/analysis"

	"github.com/bhlint/bhlint/internal/directive"
)

// Wrap installs suppression, generated-file filtering and panic recovery
// around a's Run, for the diagnostics of the given code. It returns a.
func Wrap(a *analysis.Analyzer, code string) *analysis.Analyzer {
	run := a.Run
	a.Run = func(pass *analysis.Pass) (result any, err error) {
		ignores := collectIgnores(pass, code)
		inner := *pass
		inner.Report = func(d analysis.Diagnostic) {
			if !d.Pos.IsValid() || isGenerated(pass, d.Pos) || ignores.suppress(pass.Fset, d.Pos) {
				return
			}
			pass.Report(d)
		}
		defer func() {
			if r := recover(); r != nil {
				result, err = nil, panicError(a, pass, r)
			}
		}()
		result, err = run(&inner)
		if err == nil {
			ignores.reportUnused(pass, code)
		}
		return result, err
	}
	return a
}

// At runs f, and if f panics, re-panics with pos attached, so that the error
// Wrap makes names the position the analyzer was looking at.
func At(pos token.Pos, f func()) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(located); ok {
				panic(r)
			}
			panic(located{pos: pos, value: r, stack: debug.Stack()})
		}
	}()
	f()
}

type located struct {
	pos   token.Pos
	value any
	stack []byte
}

func panicError(a *analysis.Analyzer, pass *analysis.Pass, r any) error {
	where, stack := "", debug.Stack()
	if l, ok := r.(located); ok {
		where = " at " + pass.Fset.Position(l.pos).String()
		r, stack = l.value, l.stack
	}
	return fmt.Errorf("internal error: analyzer %s panicked in package %s%s: %v (please report this with the stack below)\n%s",
		a.Name, pass.Pkg.Path(), where, r, stack)
}

func isGenerated(pass *analysis.Pass, pos token.Pos) bool {
	for _, f := range pass.Files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			return ast.IsGenerated(f)
		}
	}
	return false
}

// ignore is one //bhlint:ignore for the wrapped analyzer's code, with the
// range of lines it covers.
type ignore struct {
	d          directive.Directive
	file       string
	start, end int // lines, inclusive
	used       bool
}

type ignoreSet []*ignore

func collectIgnores(pass *analysis.Pass, code string) ignoreSet {
	var set ignoreSet
	for _, f := range pass.Files {
		funcDocs := map[*ast.CommentGroup]*ast.FuncDecl{}
		for _, decl := range f.Decls {
			if fd, ok := decl.(*ast.FuncDecl); ok && fd.Doc != nil {
				funcDocs[fd.Doc] = fd
			}
		}
		for _, group := range f.Comments {
			for _, c := range group.List {
				d, ok, err := directive.Parse(c)
				if !ok || err != nil || d.Verb != directive.Ignore || d.Args[0] != code {
					continue
				}
				set = append(set, ignoreRange(pass.Fset, d, funcDocs[group]))
			}
		}
	}
	return set
}

// ignoreRange covers the directive's own line and the next one, or the whole
// function whose doc comment holds it.
func ignoreRange(fset *token.FileSet, d directive.Directive, fn *ast.FuncDecl) *ignore {
	pos := fset.Position(d.Pos)
	ig := &ignore{d: d, file: pos.Filename, start: pos.Line, end: pos.Line + 1}
	if fn != nil {
		ig.end = fset.Position(fn.End()).Line
	}
	return ig
}

func (s ignoreSet) suppress(fset *token.FileSet, pos token.Pos) bool {
	p := fset.Position(pos)
	hit := false
	for _, ig := range s {
		if ig.file == p.Filename && ig.start <= p.Line && p.Line <= ig.end {
			ig.used, hit = true, true
		}
	}
	return hit
}

func (s ignoreSet) reportUnused(pass *analysis.Pass, code string) {
	for _, ig := range s {
		if !ig.used {
			pass.Report(analysis.Diagnostic{
				Pos: ig.d.Pos, End: ig.d.End,
				Message: fmt.Sprintf("%s: this //bhlint:ignore suppresses nothing; remove it, or move it to the line or function it is meant for", code),
			})
		}
	}
}
