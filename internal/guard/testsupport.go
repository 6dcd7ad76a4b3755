package guard

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// testSupport tells whether a finding sits in code written to run inside a
// test binary: a _test.go file (most analyzers skip them already; this holds
// it for all), and outside them
//
//   - a package of test helpers: every one of its non-test files imports
//     "testing" (a testdb that creates a throw-away database per test) or a
//     test framework (catalog.TestSupportPackages: gocheck, ginkgo, testify)
//     and uses it;
//   - a function with a *testing.T, *testing.B, *testing.F or testing.TB in
//     reach: a parameter, or the receiver's struct holding one in a field,
//     directly or through embedded structs (a test harness's device whose
//     methods fail the test through d.t); and a function literal with such
//     a parameter (the func(t *testing.T) a harness returns to t.Run);
//   - a file that uses a test-container library
//     (catalog.TestContainerPackages: gnomock, testcontainers-go,
//     dockertest), whatever the package's other files are: it runs
//     against a throw-away database or broker it started for a test
//     (tracetest's testmock);
//   - a package in a directory where Go projects keep tests and development
//     tools (catalog.NonProductionDirs below the module's root: test/,
//     e2e/, hack/, devtools/): a fake of a third-party API that a smoke
//     test drives, a process wrapper for local development.
//
// Such code serves one test at a time under the test binary's -timeout;
// no request traffic queues behind it and no production pool is shared
// with it, so every bhlint finding there is noise. One file importing
// "testing" beside production files is not enough: a production package may
// keep a fixture next to its code, and its other functions are reported. A
// file that imports "testing" only to call testing.Testing() is production
// code asking whether it runs in a test, and is not test support.
type testSupport struct {
	pass    *analysis.Pass
	helpers *bool // every non-test file imports testing for helpers; once known
}

func newTestSupport(pass *analysis.Pass) *testSupport {
	return &testSupport{pass: pass}
}

// at reports whether pos is in test support code.
func (s *testSupport) at(pos token.Pos) bool {
	f := fileAt(s.pass, pos)
	if f == nil {
		return false
	}
	if isTestFile(s.pass, f) {
		return true // a test, or a helper only tests can call
	}
	if usesImport(s.pass.TypesInfo, f, catalog.IsTestContainer) {
		return true // starts a throw-away container for a test
	}
	if s.packageOfHelpers() || s.nonProductionDir() {
		return true
	}
	fd := funcAt(f, pos)
	return fd != nil && (s.takesTesting(fd) || s.inLiteralTakingTesting(fd, pos))
}

// inLiteralTakingTesting reports whether pos is inside a function literal
// of fd that takes a testing value: the func(t *testing.T) a harness in a
// production file returns to t.Run is a test's body, as a declared function
// with that parameter is.
func (s *testSupport) inLiteralTakingTesting(fd *ast.FuncDecl, pos token.Pos) bool {
	found := false
	ast.Inspect(fd, func(n ast.Node) bool {
		if found || n == nil || pos < n.Pos() || n.End() < pos {
			return false
		}
		if lit, ok := n.(*ast.FuncLit); ok {
			found = s.literalTakesTesting(lit)
		}
		return !found
	})
	return found
}

func (s *testSupport) literalTakesTesting(lit *ast.FuncLit) bool {
	sig, ok := s.pass.TypesInfo.TypeOf(lit).(*types.Signature)
	if !ok {
		return false
	}
	for v := range sig.Params().Variables() {
		if isTestingType(v.Type()) {
			return true
		}
	}
	return false
}

// nonProductionDir reports whether the package sits in one of the
// catalogue's NonProductionDirs below its module's root. A driver that
// names no module (GOPATH mode, analysistest) gives no root to measure
// from, and the module's own path may hold such a name: no package is
// then taken for one.
func (s *testSupport) nonProductionDir() bool {
	m := s.pass.Module
	if m == nil || m.Path == "" || !strings.HasPrefix(s.pass.Pkg.Path(), m.Path+"/") {
		return false
	}
	return catalog.InNonProductionDir(strings.TrimPrefix(s.pass.Pkg.Path(), m.Path+"/"))
}

