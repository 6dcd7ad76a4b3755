package catalog

// Tables for poolbudget: the calls that create a pool of connections to a
// database or an outbound dependency, and where the pool's budget (its
// maximum number of connections) and its connection string are.

// BudgetPackages are the import paths a package must reach to create a
// pool poolbudget counts.
var BudgetPackages = []string{
	"database/sql", "github.com/jackc/pgx/v5/pgxpool",
	"gorm.io/gorm", "github.com/jinzhu/gorm", "xorm.io/xorm", "github.com/go-xorm/xorm",
	"github.com/jmoiron/sqlx", "entgo.io/ent/dialect/sql",
	RuntimePath, RuntimePath + "/lanedb", RuntimePath + "/lanepgx", RuntimePath + "/lanehttp",
}

// Unset says what a pool's maximum is when the code sets none.
type Unset int

const (
	// UnsetUnbounded: no maximum at all (database/sql and the ORMs over it:
	// SetMaxOpenConns(0) is the default).
	UnsetUnbounded Unset = iota
	// UnsetPgxDefault: pgxpool's default, max(4, runtime.NumCPU()).
	UnsetPgxDefault
	// UnsetRequired: the constructor refuses a pool without one (the
	// runtime's lane pools): an unseen budget is not a constant.
	UnsetRequired
)

// PgxDefaultMaxConns is the least pgxpool's default maximum can be
// (max(4, NumCPU)): what an unset pgxpool budget counts as.
const PgxDefaultMaxConns = 4

// PoolOpener is a call that creates a pool: which argument is the
// connection string and which holds the budget.
type PoolOpener struct {
	// DSN is the index of the connection-string argument, -1 if none.
	DSN int
	// Driver is the index of the driver-name argument, -1 if none: a pool
	// of an EmbeddedDrivers driver is a file, not a server's connections.
	Driver int
	// Config is the index of the argument whose field Field is the budget,
	// -1 if the budget is set on the pool after it is created.
	Config int
	Field  string
	// PgxConfig is the index of a *pgxpool.Config argument (whose MaxConns,
	// or its connection string's pool_max_conns, is the budget), -1 if none.
	PgxConfig int
	Unset     Unset
	// Outbound: the pool's connections go to a dependency (an HTTP host),
	// not to a database; Field is then its per-host limit.
	Outbound bool
	// LaneSpec: the limit is the MaxConcurrent of the lane type's Spec
	// method (the runtime's executors).
	LaneSpec bool
}

