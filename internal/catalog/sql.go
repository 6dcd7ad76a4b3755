package catalog

import "go/types"

// Tables for fairclaim: the SQL words that tell a job claim that is
// first-in-first-out across tenants, and the query builders whose constant
// parts make up such a claim.

// SQLPackages are the import paths a package must reach to run a SQL
// statement: a package that reaches none of them holds no claim worth
// reporting, even if it spells one in a string.
var SQLPackages = append(append([]string(nil), DBPackages...),
	"github.com/jmoiron/sqlx",
	SquirrelPath, GormPath, EntSQLPath, GoquPath,
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
)

// TenantColumns are column names that say a row belongs to one tenant of
// many. owner_id and user_id are not in it: a job owned by a user is
// usually one tenant's job among that tenant's users, and a queue per user
// ordered by age is not what the rule is about.
var TenantColumns = wordSet(
	"tenant", "tenant_id", "tenantid",
	"org", "org_id", "orgid", "organization", "organization_id", "organisation_id",
	"account_id", "workspace_id", "project_id", "team_id", "customer_id", "merchant_id",
)

// AgeColumns are columns whose order is the order jobs arrived in (or were
// due): a claim ordered only by them (and by a priority) takes the oldest
// job whichever tenant queued it.
var AgeColumns = wordSet(
	"id", "job_id", "seq", "sequence", "position",
	"created_at", "created", "inserted_at", "enqueued_at", "queued_at", "submitted_at",
	"scheduled_at", "scheduled_for", "run_at", "run_after", "available_at", "not_before",
	"visible_at", "next_run_at", "due_at",
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
	"(*" + GormPath + ".DB).Clauses":     ClauseLocking,
	"(*" + GormPath + ".DB).Order":       ClauseOrder,
	"(*" + GormPath + ".DB).Table":       ClauseFrom,
	"(*" + GormPath + ".DB).Model":       ClauseModel,
	"(*" + GormPath + ".DB).Where":       ClauseWhere,
	"(*" + GormPath + ".DB).Select":      ClauseColumns,
	"(*" + GormPath + ".DB).First":       ClauseModel,
	"(*" + GormPath + ".DB).Take":        ClauseModel,
	"(*" + GormPath + ".DB).Find":        ClauseModel,
	"(*" + GormPath + ".DB).Limit":       0,
	"(*" + GormPath + ".DB).WithContext": 0,
	"(*" + GormPath + ".DB).Begin":       0,
	"(*" + GormPath + ".DB).Session":     0,
	"(*" + GormPath + ".DB).Debug":       0,
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
}

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
	return c, ok
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
