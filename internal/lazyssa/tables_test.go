package lazyssa

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"testing"

	"golang.org/x/tools/go/ssa"
)

const tablesSrc = `package p

import "database/sql"

type row struct{ a, b int }

const k = 3

var table = [...]uint16{1, 2, k, 4}                 // data: dropped
var rows = []row{{1, 2}, {a: 3, b: k}}              // data: dropped
var ptrRows = []*row{{1, 2}}                        // data: dropped
var names = map[string]int{"a": 1, "b": 2}          // data: dropped
var grid = [2][2]int{{1, 2}, {3, 4}}                // data: dropped

var db, _ = sql.Open("postgres", "")                // a call: kept
var q = make(chan int)                              // a call: kept
var fns = []func(){func() {}}                       // a function literal: kept
var n = 4
var dyn = []int{1, n}                               // a variable: kept
var pr = &row{1, 2}                                 // an address: kept
var one = row{1, 2}                                 // a struct, not a table: kept
var page = codePage{name: "037", decode: [2]row{{1, 2}, {3, 4}}} // a table with its header: dropped
var live = codePage{name: "x", decode: [2]row{{1, n}}}          // a variable in its table: kept

type codePage struct {
	name   string
	decode [2]row
}
var conv = []byte("abc")                            // a conversion: kept
`

func checkTables(t *testing.T) (*token.FileSet, *ast.File, *types.Package, *types.Info) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", tablesSrc, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{
		Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{},
		Uses: map[*ast.Ident]types.Object{}, Implicits: map[ast.Node]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{}, Scopes: map[ast.Node]*types.Scope{},
		Instances: map[*ast.Ident]types.Instance{}, FileVersions: map[*ast.File]string{},
	}
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	return fset, f, pkg, info
}

func initialized(inits []*types.Initializer) []string {
	var names []string
	for _, in := range inits {
		for _, v := range in.Lhs {
			names = append(names, v.Name())
		}
	}
	return names
}

func TestWithoutDataTables(t *testing.T) {
	fset, f, pkg, info := checkTables(t)
	trimmed := withoutDataTables(info)
	got := initialized(trimmed.InitOrder)
	want := []string{"db", "_", "q", "fns", "n", "dyn", "pr", "one", "live", "conv"}
	if !slices.Equal(got, want) {
		t.Errorf("initializers kept = %v, want %v", got, want)
	}
	if len(info.InitOrder) != 15 {
		t.Errorf("the pass's own types.Info was changed: %d initializers", len(info.InitOrder))
	}

	// The SSA package keeps every global; its initializer stores only the kept ones.
	prog := ssa.NewProgram(fset, 0)
	for _, imp := range pkg.Imports() {
		prog.CreatePackage(imp, nil, nil, true)
	}
	sp := prog.CreatePackage(pkg, []*ast.File{f}, trimmed, false)
	sp.Build()
	stored := map[string]bool{}
	for _, b := range sp.Func("init").Blocks {
		for _, instr := range b.Instrs {
			if st, ok := instr.(*ssa.Store); ok {
				if g, ok := st.Addr.(*ssa.Global); ok {
					stored[g.Name()] = true
				}
			}
		}
	}
	for _, name := range []string{"table", "rows", "ptrRows", "names", "grid", "page"} {
		if sp.Var(name) == nil {
			t.Errorf("global %s is no longer a member", name)
		}
		if stored[name] {
			t.Errorf("the package initializer still fills the data table %s", name)
		}
	}
	for _, name := range []string{"db", "q", "fns", "n", "dyn", "pr", "one", "live", "conv"} {
		if !stored[name] {
			t.Errorf("the package initializer no longer sets %s", name)
		}
	}
}

func TestWithoutDataTablesKeepsInfoWhenNothingToDrop(t *testing.T) {
	info := &types.Info{InitOrder: nil}
	if withoutDataTables(info) != info {
		t.Error("a package with no data table got a copy of its types.Info")
	}
}