// PoolOpeners are the calls that create a pool, by full name. The
// database/sql openers and the ORM openers over them are SQLOpeners and
// PoolWrapperOpeners, bounded by SQLBound and PoolWrapperBounds.
var PoolOpeners = map[string]PoolOpener{
	"database/sql.Open":   {DSN: 1, Driver: 0, Config: -1, PgxConfig: -1, Unset: UnsetUnbounded},
	"database/sql.OpenDB": {DSN: -1, Driver: -1, Config: -1, PgxConfig: -1, Unset: UnsetUnbounded},
	// ORM and query-builder handles over one *sql.DB.
	"gorm.io/gorm.Open":                             {DSN: 0, Driver: -1, Config: -1, PgxConfig: -1, Unset: UnsetUnbounded},
	"github.com/jinzhu/gorm.Open":                   {DSN: 1, Driver: 0, Config: -1, PgxConfig: -1, Unset: UnsetUnbounded},
	"xorm.io/xorm.NewEngine":                        {DSN: 1, Driver: 0, Config: -1, PgxConfig: -1, Unset: UnsetUnbounded},
	"github.com/go-xorm/xorm.NewEngine":             {DSN: 1, Driver: 0, Config: -1, PgxConfig: -1, Unset: UnsetUnbounded},
	"github.com/jmoiron/sqlx.Open":                  {DSN: 1, Driver: 0, Config: -1, PgxConfig: -1, Unset: UnsetUnbounded},
	"github.com/jmoiron/sqlx.Connect":               {DSN: 1, Driver: 0, Config: -1, PgxConfig: -1, Unset: UnsetUnbounded},
	"github.com/jmoiron/sqlx.MustOpen":              {DSN: 1, Driver: 0, Config: -1, PgxConfig: -1, Unset: UnsetUnbounded},
	"github.com/jmoiron/sqlx.MustConnect":           {DSN: 1, Driver: 0, Config: -1, PgxConfig: -1, Unset: UnsetUnbounded},
	"entgo.io/ent/dialect/sql.Open":                 {DSN: 1, Driver: 0, Config: -1, PgxConfig: -1, Unset: UnsetUnbounded},
	"github.com/jackc/pgx/v5/pgxpool.New":           {DSN: 1, Driver: -1, Config: -1, PgxConfig: -1, Unset: UnsetPgxDefault},
	"github.com/jackc/pgx/v5/pgxpool.NewWithConfig": {DSN: -1, Driver: -1, Config: -1, PgxConfig: 1, Unset: UnsetPgxDefault},
	// pgx v4 opens its pool by Connect and ConnectConfig (v5's names are aliased to v4's path too).
	"github.com/jackc/pgx/v4/pgxpool.Connect":       {DSN: 1, Driver: -1, Config: -1, PgxConfig: -1, Unset: UnsetPgxDefault},
	"github.com/jackc/pgx/v4/pgxpool.ConnectConfig": {DSN: -1, Driver: -1, Config: -1, PgxConfig: 1, Unset: UnsetPgxDefault},
	// The runtime's lane pools: lanepool.Config.MaxConns is required.
	RuntimePath + "/lanedb.Open":           {DSN: 1, Driver: 0, Config: 2, Field: "MaxConns", PgxConfig: -1, Unset: UnsetRequired},
	RuntimePath + "/lanedb.OpenDB":         {DSN: -1, Driver: -1, Config: 1, Field: "MaxConns", PgxConfig: -1, Unset: UnsetRequired},
	RuntimePath + "/lanepgx.New":           {DSN: 1, Driver: -1, Config: 2, Field: "MaxConns", PgxConfig: -1, Unset: UnsetRequired},
	RuntimePath + "/lanepgx.NewWithConfig": {DSN: -1, Driver: -1, Config: 2, Field: "MaxConns", PgxConfig: 1, Unset: UnsetRequired},
	// The runtime's executors: at most the lane's MaxConcurrent calls at once.
	RuntimePath + ".NewExecutor":  {DSN: -1, Driver: -1, Config: -1, PgxConfig: -1, Unset: UnsetRequired, Outbound: true, LaneSpec: true},
	RuntimePath + ".MustExecutor": {DSN: -1, Driver: -1, Config: -1, PgxConfig: -1, Unset: UnsetRequired, Outbound: true, LaneSpec: true},
	RuntimePath + "/lanehttp.New": {DSN: -1, Driver: -1, Config: 0, Field: "MaxConnsPerHost", PgxConfig: -1, Unset: UnsetRequired, Outbound: true},
}

// PgxConfigParsers parse a connection string into a *pgxpool.Config: the
// argument at the index is the connection string.
var PgxConfigParsers = map[string]int{"github.com/jackc/pgx/v5/pgxpool.ParseConfig": 0}

// PgxMaxConnsParam is the connection-string parameter that sets a
// pgxpool's maximum, and PgxMaxConnsField the *pgxpool.Config field.
const (
	PgxMaxConnsParam = "pool_max_conns"
	PgxMaxConnsField = "MaxConns"
)

// EnvLookups read an environment variable named by their first argument.
var EnvLookups = newTable("os.Getenv", "os.LookupEnv")

// FlagDefault is a flag definition whose default is a constant: a budget
// read from the flag counts as its default, with the assumption named.
type FlagDefault struct {
	Name, Default int // argument indexes of the flag's name and default
	// Var: the function stores into the variable its first argument points
	// at (flag.IntVar); otherwise it returns a pointer to the value.
	Var bool
}

