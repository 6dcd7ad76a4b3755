package unboundedqueue

import (
	"go/ast"
	"go/constant"
	"go/types"
	"slices"
	"strings"

	"github.com/bhlint/bhlint/internal/catalog"
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
// A service that creates a schema per tenant on a request's path does so in
// this shape too, and is missed.

// setsUpSchema reports whether fd sets up the database's schema.
func (c *checker) setsUpSchema(fd *ast.FuncDecl) bool {
	migrates, ddl, embedded, sqlFiles := false, false, false, false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			fn := c.callee(n)
			migrates = migrates || catalog.SchemaMigrations.Has(fn)
			ddl = ddl || c.isDatabaseCall(fn) && slices.ContainsFunc(n.Args, c.isDDL)
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
