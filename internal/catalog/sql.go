package catalog

import (
	"go/types"
	"strings"
)

// Tables for fairclaim: the SQL words that tell a job claim that is
// first-in-first-out across tenants, and the query builders whose constant
// parts make up such a claim.

// SQLPackages are the import paths a package must reach to run a SQL
// statement: a package that reaches none of them holds no claim worth
// reporting, even if it spells one in a string.
var SQLPackages = append(append([]string(nil), DBPackages...),
	"github.com/jmoiron/sqlx",
	SquirrelPath, GormPath, EntSQLPath, GoquPath, XormPath,
)

// Import paths of the query builders with rows below.
const (
	SquirrelPath = "github.com/Masterminds/squirrel"
	GormPath     = "gorm.io/gorm"
	// GormClausePath holds gorm's clause.Locking, the struct a locking claim
	// passes to (*gorm.DB).Clauses.
	GormClausePath = "gorm.io/gorm/clause"
	// EntSQLPath is ent's SQL dialect, which every generated ent client
	// imports: its LockOption types the generated ForUpdate.
	EntSQLPath = "entgo.io/ent/dialect/sql"
	GoquPath   = "github.com/doug-martin/goqu/v9"
	XormPath   = "xorm.io/xorm"
	// XormBuilderPath holds xorm's conditions (builder.Eq{…}, builder.NewCond()).
	XormBuilderPath = "xorm.io/builder"
)

// TenantColumns are column names that say a row belongs to one tenant of
// many. user_id is not in it: a user is who acted (who enqueued, who
// triggered), usually one of a tenant's users, and a queue per user ordered
// by age is not what the rule is about.
var TenantColumns = wordSet(
	"tenant", "tenant_id", "tenantid",
	"org", "org_id", "orgid", "organization", "organization_id", "organisation_id",
	"account_id", "workspace_id", "project_id", "team_id", "customer_id", "merchant_id",
)

// OwnerColumns name the account that owns the work (an organisation or a
// user: gitea's owner_id). The owner is the tenant of rows that carry no
// column of TenantColumns — it is then the widest party the rows are
// divided by; beside a tenant column it is one of that tenant's accounts,
// and the tenant column is the one reported. Bound to one value (owner_id
// = ?) it scopes a claim to one owner, as a tenant column does.
var OwnerColumns = wordSet("owner_id", "ownerid")

// AgeColumns are columns whose order is the order jobs arrived in (or were
// due): a claim ordered only by them (and by a priority) takes the oldest
// job whichever tenant queued it.
var AgeColumns = wordSet(
	"id", "job_id", "seq", "sequence", "position",
	"created_at", "created", "inserted_at", "enqueued_at", "queued_at", "submitted_at",
	"scheduled_at", "scheduled_for", "run_at", "run_after", "available_at", "not_before",
	"visible_at", "next_run_at", "due_at",
	// The time a waiting row last changed is when it became waiting (a
	// blocked job released, a job re-queued): ordered by it, the oldest
	// waiting job comes first (gitea's Asc("updated", "id")).
	"updated", "updated_at",
)

// PriorityColumns order jobs by a priority the job carries. A priority and
// then the age is still first-in-first-out across tenants within each
// priority, which is where one tenant's backlog sits.
var PriorityColumns = wordSet("priority", "prio", "weight")

// RunningStates are the states of a job being run. A locking SELECT that
// requires one (WHERE state = 'running' AND lease_until < now()) is a
// reaper taking back expired leases, or a heartbeat, not a claim of queued
// work. The bare word counts too: a statement written with a placeholder
// (state = RUNNING) that the program fills in.
var RunningStates = wordSet("running", "executing", "processing", "in_progress", "started", "claimed", "locked", "working")

// WaitingStates are the values of a state column that say a job is not
// claimed yet. A compare-and-set update that requires one (WHERE id = $1
// AND status = 'pending') takes the row only if no other worker did: a
// claim without a lock. The zero values (claimed_by IS NULL, task_id = 0,
// owner = ”) say the same of a claim column.
var WaitingStates = wordSet("pending", "queued", "waiting", "new", "ready", "available", "unclaimed")

// SQLClause is the part of a statement a query builder's method adds.
type SQLClause int

// The clauses a builder row can add.
const (
	ClauseColumns    SQLClause = iota + 1 // the SELECT list (constant strings)
	ClauseFrom                            // the table (a constant string)
	ClauseWhere                           // a condition (a constant string, or a map literal keyed by column)
	ClauseOrder                           // ORDER BY items (constant strings)
	ClauseSuffix                          // SQL text appended to the statement (FOR UPDATE SKIP LOCKED)
	ClauseLocking                         // gorm's Clauses: a clause.Locking literal among the arguments
	ClauseModel                           // gorm's Model, or a finisher's destination: the model struct
	ClauseLockOption                      // goqu's ForUpdate: a constant of SQLSkipLocked as its first argument
	ClauseRead                            // a finisher reading rows into its argument (gorm's First, xorm's Find): the model
	ClauseUpdate                          // a finisher updating rows from its argument (gorm's Updates, xorm's Update)
	ClauseKey                             // xorm's ID(v): the row whose primary key is v (id = ?)
)

