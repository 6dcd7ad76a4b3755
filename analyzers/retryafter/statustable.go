package retryafter

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// A status read out of a table of constants by a constant key is that
// constant. Services keep their errors in a package-level map literal
// (versitygw's s3err.errorCodeResponse: ErrSlowDown → {Code: "SlowDown",
// HTTPStatusCode: http.StatusServiceUnavailable}) behind a getter
// (GetAPIError(code) returning errorCodeResponse[code]), and a handler
// writes ctx.Status(s3err.GetAPIError(s3err.ErrSlowDown).HTTPStatusCode):
// a 503 as surely as ctx.Status(503). The table is read from the map
// literal's source, the getter is known in other packages by its
// StatusTable fact. A key chosen at run time reads whichever entry it
// names, and is not followed.

// StatusTable marks a function that returns the entry of a package-level
// table its one parameter names. Sheds are the entries that hold a 429 or
// 503, by the field that holds it ("" when the entry is the status itself)
// and the key (constant.Value's ExactString), sorted: a fact's encoding
// must not depend on a map's order.
type StatusTable struct {
	Sheds []TableShed
}

// TableShed is one entry of a status table that sheds.
type TableShed struct {
	Field, Key, Status string
}

// AFact marks StatusTable as an analysis fact.
func (*StatusTable) AFact() {}

func (f *StatusTable) String() string {
	count := map[string]int{}
	for _, e := range f.Sheds {
		count[e.Field]++
	}
	var fields []string
	for field, n := range count {
		fields = append(fields, fmt.Sprintf("%s:%d", field, n))
	}
	sort.Strings(fields)
	return "statusTable(" + strings.Join(fields, ",") + ")"
}

// shed is the status of the entry at key, read from field, or "".
func (f *StatusTable) shed(field, key string) string {
	for _, e := range f.Sheds {
		if e.Field == field && e.Key == key {
			return e.Status
		}
	}
	return ""
}

// newStatusTable is the fact for a table's sheds, by field and key.
func newStatusTable(sheds map[string]map[string]string) *StatusTable {
	f := &StatusTable{}
	for field, keys := range sheds {
		for key, status := range keys {
			f.Sheds = append(f.Sheds, TableShed{Field: field, Key: key, Status: status})
		}
	}
	sort.Slice(f.Sheds, func(i, j int) bool {
		a, b := f.Sheds[i], f.Sheds[j]
		return a.Field < b.Field || a.Field == b.Field && a.Key < b.Key
	})
	return f
}

// learnStatusTables finds this package's getters of status tables and
// exports their facts.
func (c *checker) learnStatusTables() {
	c.tables = map[*types.Func]*StatusTable{}
	tables := c.statusTables()
	if len(tables) == 0 {
		return
	}
	for _, f := range c.pass.Files {
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok {
				continue
			}
			if table := tables[c.tableReturned(fd)]; table != nil {
				if fn, ok := c.pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					fact := newStatusTable(table)
					c.tables[fn] = fact
					c.pass.ExportObjectFact(fn, fact)
				}
			}
		}
	}
}

// statusTables reads the package-level map literals with constant keys
// whose entries hold a 429 or 503, as a constant or in a field of a struct
// literal.
func (c *checker) statusTables() map[*types.Var]map[string]map[string]string {
	out := map[*types.Var]map[string]map[string]string{}
	for _, f := range c.pass.Files {
		for name, value := range ssautil.PackageVars(f) {
			v, _ := c.pass.TypesInfo.Defs[name].(*types.Var)
			if sheds := c.mapLiteralSheds(value); v != nil && len(sheds) > 0 {
				out[v] = sheds
			}
		}
	}
	return out
}

func (c *checker) mapLiteralSheds(e ast.Expr) map[string]map[string]string {
	lit, ok := ast.Unparen(e).(*ast.CompositeLit)
	if !ok {
		return nil
	}
	if _, isMap := c.pass.TypesInfo.TypeOf(lit).Underlying().(*types.Map); !isMap {
		return nil
	}
	sheds := map[string]map[string]string{}
	add := func(field, key, status string) {
		if sheds[field] == nil {
			sheds[field] = map[string]string{}
		}
		sheds[field][key] = status
	}
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		key := c.pass.TypesInfo.Types[kv.Key].Value
		if key == nil {
			continue
		}
		if status := c.shedConst(kv.Value); status != "" {
			add("", key.ExactString(), status)
			continue
		}
		entry, ok := ast.Unparen(kv.Value).(*ast.CompositeLit)
		if u, isAddr := ast.Unparen(kv.Value).(*ast.UnaryExpr); isAddr && u.Op == token.AND {
			entry, ok = ast.Unparen(u.X).(*ast.CompositeLit)
		}
		if !ok {
			continue
		}
		for _, fe := range entry.Elts {
			fkv, ok := fe.(*ast.KeyValueExpr)
			if !ok {
				continue
			}
			if id, ok := fkv.Key.(*ast.Ident); ok {
				if status := c.shedConst(fkv.Value); status != "" {
					add(id.Name, key.ExactString(), status)
				}
			}
		}
	}
	return sheds
}

