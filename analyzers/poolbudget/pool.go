package poolbudget

import (
	"fmt"
	"go/token"
	"strings"

	"github.com/bhlint/bhlint/internal/catalog"
)

// Pool is one pool a function creates, itself or through the functions it
// calls. A fact carries it to the callers, in any package.
type Pool struct {
	Name string   // what the code calls it: "ordersDB"
	Kind string   // what creates it: "sql.Open", "lanedb.Open[Tax]"
	Via  []string // the calls from the fact's function down to the creating one: ["store.Open"]
	Site string   // "store/store.go:14", where it is created
	// Budget is its maximum number of connections, as far as it is known.
	Budget Budget
	Unset  catalog.Unset // what no budget means for this kind of pool
	DSN    DSN           // where its connection string comes from
	// Returned is the index of the result the function returns it as, -1
	// if it is kept: a caller that receives it may still set its budget.
	Returned int
	// Outbound pools hold connections to a dependency (an HTTP host) for
	// lane Lane; the others, to a database.
	Outbound bool
	Lane     string
	// Global is the package-level variable that keeps it ("example.com/db.pool"):
	// one pool however many calls reach the function that sets it (a lazy
	// getter behind sync.Once), so it counts once.
	Global string
	// Executor: a lane's executor, whose limit is the lane's MaxConcurrent;
	// it counts against a dependency only for a lane with no client of
	// its own (the client's limit is the closer one).
	Executor bool
	// Command is the action handed to a framework that creates it (a
	// function main hands over, a literal stored in a framework's field,
	// "RunE at cli/server.go:30"); empty when the program's own calls
	// reach it. Pools of different commands are alternatives: the command
	// line runs one of them.
	Command string

	// anchor is where this package created it, or the call in this package
	// that leads to its creation; named says that the package gave it its
	// name (a variable of its own), so Via need not be repeated. Neither
	// is carried in facts.
	anchor token.Pos
	named  bool
}

func (p Pool) String() string {
	s := fmt.Sprintf("%s %s %s", p.Name, p.Kind, p.Budget)
	if len(p.Via) > 0 {
		s += " via " + strings.Join(p.Via, " → ")
	}
	if p.DSN.Env != "" {
		s += " dsn $" + p.DSN.Env
	}
	if p.Returned >= 0 {
		s += fmt.Sprintf(" returned %d", p.Returned)
	}
	if p.Outbound {
		s += " outbound lane " + p.Lane
	}
	if p.Executor {
		s += " executor"
	}
	if p.Global != "" {
		s += " global " + p.Global
	}
	if p.Command != "" {
		s += " command " + p.Command
	}
	return s
}

// label is how a message names the pool: its variable, and the calls that
// create it when they are another function's.
func (p *Pool) label() string {
	name := p.Name
	if !p.named && len(p.Via) > 0 {
		name += " in " + strings.Join(p.Via, " → ")
	}
	if p.Budget.Assumed != "" {
		name += " (" + p.Budget.Assumed + ")"
	}
	return name
}

// State is how much is known of a budget.
type State int

const (
	// Known: a constant number of connections, N.
	Known State = iota
	// Unbounded: no maximum (database/sql without SetMaxOpenConns, or
	// SetMaxOpenConns(n <= 0)).
	Unbounded
	// PgxDefault: pgxpool's default, max(4, NumCPU), counted as 4.
	PgxDefault
	// Unknown: set from configuration, the environment or anything else
	// that is not a constant.
	Unknown
	// FromParam: the function's parameter Param, which its callers give.
	FromParam
	// FromDSN: pool_max_conns of the connection string, or pgxpool's
	// default without one; the connection string is not known yet.
	FromDSN
	// FromField: a struct field, Field, which the program's stores give
	// (fields.go); main resolves it.
	FromField
)

// Budget is a pool's maximum as far as the code shows it.
type Budget struct {
	State State
	N     int    // Known, PgxDefault: the count
	Param int    // FromParam: the parameter
	Field string // FromField: the field, "example.com/db.config.MaxConns"
	// Assumed names what the count assumes: "the default of flag
	// -db-max-conns", a value the deployment may override.
	Assumed string
}

func (b Budget) String() string {
	switch b.State {
	case Known:
		if b.Assumed != "" {
			return fmt.Sprintf("%d (%s)", b.N, b.Assumed)
		}
		return fmt.Sprint(b.N)
	case Unbounded:
		if b.Assumed != "" {
			return "unbounded (" + b.Assumed + ")"
		}
		return "unbounded"
	case PgxDefault:
		return fmt.Sprintf("pgxpool default (%d)", b.N)
	case FromParam:
		return fmt.Sprintf("param %d", b.Param)
	case FromDSN:
		return "from its connection string"
	case FromField:
		return "field " + b.Field
	}
	return "unknown"
}

// DSN is where a connection string comes from.
type DSN struct {
	Env     string // the environment variable it is read from
	Const   string // its value, when it is a constant
	IsConst bool
	Param   int // the function's parameter it is, -1 if none
}

func noDSN() DSN { return DSN{Param: -1} }

// budgetOf is what a constant maximum n means for a pool whose unset
// maximum is unset: 0 or less is no maximum for database/sql; pgxpool and
// the lane pools refuse it, so the program never runs with it (unknown).
func budgetOf(n int, unset catalog.Unset) Budget {
	switch {
	case n > 0:
		return Budget{State: Known, N: n}
	case unset == catalog.UnsetUnbounded:
		return Budget{State: Unbounded}
	}
	return Budget{State: Unknown}
}

// settle turns a budget that waits on the connection string into what the
// string says, once it is known to be a constant or not.
func settle(b Budget, dsn DSN) Budget {
	if b.State != FromDSN || dsn.Param >= 0 {
		return b
	}
	if !dsn.IsConst {
		return Budget{State: Unknown} // pool_max_conns may be in the environment's value
	}
	n, set, ok := poolMaxConns(dsn.Const)
	switch {
	case !ok:
		return Budget{State: Unknown}
	case !set:
		return Budget{State: PgxDefault, N: catalog.PgxDefaultMaxConns}
	}
	return budgetOf(n, catalog.UnsetPgxDefault)
}
