package catalog

// Tables for heldconn beyond network calls: statements prepared on a pool,
// handles that share their pool with another, and waits on other processes.

// SubprocessPackages are the import paths through which a package can start
// and wait for another process.
var SubprocessPackages = []string{"os/exec"}

// Subprocesses are calls that wait for another process to finish: a git
// command with hooks, a converter, a script. A connection held across one is
// held as long as the process runs.
var Subprocesses = newTable(
	"(*os/exec.Cmd).Run", "(*os/exec.Cmd).Output", "(*os/exec.Cmd).CombinedOutput",
	"(*os/exec.Cmd).Wait",
)

// PoolPrepares prepare a statement on a pool. Each execution of the
// statement takes a connection from that pool (database/sql re-prepares it
// on whichever connection it gets), unlike a statement prepared on a
// transaction or bound to one with tx.Stmt.
var PoolPrepares = newTable(
	"(*database/sql.DB).Prepare", "(*database/sql.DB).PrepareContext",
	"(*github.com/jmoiron/sqlx.DB).Preparex", "(*github.com/jmoiron/sqlx.DB).PreparexContext",
	"(*github.com/jmoiron/sqlx.DB).PrepareNamed", "(*github.com/jmoiron/sqlx.DB).PrepareNamedContext",
)

// StmtTypes are prepared statements. Executing one prepared on a pool takes a
// connection from the pool.
var StmtTypes = []string{
	"*database/sql.Stmt", "*github.com/jmoiron/sqlx.Stmt", "*github.com/jmoiron/sqlx.NamedStmt",
}

// StmtExecs run a prepared statement.
var StmtExecs = newTable(
	"(*database/sql.Stmt).Exec", "(*database/sql.Stmt).ExecContext",
	"(*database/sql.Stmt).Query", "(*database/sql.Stmt).QueryContext",
	"(*database/sql.Stmt).QueryRow", "(*database/sql.Stmt).QueryRowContext",
	"(*github.com/jmoiron/sqlx.Stmt).Get", "(*github.com/jmoiron/sqlx.Stmt).GetContext",
	"(*github.com/jmoiron/sqlx.Stmt).Select", "(*github.com/jmoiron/sqlx.Stmt).SelectContext",
	"(*github.com/jmoiron/sqlx.Stmt).Queryx", "(*github.com/jmoiron/sqlx.Stmt).QueryxContext",
	"(*github.com/jmoiron/sqlx.Stmt).QueryRowx", "(*github.com/jmoiron/sqlx.Stmt).QueryRowxContext",
	"(*github.com/jmoiron/sqlx.Stmt).MustExec", "(*github.com/jmoiron/sqlx.Stmt).MustExecContext",
	"(*github.com/jmoiron/sqlx.NamedStmt).Exec", "(*github.com/jmoiron/sqlx.NamedStmt).ExecContext",
	"(*github.com/jmoiron/sqlx.NamedStmt).Get", "(*github.com/jmoiron/sqlx.NamedStmt).GetContext",
	"(*github.com/jmoiron/sqlx.NamedStmt).Select", "(*github.com/jmoiron/sqlx.NamedStmt).SelectContext",
	"(*github.com/jmoiron/sqlx.NamedStmt).Queryx", "(*github.com/jmoiron/sqlx.NamedStmt).QueryxContext",
	"(*github.com/jmoiron/sqlx.NamedStmt).QueryRowx", "(*github.com/jmoiron/sqlx.NamedStmt).QueryRowxContext",
	"(*github.com/jmoiron/sqlx.NamedStmt).MustExec", "(*github.com/jmoiron/sqlx.NamedStmt).MustExecContext",
)

// SamePoolHandles return a handle on the pool of their receiver: sqlx's
// Unsafe copies the *sqlx.DB but keeps its *sql.DB.
var SamePoolHandles = newTable("(*github.com/jmoiron/sqlx.DB).Unsafe")

