package fairclaim

import (
	"go/ast"
	"go/constant"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// ent generates a query builder per entity (client.Job.Query() is a
// *ent.JobQuery), so its methods have no fixed names to put in a table:
// a query type is known by its locking method's parameter, ent's
// LockOption, and its entity's package by the functions passed to Where
// and Order (job.StatusEQ, job.ByCreatedAt).

// entQueryOf returns the ent query type fn is a method of, or nil.
func entQueryOf(fn *types.Func) *types.Named {
	if fn == nil {
		return nil
	}
	recv := fn.Signature().Recv()
	if recv == nil {
		return nil
	}
	ptr, ok := recv.Type().(*types.Pointer)
	if !ok {
		return nil
	}
	named, ok := types.Unalias(ptr.Elem()).(*types.Named)
	if !ok {
		return nil
	}
	lock, _, _ := types.LookupFieldOrMethod(ptr, false, named.Obj().Pkg(), catalog.EntLocking.Lock)
	lockFn, ok := lock.(*types.Func)
	if !ok || lockFn.Signature().Params().Len() != 1 || !lockFn.Signature().Variadic() {
		return nil
	}
	opt, _ := types.Unalias(lockFn.Signature().Params().At(0).Type().(*types.Slice).Elem()).(*types.Named)
	if opt == nil || opt.Obj().Pkg() == nil || opt.Obj().Pkg().Path()+"."+opt.Obj().Name() != catalog.EntLocking.LockOption {
		return nil
	}
	return named
}

// entQuery is what an ent chain says: the statement put together, and the
// entity's package.
type entQuery struct {
	built  builtQuery
	entity *types.Package
}

// collectEntChain reads a chain of methods of one ent query type, from
// the outermost call in.
func (c *checker) collectEntChain(call *ast.CallExpr, seen map[*ast.CallExpr]bool, generated bool, holder types.Object) {
	var q entQuery
	fresh := false
	for cur := call; cur != nil; cur = ssautil.ReceiverCall(cur) {
		fn, _ := typeutil.Callee(c.pass.TypesInfo, cur).(*types.Func)
		if entQueryOf(fn) == nil {
			// client.Job.Query() starts a query with no conditions; a
			// helper or a variable may have added some.
			fresh = fn != nil && fn.Name() == catalog.EntLocking.NewQuery
			break
		}
		seen[cur] = true
		switch fn.Name() {
		case catalog.EntLocking.Lock:
			if c.entSkipLocked(cur) {
				q.built.suffix, q.built.lockAt = "FOR UPDATE SKIP LOCKED", cur
			}
		case catalog.EntLocking.Where:
			q.built.wheres = append(c.entConditions(&q, cur), q.built.wheres...)
		case catalog.EntLocking.Order:
			q.built.orders = append(c.entOrders(&q, cur), q.built.orders...)
		}
	}
	if !fresh || q.built.lockAt == nil || q.built.unknown || q.entity == nil {
		return
	}
	q.built.table = entTable(q.entity)
	for _, cl := range fifoClaims(q.built.sql()) {
		c.sites = append(c.sites, site{pos: selPos(q.built.lockAt), claim: cl, generated: generated, holder: holder, entity: q.entity})
	}
}

// entSkipLocked reports whether a ForUpdate call is given
// sql.WithLockAction(sql.SkipLocked).
func (c *checker) entSkipLocked(call *ast.CallExpr) bool {
	for _, arg := range call.Args {
		inner, ok := ast.Unparen(arg).(*ast.CallExpr)
		if !ok || len(inner.Args) != 1 {
			continue
		}
		fn, _ := typeutil.Callee(c.pass.TypesInfo, inner).(*types.Func)
		if fn == nil || catalog.Key(fn) != catalog.EntLocking.LockAction {
			continue
		}
		if s, ok := c.constString(inner.Args[0]); ok && strings.EqualFold(s, "SKIP LOCKED") {
			return true
		}
	}
	return false
}

// entConditions reads Where's predicates, each a call of a function of the
// entity's package named for a column and an operator (StatusEQ,
// TenantIDIn): a tenant column with EQ (or none) is bound, with another
// operator only mentioned. Any other predicate (job.Or(…), an edge's
// HasOwnerWith) makes the chain unreadable.
func (c *checker) entConditions(q *entQuery, call *ast.CallExpr) []string {
	var out []string
	for _, arg := range call.Args {
		fn := c.entityFunc(q, arg)
		if fn == nil {
			q.built.unknown = true
			return nil
		}
		col, op := entColumnOf(fn.Pkg(), fn.Name())
		switch {
		case col == "":
			q.built.unknown = true
			return nil
		case slices.Contains(catalog.EntLocking.EqualityPredicates, op):
			out = append(out, col+" = ?")
		default:
			out = append(out, col+" "+op+" (?)")
		}
	}
	return out
}

// entOrders reads Order's terms: job.ByCreatedAt(…), or the older
// ent.Asc("created_at").
func (c *checker) entOrders(q *entQuery, call *ast.CallExpr) []string {
	var out []string
	for _, arg := range call.Args {
		inner, _ := ast.Unparen(arg).(*ast.CallExpr)
		fn := c.entityFunc(q, arg)
		switch {
		case fn != nil && strings.HasPrefix(fn.Name(), catalog.EntLocking.OrderBy):
			col, _ := entColumnOf(fn.Pkg(), strings.TrimPrefix(fn.Name(), catalog.EntLocking.OrderBy))
			if col == "" {
				q.built.unknown = true
				return nil
			}
			out = append(out, col)
		case inner != nil && c.isEntAscDesc(inner):
			out = append(out, c.constArgs(inner, &q.built.unknown)...)
		default:
			q.built.unknown = true
			return nil
		}
	}
	return out
}

func (c *checker) isEntAscDesc(call *ast.CallExpr) bool {
	fn, _ := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	return fn != nil && fn.Signature().Recv() == nil && (fn.Name() == catalog.EntLocking.Asc || fn.Name() == catalog.EntLocking.Desc)
}

// entityFunc returns the package-level function arg calls when it belongs
// to an entity's package (one with a Table constant), recording the
// package in q.
func (c *checker) entityFunc(q *entQuery, arg ast.Expr) *types.Func {
	call, ok := ast.Unparen(arg).(*ast.CallExpr)
	if !ok {
		return nil
	}
	fn, _ := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	if fn == nil || fn.Pkg() == nil || fn.Signature().Recv() != nil || entTable(fn.Pkg()) == "" {
		return nil
	}
	if q.entity == nil {
		q.entity = fn.Pkg()
	}
	return fn
}

// entColumnOf splits a predicate's name into the column it is named for
// (the longest Field… constant of pkg that prefixes it) and the operator
// left: TenantIDIn is tenant_id and In.
func entColumnOf(pkg *types.Package, name string) (column, op string) {
	best := ""
	for _, cname := range pkg.Scope().Names() {
		field, ok := strings.CutPrefix(cname, catalog.EntLocking.FieldPrefix)
		if !ok || !strings.HasPrefix(name, field) || len(field) <= len(best) {
			continue
		}
		if v := constValue(pkg.Scope().Lookup(cname)); v != "" {
			best, column = field, v
		}
	}
	return column, strings.TrimPrefix(name, best)
}

// entTable is the value of the entity package's Table constant, or "".
func entTable(pkg *types.Package) string {
	return constValue(pkg.Scope().Lookup(catalog.EntLocking.Table))
}

// entTenant is the tenant column among the entity's Field… constants.
func entTenant(pkg *types.Package) (column, constName string) {
	for _, cname := range pkg.Scope().Names() {
		if !strings.HasPrefix(cname, catalog.EntLocking.FieldPrefix) {
			continue
		}
		v := constValue(pkg.Scope().Lookup(cname))
		if catalog.TenantColumns[v] {
			return v, cname
		}
		if catalog.OwnerColumns[v] && column == "" {
			column, constName = v, cname // the tenant unless a tenant column is found
		}
	}
	return column, constName
}

func constValue(obj types.Object) string {
	k, ok := obj.(*types.Const)
	if !ok || k.Val().Kind() != constant.String {
		return ""
	}
	return constant.StringVal(k.Val())
}
