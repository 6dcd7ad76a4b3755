package bulkhead

import (
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const modulePath = "github.com/bhlint/bhlint/bulkhead"

// TestCoreImportsOnlyStdlib keeps the promise in the package doc: services
// take the core package without taking its integrations' dependencies. The
// core may share code with the integrations through the module's internal
// packages; those are held to the same rule, down to their own imports.
func TestCoreImportsOnlyStdlib(t *testing.T) {
	bad, err := nonStdImports(".", modulePath)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bad {
		t.Errorf("%s; the core package, and the internal packages it imports, must depend only on the standard library", b)
	}
}

// TestNonStdImportsFollowsInternal: the check finds a third-party import
// behind a chain of internal packages and an import of a package of the
// module that is not internal, and stays silent on the look-alikes: an
// internal package that keeps to the standard library, a third-party
// import in a test file, and a module whose path merely starts like ours.
func TestNonStdImportsFollowsInternal(t *testing.T) {
	bad, err := nonStdImports("testdata/imports", "example.com/m")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"core.go imports example.com/m/sibling",
		"core.go imports example.com/mm/internal/x",
		"internal/b/b.go imports github.com/third/party",
	}
	if !slices.Equal(bad, want) {
		t.Errorf("got\n\t%s\nwant\n\t%s", strings.Join(bad, "\n\t"), strings.Join(want, "\n\t"))
	}
	if _, err := nonStdImports("testdata/imports/internal/missing", "example.com/m"); err == nil {
		t.Error("a package directory without Go files was not reported")
	}
}

// nonStdImports lists, sorted, the imports of anything but the standard
// library and the module's internal packages, in the non-test files of the
// package in root (the module's root directory; module is its path) and of
// the internal packages it reaches.
func nonStdImports(root, module string) ([]string, error) {
	var bad []string
	seen := map[string]bool{}
	var visit func(rel string) error
	visit = func(rel string) error {
		if seen[rel] {
			return nil
		}
		seen[rel] = true
		files, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(rel), "*.go"))
		if err != nil {
			return err
		}
		files = slices.DeleteFunc(files, func(f string) bool { return strings.HasSuffix(f, "_test.go") })
		if len(files) == 0 {
			return fmt.Errorf("no Go files for package %q in %s", rel, root)
		}
		fset := token.NewFileSet()
		for _, name := range files {
			src, err := os.ReadFile(name)
			if err != nil {
				return err
			}
			f, err := parser.ParseFile(fset, name, src, parser.ImportsOnly)
			if err != nil {
				return err
			}
			for _, imp := range f.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				rel, own := strings.CutPrefix(path, module+"/")
				switch {
				case own && strings.HasPrefix(rel, "internal/"):
					if err := visit(rel); err != nil {
						return err
					}
				case isStd(path):
				default:
					file, _ := filepath.Rel(root, name)
					bad = append(bad, filepath.ToSlash(file)+" imports "+path)
				}
			}
		}
		return nil
	}
	err := visit(".")
	slices.Sort(bad)
	return bad, err
}

// isStd reports whether an import path is the standard library's: its
// first element has no dot, as a module path's host name does.
func isStd(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}