func (s *testSupport) packageOfHelpers() bool {
	if s.helpers == nil {
		all, any := true, false
		for _, f := range s.pass.Files {
			if isTestFile(s.pass, f) || ast.IsGenerated(f) {
				continue
			}
			any = true
			all = all && importsTestingForHelpers(s.pass.TypesInfo, f)
		}
		helpers := all && any
		s.helpers = &helpers
	}
	return *s.helpers
}

func isTestFile(pass *analysis.Pass, f *ast.File) bool {
	return strings.HasSuffix(pass.Fset.Position(f.Package).Filename, "_test.go")
}

func fileAt(pass *analysis.Pass, pos token.Pos) *ast.File {
	return ssautil.FileAt(pass.Files, pos)
}

func funcAt(f *ast.File, pos token.Pos) *ast.FuncDecl {
	for _, decl := range f.Decls {
		if fd, ok := decl.(*ast.FuncDecl); ok && fd.Pos() <= pos && pos <= fd.End() {
			return fd
		}
	}
	return nil
}

// importsTestingForHelpers: the file imports "testing" or a test framework
// and uses something of it other than testing.Testing (which production
// code calls to ask whether it runs in a test).
func importsTestingForHelpers(info *types.Info, f *ast.File) bool {
	return usesImport(info, f, isTestingPackage)
}

// usesImport: the file imports a package whose path is, and uses something
// of it other than testing.Testing.
func usesImport(info *types.Info, f *ast.File, is func(path string) bool) bool {
	imported := false
	for _, imp := range f.Imports {
		if path, err := strconv.Unquote(imp.Path.Value); err == nil && is(path) {
			imported = true
		}
	}
	if !imported {
		return false
	}
	uses := false
	ast.Inspect(f, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && !uses {
			if obj := info.Uses[id]; obj != nil && obj.Pkg() != nil && is(obj.Pkg().Path()) && obj.Name() != "Testing" {
				uses = true
			}
		}
		return !uses
	})
	return uses
}

func isTestingPackage(path string) bool {
	return path == "testing" || catalog.IsTestSupport(path)
}

// takesTesting: fd has a testing value in a parameter or in its receiver.
func (s *testSupport) takesTesting(fd *ast.FuncDecl) bool {
	fn, ok := s.pass.TypesInfo.Defs[fd.Name].(*types.Func)
	if !ok {
		return false
	}
	sig := fn.Type().(*types.Signature)
	if recv := sig.Recv(); recv != nil && holdsTesting(recv.Type(), 3) {
		return true
	}
	for v := range sig.Params().Variables() {
		if isTestingType(v.Type()) {
			return true
		}
	}
	return false
}

// holdsTesting: t is (a pointer to) a struct with a testing value in a
// field, looking depth levels into embedded and named struct fields.
func holdsTesting(t types.Type, depth int) bool {
	if isTestingType(t) {
		return true
	}
	if depth == 0 {
		return false
	}
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for field := range st.Fields() {
		if holdsTesting(field.Type(), depth-1) {
			return true
		}
	}
	return false
}

// isTestingType: *testing.T, *testing.B, *testing.F or testing.TB.
func isTestingType(t types.Type) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := types.Unalias(t).(*types.Named)
	if !ok || named.Obj().Pkg() == nil || named.Obj().Pkg().Path() != "testing" {
		return false
	}
	switch named.Obj().Name() {
	case "T", "B", "F", "TB":
		return true
	}
	return false
}

// InTestSupport reports whether pos, in one of the package's files, is in
// test support code, as the wrapper judges every finding. An analyzer that
// leaves a finding for another package to report at this package's line
// (a wait kept pending until a package that knows the pool's maximum) asks
// here, where the enclosing function and the package's files are known.
func InTestSupport(pass *analysis.Pass, pos token.Pos) bool {
	return newTestSupport(pass).at(pos)
}