// shedConst is the 429 or 503 e is as an integer constant, or "".
func (c *checker) shedConst(e ast.Expr) string {
	tv := c.pass.TypesInfo.Types[e]
	if tv.Value == nil || tv.Value.Kind() != constant.Int {
		return ""
	}
	n, ok := constant.Int64Val(tv.Value)
	if !ok {
		return ""
	}
	return catalog.ShedStatuses[n]
}

// tableReturned is the package-level variable fd's body indexes with its
// one parameter and returns, as its whole body: return table[key].
func (c *checker) tableReturned(fd *ast.FuncDecl) *types.Var {
	if fd.Body == nil || len(fd.Body.List) != 1 || fd.Type.Params.NumFields() != 1 || len(fd.Type.Params.List[0].Names) != 1 {
		return nil
	}
	ret, ok := fd.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return nil
	}
	ix, ok := ast.Unparen(ret.Results[0]).(*ast.IndexExpr)
	if !ok {
		return nil
	}
	key, ok := ast.Unparen(ix.Index).(*ast.Ident)
	if !ok || c.pass.TypesInfo.Uses[key] != c.pass.TypesInfo.Defs[fd.Type.Params.List[0].Names[0]] {
		return nil
	}
	table, ok := ast.Unparen(ix.X).(*ast.Ident)
	if !ok {
		return nil
	}
	v, _ := c.pass.TypesInfo.Uses[table].(*types.Var)
	if v == nil || v.Parent() != c.pass.Pkg.Scope() {
		return nil
	}
	return v
}

// tableShed is the 429 or 503 v reads out of a status table by a constant
// key: a field of the entry a getter returns (GetAPIError(ErrSlowDown)
// .HTTPStatusCode, through a local variable or a pointer), or the entry
// itself. "" otherwise.
func (c *checker) tableShed(v ssa.Value) string {
	field, base := "", v
	switch x := v.(type) {
	case *ssa.Field:
		if f := ssautil.StructField(x.X.Type(), x.Field); f != nil {
			field = f.Name()
		}
		base = x.X
	case *ssa.UnOp:
		fa, ok := x.X.(*ssa.FieldAddr)
		if x.Op != token.MUL || !ok {
			return ""
		}
		field, base = ssautil.FieldName(fa), storedCall(fa.X)
	}
	call, ok := base.(*ssa.Call)
	if !ok || len(call.Call.Args) != 1 {
		return ""
	}
	key, ok := call.Call.Args[0].(*ssa.Const)
	if !ok || key.Value == nil {
		return ""
	}
	table := c.statusTableOf(call.Call.StaticCallee())
	if table == nil {
		return ""
	}
	return table.shed(field, key.Value.ExactString())
}

// storedCall is the call whose result ptr holds: ptr itself when the
// getter returns a pointer, or the local variable the call's result was
// stored in once (err := GetAPIError(code), addressed for a method call);
// written twice, which entry is read depends on the path: nil.
func storedCall(ptr ssa.Value) ssa.Value {
	if alloc, ok := ptr.(*ssa.Alloc); ok {
		return ssautil.StoredOnce(alloc)
	}
	return ptr
}

// statusTableOf is fn's StatusTable, learnt here or imported.
func (c *checker) statusTableOf(fn *ssa.Function) *StatusTable {
	if fn == nil {
		return nil
	}
	obj, ok := fn.Object().(*types.Func)
	if !ok {
		return nil
	}
	if t, ok := c.tables[obj]; ok {
		return t
	}
	var fact StatusTable
	if obj.Pkg() != nil && obj.Pkg() != c.pass.Pkg && c.pass.ImportObjectFact(obj, &fact) {
		return &fact
	}
	return nil
}
