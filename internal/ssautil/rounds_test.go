package ssautil_test

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"

	"golang.org/x/tools/go/ssa"
	xssautil "golang.org/x/tools/go/ssa/ssautil"

	"github.com/bhlint/bhlint/internal/ssautil"
)

// A chain declared callee-last (each link found one round after the one it
// calls), a recursive pair, and many functions that call nothing of it:
// Rounds must find what full rounds find, computing again only the readers
// of what changed.
func TestRoundsChain(t *testing.T) {
	var src strings.Builder
	src.WriteString("package p\n\nfunc a() { b() }\nfunc b() { c() }\nfunc c() { d() }\nfunc d() { leaf() }\nfunc leaf() {}\n")
	src.WriteString("func even(n int) { if n > 0 { odd(n - 1) } }\nfunc odd(n int) { if n > 0 { even(n - 1) }; a() }\n")
	for i := range 40 {
		fmt.Fprintf(&src, "func u%d() { println(%d) }\n", i, i)
	}
	funcs := buildFuncs(t, src.String())
	leaf := funcs[4]
	if leaf.Name() != "leaf" {
		t.Fatalf("funcs[4] = %s, want leaf", leaf.Name())
	}

	// reaches: the functions that reach leaf through static calls.
	var r ssautil.Rounds
	reaches := map[*ssa.Function]bool{}
	computed := 0
	r.Run(funcs, func(fn *ssa.Function) {
		computed++
		if reaches[fn] {
			return
		}
		for _, callee := range staticCallees(fn) {
			r.Read(callee)
			if callee == leaf || reaches[callee] {
				reaches[fn] = true
				r.Changed(fn)
				return
			}
		}
	}, nil)

	want := fullRounds(funcs, leaf)
	for _, fn := range funcs {
		if reaches[fn] != want[fn] {
			t.Errorf("%s: Rounds says %v, full rounds %v", fn.Name(), reaches[fn], want[fn])
		}
	}
	for _, name := range []string{"a", "b", "c", "d", "even", "odd"} {
		if !reaches[fnNamed(funcs, name)] {
			t.Errorf("%s reaches leaf through static calls; Rounds missed it", name)
		}
	}
	// Full rounds: five rounds of every function (four for the chain, one
	// to see nothing change). Rounds: one of every function, then only the
	// callers of what was found.
	if limit := len(funcs) + 10; computed > limit {
		t.Errorf("computed %d times for %d functions, want at most %d", computed, len(funcs), limit)
	}
}

func buildFuncs(t *testing.T, src string) []*ssa.Function {
	t.Helper()
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg := types.NewPackage("example.com/p", "p")
	ssaPkg, _, err := xssautil.BuildPackage(&types.Config{Importer: importer.Default()}, fset, pkg, []*ast.File{file}, 0)
	if err != nil {
		t.Fatal(err)
	}
	var funcs []*ssa.Function
	for _, decl := range file.Decls {
		if fd, ok := decl.(*ast.FuncDecl); ok {
			funcs = append(funcs, ssaPkg.Func(fd.Name.Name))
		}
	}
	return funcs
}

func staticCallees(fn *ssa.Function) []*ssa.Function {
	var out []*ssa.Function
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if call, ok := instr.(ssa.CallInstruction); ok {
				if callee := call.Common().StaticCallee(); callee != nil {
					out = append(out, callee)
				}
			}
		}
	}
	return out
}

// fullRounds is the plain loop Rounds replaces.
func fullRounds(funcs []*ssa.Function, leaf *ssa.Function) map[*ssa.Function]bool {
	reaches := map[*ssa.Function]bool{}
	for changed := true; changed; {
		changed = false
		for _, fn := range funcs {
			if reaches[fn] {
				continue
			}
			for _, callee := range staticCallees(fn) {
				if callee == leaf || reaches[callee] {
					reaches[fn], changed = true, true
					break
				}
			}
		}
	}
	return reaches
}

func fnNamed(funcs []*ssa.Function, name string) *ssa.Function {
	for _, fn := range funcs {
		if fn.Name() == name {
			return fn
		}
	}
	return nil
}
