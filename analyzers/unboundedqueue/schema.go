package unboundedqueue

import (
	"go/ast"
	"go/constant"
	"go/types"
	"slices"
	"strings"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/pkgscope"
)

// A schema is set up before a service can serve: its requests need the
// tables. A function that sets one up runs at start-up (or in a migrate
// command), and the waits in it queue behind no request: shape 4 does not
// report them. It sets up a schema when it
//   - calls a schema migration library (catalog.SchemaMigrations:
//     golang-migrate, goose, sql-migrate, gorm's AutoMigrate, xorm's Sync);
//   - runs a constant DDL statement on a pool (CREATE, ALTER or DROP of a
//     table, index, view, schema…; a temporary table is a query's scratch,
//     made per request);
//   - reads SQL scripts out of the program's embedded files (an embed.FS
//     read, and a constant naming .sql files: migrations, seed data).
// A DDL statement may be a constant at the call, a package variable
// initialised with one, or the element of a list of them a loop runs (for _, stmt := range schema { db.Exec(stmt) }, schema a
// package variable holding constant statements). A function of the package
// that calls one that sets up the schema (a driver's New: open the pool,
// create the tables, migrate the rows) runs at start-up too.
// A service that creates a schema per tenant on a request's path does so in
// this shape too, and is missed.

// setsUpSchema reports whether fd sets up the database's schema, itself or
// through a function of its package it calls.
func (c *checker) setsUpSchema(fd *ast.FuncDecl) bool {
	if c.schemaSetters == nil {
		c.schemaSetters = c.learnSchemaSetters()
	}
	obj, _ := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
	return obj != nil && c.schemaSetters[obj] || obj == nil && c.setsUpSchemaItself(fd)
}

// learnSchemaSetters are the package's functions that set up the schema,
// to a fixed point over its static calls.
func (c *checker) learnSchemaSetters() map[*types.Func]bool {
	setters := map[*types.Func]bool{}
	if !pkgscope.Reaches(c.pass.Pkg, catalog.DBPackages) {
		return setters // a package that can hold no connection changes no schema
	}
	calls := map[*types.Func][]*types.Func{}
	for _, d := range c.funcDecls(true) {
		if c.setsUpSchemaItself(d.fd) {
			setters[d.obj] = true
			continue
		}
		ast.Inspect(d.fd.Body, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if fn := c.callee(call); fn != nil && fn.Pkg() == c.pass.Pkg {
					calls[d.obj] = append(calls[d.obj], fn.Origin())
				}
			}
			return true
		})
	}
	for changed := true; changed; {
		changed = false
		for caller, callees := range calls {
			if !setters[caller] && slices.ContainsFunc(callees, func(fn *types.Func) bool { return setters[fn] }) {
				setters[caller] = true
				changed = true
			}
		}
	}
	return setters
}

// setsUpSchemaItself reports whether fd's own body sets up the schema.
func (c *checker) setsUpSchemaItself(fd *ast.FuncDecl) bool {
	migrates, ddl, embedded, sqlFiles := false, false, false, false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			fn := c.callee(n)
			migrates = migrates || catalog.SchemaMigrations.Has(fn)
			ddl = ddl || c.isDatabaseCall(fn) && slices.ContainsFunc(n.Args, func(e ast.Expr) bool {
				return c.isDDL(e) || c.namesDDL(e) || c.rangesOverDDL(fd, e)
			})
			embedded = embedded || c.readsEmbedded(n)
		case ast.Expr:
			if s, ok := c.constString(n); ok && strings.Contains(strings.ToLower(s), ".sql") {
				sqlFiles = true
			}
		}
		return true
	})
	return migrates || ddl || embedded && sqlFiles
}

func (c *checker) isDatabaseCall(fn *types.Func) bool {
	return catalog.SlotWaits.Has(fn) || catalog.ContextlessSlotWaits.Has(fn) || catalog.DatabaseWaits.Has(fn)
}

// isDDL reports whether e is a constant statement that changes the schema.
func (c *checker) isDDL(e ast.Expr) bool {
	s, ok := c.constString(e)
	if !ok {
		return false
	}
	fields := strings.Fields(strings.ToUpper(stripSQLComments(s)))
	if len(fields) < 2 {
		return false
	}
	switch fields[0] {
	case "CREATE":
		return fields[1] != "TEMP" && fields[1] != "TEMPORARY"
	case "ALTER", "DROP":
		return true
	}
	return false
}

// rangesOverDDL reports whether e is the value of a range statement of fd
// over a package variable initialised with a list of constant statements,
// one of which changes the schema.
func (c *checker) rangesOverDDL(fd *ast.FuncDecl, e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	v := c.pass.TypesInfo.ObjectOf(id)
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		r, ok := n.(*ast.RangeStmt)
		if !ok || found {
			return !found
		}
		if val, ok := r.Value.(*ast.Ident); ok && c.pass.TypesInfo.Defs[val] == v {
			found = c.listsDDL(r.X)
		}
		return !found
	})
	return found
}

// listsDDL reports whether x names a package variable whose initial value
// is a composite literal holding a constant DDL statement.
func (c *checker) listsDDL(x ast.Expr) bool {
	lit, ok := c.packageVarInit(x).(*ast.CompositeLit)
	return ok && slices.ContainsFunc(lit.Elts, c.isDDL)
}

// namesDDL reports whether e names a package variable initialised with a
// constant DDL statement (var keyChangesSchema = `CREATE TABLE …`).
func (c *checker) namesDDL(e ast.Expr) bool {
	init := c.packageVarInit(e)
	return init != nil && c.isDDL(init)
}

// packageVarInit is the initial value of the package variable x names, or
// nil.
func (c *checker) packageVarInit(x ast.Expr) ast.Expr {
	id, ok := ast.Unparen(x).(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := c.pass.TypesInfo.ObjectOf(id).(*types.Var)
	if !ok || v.Parent() != c.pass.Pkg.Scope() {
		return nil
	}
	for _, f := range c.pass.Files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, spec := range gd.Specs {
				vs, ok := spec.(*ast.ValueSpec)
				if !ok {
					continue
				}
				for i, name := range vs.Names {
					if c.pass.TypesInfo.Defs[name] == v && i < len(vs.Values) {
						return vs.Values[i]
					}
				}
			}
		}
	}
	return nil
}

// stripSQLComments drops the -- comments a schema constant starts with.
func stripSQLComments(s string) string {
	var b strings.Builder
	for line := range strings.Lines(s) {
		if i := strings.Index(line, "--"); i >= 0 {
			line = line[:i] + "\n"
		}
		b.WriteString(line)
	}
	return b.String()
}

// readsEmbedded reports whether call reads the program's embedded files:
// a method of an embed.FS, or a function handed one (fs.Glob(migrations, …)).
func (c *checker) readsEmbedded(call *ast.CallExpr) bool {
	isEmbed := func(e ast.Expr) bool {
		t := c.pass.TypesInfo.TypeOf(e)
		return t != nil && isNamed(t, "embed", "FS")
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && isEmbed(sel.X) {
		return true
	}
	return slices.ContainsFunc(call.Args, isEmbed)
}

func (c *checker) constString(e ast.Expr) (string, bool) {
	tv, ok := c.pass.TypesInfo.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(tv.Value), true
}
