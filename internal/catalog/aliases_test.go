package catalog

import (
	"go/token"
	"go/types"
	"slices"
	"testing"
)

// method makes (*path.typ).name, as the type checker would see it.
func method(path, pkgName, typ, name string) *types.Func {
	pkg := types.NewPackage(path, pkgName)
	tn := types.NewTypeName(token.NoPos, pkg, typ, nil)
	named := types.NewNamed(tn, types.NewStruct(nil, nil), nil)
	recv := types.NewVar(token.NoPos, pkg, "x", types.NewPointer(named))
	fn := types.NewFunc(token.NoPos, pkg, name, types.NewSignatureType(recv, nil, nil, nil, nil, false))
	named.AddMethod(fn)
	return fn
}

// xorm's old import path (github.com/go-xorm/xorm, which gocron builds
// with) is the same library: every table that names xorm.io/xorm covers it.
func TestXormAlias(t *testing.T) {
	for _, name := range []string{"Insert", "Get", "Exec", "Transaction"} {
		if !DatabaseWaits.Has(method("github.com/go-xorm/xorm", "xorm", "Engine", name)) {
			t.Errorf("DatabaseWaits lacks (*github.com/go-xorm/xorm.Engine).%s", name)
		}
		if !DatabaseWaits.Has(method("xorm.io/xorm", "xorm", "Engine", name)) {
			t.Errorf("DatabaseWaits lacks (*xorm.io/xorm.Engine).%s", name)
		}
	}
	if DatabaseWaits.Has(method("github.com/go-xorm/xorm", "xorm", "Engine", "Where")) {
		t.Error("DatabaseWaits has the old xorm's Where, which only builds a statement")
	}
	if ResourceTypes["*github.com/go-xorm/xorm.Engine"] != "database pool" {
		t.Error("ResourceTypes lacks the old xorm's *Engine")
	}
	if !slices.Contains(LanePackages, "github.com/go-xorm/xorm") || !slices.Contains(ORMContextHandles, "*github.com/go-xorm/xorm.Session") {
		t.Error("LanePackages or ORMContextHandles lack the old xorm")
	}
	if _, ok := HeldCalls["(*github.com/go-xorm/xorm.Session).Begin"]; !ok {
		t.Error("HeldCalls lacks the old xorm's Session.Begin")
	}
	if got, ok := aliased("xorm.io/xormish"); ok {
		t.Errorf("aliased(xorm.io/xormish) = %q: only the path itself or a name in it", got)
	}
}