// FlagDefaults are the integer flag definitions of the standard library and
// pflag, by full name.
var FlagDefaults = map[string]FlagDefault{
	"flag.Int": {Name: 0, Default: 1}, "flag.IntVar": {Name: 1, Default: 2, Var: true},
	"(*flag.FlagSet).Int": {Name: 0, Default: 1}, "(*flag.FlagSet).IntVar": {Name: 1, Default: 2, Var: true},
	"github.com/spf13/pflag.Int": {Name: 0, Default: 1}, "github.com/spf13/pflag.IntVar": {Name: 1, Default: 2, Var: true},
	"(*github.com/spf13/pflag.FlagSet).Int":    {Name: 0, Default: 1},
	"(*github.com/spf13/pflag.FlagSet).IntVar": {Name: 1, Default: 2, Var: true},
}

// LaneSpecMethod is the method of a lane type that returns its LaneSpec,
// and LaneSpecLimit the LaneSpec field that caps its concurrent calls.
const (
	LaneSpecMethod = "Spec"
	LaneSpecLimit  = "MaxConcurrent"
)

// EmbeddedDrivers are database/sql driver names of databases that live in
// the process or a local file: their pools hold no server's connections.
var EmbeddedDrivers = map[string]bool{"sqlite3": true, "sqlite": true, "duckdb": true, "ramsql": true}

// EmbeddedDriverPackages make the dialectors and connectors of such
// databases (gorm's sqlite.Open(file)).
var EmbeddedDriverPackages = []string{
	"gorm.io/driver/sqlite", "github.com/glebarez/sqlite", "github.com/mattn/go-sqlite3", "modernc.org/sqlite",
	"github.com/marcboeker/go-duckdb",
}

// CLIFlagStruct is a CLI library's flag declared as a struct literal
// (urfave/cli's &cli.IntFlag{Name: "db-max", Value: 10}): the fields that
// hold its name and its default.
type CLIFlagStruct struct{ Name, Default string }

// CLIFlagStructs are the integer flag structs of urfave/cli, by type key
// (TypeKey; v3's flags are instances of the generic FlagBase, whose
// non-integer instances have no integer default and are passed over).
var CLIFlagStructs = map[string]CLIFlagStruct{
	"github.com/urfave/cli/v2.IntFlag":    {Name: "Name", Default: "Value"},
	"github.com/urfave/cli/v2.Int64Flag":  {Name: "Name", Default: "Value"},
	"github.com/urfave/cli/v2.UintFlag":   {Name: "Name", Default: "Value"},
	"github.com/urfave/cli/v2.Uint64Flag": {Name: "Name", Default: "Value"},
	"github.com/urfave/cli/v3.FlagBase":   {Name: "Name", Default: "Value"},
}

// FlagReaders read a flag's value by its name, the argument at the index:
// urfave/cli's c.Int("db-max"), pflag's GetInt("db-max"). The value is the
// flag's default unless the deployment sets it.
var FlagReaders = map[string]int{
	"(*github.com/urfave/cli/v2.Context).Int":    0,
	"(*github.com/urfave/cli/v2.Context).Int64":  0,
	"(*github.com/urfave/cli/v2.Context).Uint":   0,
	"(*github.com/urfave/cli/v2.Context).Uint64": 0,
	"(*github.com/urfave/cli/v3.Command).Int":    0,
	"(*github.com/urfave/cli/v3.Command).Int64":  0,
	"(*github.com/urfave/cli/v3.Command).Uint":   0,
	"(*github.com/spf13/pflag.FlagSet).GetInt":   0,
	"(*github.com/spf13/pflag.FlagSet).GetInt32": 0,
	"(*github.com/spf13/pflag.FlagSet).GetInt64": 0,
}

// FlagPackages are the command-line libraries whose integer flags
// (FlagDefaults, CLIFlagStructs) poolbudget reads defaults from.
var FlagPackages = []string{"flag", "github.com/spf13/pflag", "github.com/urfave/cli/v2", "github.com/urfave/cli/v3"}