// SQLBuilders are query builder methods keyed as Key prints them, with the
// clause each adds. A claim is read from one chain of calls (sq.Select(…).
// From(…).OrderBy(…).Suffix(…)); a chain built up over several statements
// is not followed.
var SQLBuilders = map[string]SQLClause{
	// squirrel
	SquirrelPath + ".Select":                                 ClauseColumns,
	"(" + SquirrelPath + ".StatementBuilderType).Select":     ClauseColumns,
	"(" + SquirrelPath + ".SelectBuilder).Columns":           ClauseColumns,
	"(" + SquirrelPath + ".SelectBuilder).Column":            ClauseColumns,
	"(" + SquirrelPath + ".SelectBuilder).From":              ClauseFrom,
	"(" + SquirrelPath + ".SelectBuilder).Where":             ClauseWhere,
	"(" + SquirrelPath + ".SelectBuilder).OrderBy":           ClauseOrder,
	"(" + SquirrelPath + ".SelectBuilder).Suffix":            ClauseSuffix,
	"(" + SquirrelPath + ".SelectBuilder).PlaceholderFormat": 0,
	"(" + SquirrelPath + ".SelectBuilder).Limit":             0,
	"(" + SquirrelPath + ".SelectBuilder).RunWith":           0,
	// gorm
	"(*" + GormPath + ".DB).Clauses":       ClauseLocking,
	"(*" + GormPath + ".DB).Order":         ClauseOrder,
	"(*" + GormPath + ".DB).Table":         ClauseFrom,
	"(*" + GormPath + ".DB).Model":         ClauseModel,
	"(*" + GormPath + ".DB).Where":         ClauseWhere,
	"(*" + GormPath + ".DB).Select":        ClauseColumns,
	"(*" + GormPath + ".DB).First":         ClauseRead,
	"(*" + GormPath + ".DB).Take":          ClauseRead,
	"(*" + GormPath + ".DB).Find":          ClauseRead,
	"(*" + GormPath + ".DB).Update":        ClauseUpdate,
	"(*" + GormPath + ".DB).Updates":       ClauseUpdate,
	"(*" + GormPath + ".DB).UpdateColumn":  ClauseUpdate,
	"(*" + GormPath + ".DB).UpdateColumns": ClauseUpdate,
	"(*" + GormPath + ".DB).Limit":         0,
	"(*" + GormPath + ".DB).WithContext":   0,
	"(*" + GormPath + ".DB).Begin":         0,
	"(*" + GormPath + ".DB).Session":       0,
	"(*" + GormPath + ".DB).Debug":         0,
	// goqu
	GoquPath + ".Dialect":                              0,
	GoquPath + ".From":                                 ClauseFrom,
	GoquPath + ".Select":                               ClauseColumns,
	"(" + GoquPath + ".DialectWrapper).From":           ClauseFrom,
	"(" + GoquPath + ".DialectWrapper).Select":         ClauseColumns,
	"(*" + GoquPath + ".SelectDataset).From":           ClauseFrom,
	"(*" + GoquPath + ".SelectDataset).Select":         ClauseColumns,
	"(*" + GoquPath + ".SelectDataset).Where":          ClauseWhere,
	"(*" + GoquPath + ".SelectDataset).Order":          ClauseOrder,
	"(*" + GoquPath + ".SelectDataset).ForUpdate":      ClauseLockOption,
	"(*" + GoquPath + ".SelectDataset).ForNoKeyUpdate": ClauseLockOption,
	"(*" + GoquPath + ".SelectDataset).Limit":          0,
	// xorm: an Engine's methods start a Session, whose methods chain
	"(*" + XormPath + ".Engine).Where":            ClauseWhere,
	"(*" + XormPath + ".Engine).Table":            ClauseFrom,
	"(*" + XormPath + ".Engine).Asc":              ClauseOrder,
	"(*" + XormPath + ".Engine).Desc":             ClauseOrder,
	"(*" + XormPath + ".Engine).OrderBy":          ClauseOrder,
	"(*" + XormPath + ".Engine).ID":               ClauseKey,
	"(*" + XormPath + ".Engine).Cols":             0,
	"(*" + XormPath + ".Engine).Limit":            0,
	"(*" + XormPath + ".Engine).Context":          0,
	"(*" + XormPath + ".Session).Where":           ClauseWhere,
	"(*" + XormPath + ".Session).And":             ClauseWhere,
	"(*" + XormPath + ".Session).Table":           ClauseFrom,
	"(*" + XormPath + ".Session).Asc":             ClauseOrder,
	"(*" + XormPath + ".Session).Desc":            ClauseOrder,
	"(*" + XormPath + ".Session).OrderBy":         ClauseOrder,
	"(*" + XormPath + ".Session).ID":              ClauseKey,
	"(*" + XormPath + ".Session).Find":            ClauseRead,
	"(*" + XormPath + ".Session).Get":             ClauseRead,
	"(*" + XormPath + ".Session).Update":          ClauseUpdate,
	"(*" + XormPath + ".Session).Cols":            0,
	"(*" + XormPath + ".Session).Limit":           0,
	"(*" + XormPath + ".Session).Context":         0,
	"(*" + XormPath + ".Session).NoAutoCondition": 0,
}

