package catalog

import (
	"go/types"
	"testing"

	"github.com/bhlint/bhlint/internal/testpkgs"
)

// A table is indexed on its first lookup: keys added before it (as the
// catalogue's files do when initialised) and after it are both found, and
// adding never writes into the slice the table was made from.
func TestTableIndexesOnFirstLookup(t *testing.T) {
	pkgs := testpkgs.Types(t, "package p\n\nimport \"net/http\"\n\nvar _ = http.Get\n", "net/http")
	var httpPkg *types.Package
	for _, p := range pkgs {
		if p.Path() == "net/http" {
			httpPkg = p
		}
	}
	if httpPkg == nil {
		t.Fatal("net/http not loaded")
	}
	get := httpPkg.Scope().Lookup("Get").(*types.Func)
	post := httpPkg.Scope().Lookup("Post").(*types.Func)
	head := httpPkg.Scope().Lookup("Head").(*types.Func)
	do, _, _ := types.LookupFieldOrMethod(types.NewPointer(httpPkg.Scope().Lookup("Client").Type()), false, httpPkg, "Do")

	base := make([]string, 1, 4)
	base[0] = "net/http.Get"
	table := NewTable(base...)
	table.Add("net/http.Post")
	if got := base[:2][1]; got != "" {
		t.Errorf("Add wrote %q into the caller's array", got)
	}
	if !table.Has(get) || !table.Has(post) {
		t.Errorf("Has(Get), Has(Post) = %t, %t before any other lookup; want true, true", table.Has(get), table.Has(post))
	}
	table.Add("(*net/http.Client).*")
	if !table.Has(do.(*types.Func)) {
		t.Error("a receiver added after the first lookup is not found")
	}
	if table.Has(head) {
		t.Error("Has(Head) = true, want false")
	}
}