// sqlxAcquires are sqlx's pool methods that take a connection.
var sqlxAcquires = []string{
	"(*github.com/jmoiron/sqlx.DB).MustBegin", "(*github.com/jmoiron/sqlx.DB).MustBeginTx",
	"(*github.com/jmoiron/sqlx.DB).Connx",
	"(*github.com/jmoiron/sqlx.DB).QueryRowx", "(*github.com/jmoiron/sqlx.DB).QueryRowxContext",
	"(*github.com/jmoiron/sqlx.DB).NamedQuery", "(*github.com/jmoiron/sqlx.DB).NamedQueryContext",
	"(*github.com/jmoiron/sqlx.DB).MustExec", "(*github.com/jmoiron/sqlx.DB).MustExecContext",
	"(*github.com/jmoiron/sqlx.DB).Preparex", "(*github.com/jmoiron/sqlx.DB).PreparexContext",
	"(*github.com/jmoiron/sqlx.DB).PrepareNamed", "(*github.com/jmoiron/sqlx.DB).PrepareNamedContext",
}

// sqlxSlotWaits are sqlx's calls that wait for a connection for as long as
// their context allows, as (*sql.DB).BeginTx does.
var sqlxSlotWaits = []string{
	"(*github.com/jmoiron/sqlx.DB).BeginTxx", "(*github.com/jmoiron/sqlx.DB).MustBeginTx",
	"(*github.com/jmoiron/sqlx.DB).Connx",
	"(*github.com/jmoiron/sqlx.DB).GetContext", "(*github.com/jmoiron/sqlx.DB).SelectContext",
	"(*github.com/jmoiron/sqlx.DB).QueryxContext", "(*github.com/jmoiron/sqlx.DB).QueryRowxContext",
	"(*github.com/jmoiron/sqlx.DB).NamedExecContext", "(*github.com/jmoiron/sqlx.DB).NamedQueryContext",
	"(*github.com/jmoiron/sqlx.DB).MustExecContext", "(*github.com/jmoiron/sqlx.DB).PreparexContext",
	"(*github.com/jmoiron/sqlx.DB).PrepareNamedContext",
}

// The rows above extend tables declared with the rest of their kind
// (PoolAcquires in catalog.go, SlotWaits in queue.go).
func init() {
	PoolAcquires.Add(sqlxAcquires...)
	SlotWaits.Add(sqlxSlotWaits...)
	for k, i := range ormTxCallbacks {
		TxCallbacks[k] = i
	}
}

// HeldCall is an ORM call that begins a transaction whose handle is not a
// held type by itself: gorm's Begin returns the same *gorm.DB type as the
// pool; xorm's Session.Begin returns only an error and the session it is
// called on is held from then on.
type HeldCall struct {
	HeldKind
	// OnReceiver: the receiver is held after the call (xorm's Session.Begin),
	// not the result.
	OnReceiver bool
}

// HeldCalls are calls that begin a transaction on an ORM handle, by function
// key. The handle is held until one of Release is called on it.
var HeldCalls = map[string]HeldCall{
	"(*gorm.io/gorm.DB).Begin":             {HeldKind: HeldKind{Noun: "transaction", Release: []string{"Commit", "Rollback"}}},
	"(*github.com/jinzhu/gorm.DB).Begin":   {HeldKind: HeldKind{Noun: "transaction", Release: []string{"Commit", "Rollback"}}},
	"(*github.com/jinzhu/gorm.DB).BeginTx": {HeldKind: HeldKind{Noun: "transaction", Release: []string{"Commit", "Rollback"}}},
	"(*xorm.io/xorm.Session).Begin": {HeldKind: HeldKind{Noun: "transaction", Release: []string{"Commit", "Rollback", "Close"}},
		OnReceiver: true},
	"(*github.com/go-xorm/xorm.Session).Begin": {HeldKind: HeldKind{Noun: "transaction", Release: []string{"Commit", "Rollback", "Close"}},
		OnReceiver: true},
}

// ormTxCallbacks are the ORMs' own transaction helpers: each begins, runs the
// function passed as the given argument (receiver 0) and commits.
var ormTxCallbacks = map[string]int{
	"(*gorm.io/gorm.DB).Transaction":                               1,
	"(*github.com/jinzhu/gorm.DB).Transaction":                     1,
	"(*xorm.io/xorm.Engine).Transaction":                           1,
	"(*github.com/go-xorm/xorm.Engine).Transaction":                1,
	"(*github.com/gobuffalo/pop/v6.Connection).Transaction":        1,
	"(*github.com/gobuffalo/pop/v6.Connection).TransactionContext": 2,
	"(*github.com/gobuffalo/pop/v5.Connection).Transaction":        1,
	"(*github.com/gobuffalo/pop/v5.Connection).TransactionContext": 2,
	"(*github.com/gobuffalo/pop.Connection).Transaction":           1,
	"(*github.com/uptrace/bun.DB).RunInTx":                         3,
}