// SQLConditionMaps are the map types whose literal is a list of conditions
// keyed by column (squirrel's Eq{"tenant_id": id}, xorm's builder.Eq{…}):
// each key is bound to its value.
var SQLConditionMaps = wordSet(SquirrelPath+".Eq", XormBuilderPath+".Eq", GoquPath+"/exp.Ex")

// SQLEmptyConditions make a condition that binds nothing, to be narrowed
// later or left as it is (jobCond := builder.NewCond()).
var SQLEmptyConditions = newTable(XormBuilderPath + ".NewCond")

// SQLIdentifiers are builder functions that name a column or a table by a
// constant (goqu.C("created_at"), goqu.I("j.created_at"), goqu.T("jobs")):
// a method called on what they return is a condition (Eq, In, …) or an
// order term (Asc, Desc) of that column.
var SQLIdentifiers = newTable(GoquPath+".C", GoquPath+".I", GoquPath+".T")

// SQLEqualityMethods are the condition methods of an identifier that bind
// it to one value; SQLListMethods match it against a list.
var (
	SQLEqualityMethods = wordSet("Eq")
	SQLListMethods     = wordSet("In")
)

// SQLSkipLocked are the constants a builder's lock method takes to ask
// for SKIP LOCKED (goqu's ForUpdate(exp.SkipLocked)), by package path and
// name.
var SQLSkipLocked = wordSet(GoquPath + "/exp.SkipLocked")

// SQLBuilderClause is the clause fn adds to a statement, and whether fn is a
// builder method of the table at all (a row with clause 0 is a link of the
// chain that adds nothing the claim's shape depends on).
func SQLBuilderClause(fn *types.Func) (SQLClause, bool) {
	if fn == nil || fn.Pkg() == nil {
		return 0, false
	}
	c, ok := SQLBuilders[Key(fn)]
	if !ok {
		c, ok = SQLBuilders[facadeKey(fn)]
	}
	return c, ok
}

// IsXorm reports whether fn is a method of xorm's, directly or through an
// interface over it.
func IsXorm(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	k := Key(fn)
	if f := facadeKey(fn); f != "" {
		k = f
	}
	return strings.HasPrefix(k, "(*"+XormPath+".")
}

// facadeKey reads a method of an interface that returns a builder as the
// builder's method of the same name: an application's handle interface
// over the library (gitea's db.Engine, whose Where returns *xorm.Session)
// adds nothing to the statement. It is "" for any other method.
func facadeKey(fn *types.Func) string {
	recv := fn.Signature().Recv()
	if recv == nil || !types.IsInterface(recv.Type()) {
		return ""
	}
	for v := range fn.Signature().Results().Variables() {
		t, star := v.Type(), ""
		if p, ok := t.(*types.Pointer); ok {
			t, star = p.Elem(), "*"
		}
		if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil {
			return "(" + star + n.Obj().Pkg().Path() + "." + n.Obj().Name() + ")." + fn.Name()
		}
	}
	return ""
}

// GormLocking is the type of gorm's locking clause, and its fields: a
// claim's Strength is "UPDATE" (or "NO KEY UPDATE") and its Options "SKIP
// LOCKED".
const GormLocking = GormClausePath + ".Locking"

func wordSet(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// EntLocking describes ent's generated query builders, which have no fixed
// import path (each user generates their own), by what they share: a
// query type (JobQuery) is one with a method Lock whose parameters are
// ent's LockOption; Where and Order are its condition and order methods;
// NewQuery starts one;
// LockAction wraps the constant action (SKIP LOCKED). Its entity's package
// (ent/job) holds the Table constant, a Field… constant per column, a
// By… order function per column and a predicate function per column and
// operator (TenantIDEQ).
var EntLocking = struct {
	Lock, Where, Order string
	NewQuery           string // the client's method that starts a query (client.Job.Query())
	LockOption         string
	LockAction         string
	OrderBy, Asc, Desc string
	Table, FieldPrefix string
	EqualityPredicates []string
}{
	Lock: "ForUpdate", Where: "Where", Order: "Order", NewQuery: "Query",
	LockOption: EntSQLPath + ".LockOption",
	LockAction: EntSQLPath + ".WithLockAction",
	OrderBy:    "By", Asc: "Asc", Desc: "Desc",
	Table: "Table", FieldPrefix: "Field",
	EqualityPredicates: []string{"", "EQ"},
}
