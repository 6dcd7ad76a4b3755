/*
Package poolbudget defines an Analyzer that reports connection budgets
that, multiplied by the fleet, exceed what a database or dependency can
take.

# Analyzer poolbudget

poolbudget: report a binary whose pools, times its replicas, open more connections than its database or dependency allows

ERR_POOL_BUDGETS_EXCEED_DATABASE. Bulkheads protect workloads from each
other; they do not protect the database from you. Every limit in the code
is per process, and the fleet multiplies it: five pools of 20 per pod at 30
pods is 3,000 connections, and PostgreSQL's default max_connections is 100.
When the fleet asks for more than the database allows, the connections
past the limit are refused — under load, at the worst moment, and to
whichever pod asks last. The limit per pod is what the database allows
divided by the pods.

It needs to know the fleet and the databases, from .bhlint.yml:

	deploy:
	  replicas: 30
	  commands: [cmd/api]      # optional: the main packages that run replicated
	databases:
	  main:
	    max-connections: 100   # the server's max_connections
	    reserved: 3            # superuser_reserved_connections, replication, migrations
	dependencies:
	  tax-api:
	    capacity: 100          # concurrent calls it can take
	    lanes: [tax]           # the lanes whose outbound clients call it

Without databases or dependencies it does nothing (and costs nothing).
Without deploy.replicas it counts one process. deploy.commands lists the
directories (relative to the .bhlint.yml; cmd/... for all below cmd) of the
main packages that run replicated: the other commands of the repository,
migrations and one-shot tools, are then not checked. Without it, every
main package is.

What counts: every pool func main of a main package creates, itself or
through the functions it calls, in any package (facts carry "this function
creates these pools" from the bottom up): sql.Open and sql.OpenDB, with the
maximum SetMaxOpenConns gives them (on the *sql.DB, on an ORM's handle —
xorm's engine — or on the *sql.DB inside one, gorm's db.DB(); sqlx's
embedded *sql.DB); the ORM openers over database/sql (gorm, xorm, sqlx,
ent); pgxpool.New and pgxpool.NewWithConfig, with the *pgxpool.Config's
MaxConns or the connection string's pool_max_conns; the bhlint runtime's
lane pools, lanedb.Open, lanedb.OpenDB, lanepgx.New and
lanepgx.NewWithConfig, with their lanepool.Config's MaxConns. A database
that lives in the process (a constant SQLite or DuckDB driver name,
gorm's sqlite.Open) holds no server's connections and is not counted.
Outbound,
against a dependency that lists the lane: the MaxConnsPerHost of the lane's
lanehttp clients, or, for a lane with no client of its own, the
MaxConcurrent of its executors (bulkhead.NewExecutor[L], from L's Spec
method, across packages): a bulkhead of 8 per pod is 240 concurrent calls
at 30 pods, and if the dependency can take 100, the limit per pod is
100 ÷ 30. The catalogue (internal/catalog, budget.go) lists the
openers and where their budget and connection string are.

Which database a pool connects to: with one database declared, every
database pool. With several, each declares dsn-env, the environment
variable its connection string is read from, and a pool opened with
os.Getenv of that variable (directly, through a local variable, or through
a constructor's parameter) connects to it; a pool whose connection string
comes from anything else is not counted.

What is reported, at the name of func main: a database whose pools add up,
times the replicas, to more than max-connections less reserved, with the
arithmetic ("30 replicas × (20 ordersDB + 20 reportsDB) = 1200 connections
to database main, which allows 97 (max-connections 100 − reserved 3); per
replica budget must total at most 3"), and the related position of each
pool (where main's package creates it, or its call that leads to the
constructor that does). A database/sql pool with no maximum (no
SetMaxOpenConns, or SetMaxOpenConns(n <= 0)) is the worst case: it is
reported as unbounded whatever the others add up to. A pgxpool with no
maximum in its configuration and a constant connection string without
pool_max_conns has pgxpool's default, max(4, NumCPU); it counts as 4, and
the message says so.

`bhlint lanes` prints the same arithmetic for every command and every
declared database and dependency, within the limits or not.

The fix: give each pool its share, so that the pools of one process add up
to at most what the database allows divided by the replicas; put a
connection pooler (PgBouncer) in front of the database and budget against
its pool; or raise max_connections — then say so in .bhlint.yml.

Escape policy. A budget read from an integer flag whose default is a
constant (flag.Int, flag.IntVar, pflag's, cobra's cmd.Flags().Int) counts
as that default, and the message names the assumption ("5 db (the default
of flag -max)"). So does a flag read by its name (urfave/cli's
c.Int("db-max"), pflag's GetInt) that this package or one it imports
declares with a constant default (&cli.IntFlag{Name: "db-max", Value: 10};
no Value is 0), unless two declarations of that name disagree. A maximum
set under a condition that the flags' defaults decide (if *maxConns > 0 {
db.SetMaxOpenConns(*maxConns) }, with a default of 0) is set or skipped as
the defaults decide: skipped, the pool keeps the budget it had, unbounded
for database/sql, and the message names the flag ("db (the default of flag
-max_conns) has no maximum"). Any other budget that is not a constant
(configuration files, viper, the environment, arithmetic) is not counted:
the pool is named in the message as not counted when the constant ones
already exceed the limit, and is silent otherwise; a constructor's
parameter is replaced by what each call passes, so store.Open(dsn, 20)
counts 20. A budget read from an integer field of a named struct
(SetMaxOpenConns(e.config.MaxOpen), the end of a functional option or a
configuration struct) counts as the worst of the values the binary's
packages store into that field (e.config.MaxOpen = n in WithMaxOpen(n),
called with c.Int("max"); a keyed literal &config{MaxOpen: 5}), when every
one of them is a constant or a flag's default; one that is not makes it
not counted. A pgxpool whose connection string is not a constant is not
counted either (the string may set pool_max_conns), unless its
configuration sets MaxConns. A pool returned by a function takes the
budget its caller sets on it; a pool passed to a function takes the budget
that function (or one it passes the pool on to) sets on its parameter; a
pool stored in a field or a global is followed within the function that
stores it, not where the field is read later: a pool stored in a field on
which its package calls SetMaxOpenConns elsewhere (a Configure method) is
not counted, rather than counted as unbounded (set the maximum where the
pool is opened).

Each call of a constructor counts: a constructor called twice opens two
pools and counts twice; a call in a loop counts once. A pool kept in a
package-level variable (a lazy getter behind sync.Once) is one pool however
many calls reach it. More than 64 pools reaching main means a helper
reached along many paths, not 64 pools: nothing is reported then. Pools
opened into one variable or field (the cases of a switch on the driver) are
alternatives and count once, as the worse of them until a maximum is set on
the variable; a maximum set in each case before the next is opened counts
the last one's.

A registry of constructors is followed: a package-level map of functions
that backends fill (a map literal, an assignment providers[name] = ctor,
or a call of a function that does so with its parameter, such as
storage.Register("mysql", newProvider) in an init function), and that the
program calls through (ctor := providers[name]; ctor(…)). Where main's
path calls through it, the constructors registered by the packages its
binary links are alternatives, as the cases of a switch on the driver
are: one of them runs, not all, and the worst counts (a pool with no
maximum, then the most connections); a constructor that opens no server
pool (an in-process SQLite backend, one whose connections are not
counted) is no alternative, since with the databases declared the
deployment selects a backend that connects to one. The message names the
assumption when there were several ("the worst of 3 constructors
registered in storage.providers"). A registered constructor is counted
only where main calls through its registry, never for being registered.

Commands. A function main's package hands over as a value rather than
calls (app.Action = server, a command-line library's action), and a
function literal stored in a field of a struct another module declares
(cobra's &cobra.Command{RunE: func…}, cmd.Action = func…, in any
package), is a command: the framework runs it when the command line names
it, not when the code that builds it runs. When one command creates
pools, they count as the program's; when several do (serve, migrate,
reset-password), the command line chooses one of them, which one the
replicas run is not in the code, and none is counted: a one-shot admin
command's pool is not the replicated server's. A literal stored in the
program's own struct, passed as an argument (errgroup's Go, sync.Once's
Do) or called is part of the function it is written in.

Calls through an interface or any other func value are not followed, nor are pools
created in package-level variable initialisers or init functions, nor in
packages whose .bhlint.yml declares no databases. Test files are skipped,
and so is a test binary's main.

Suppress a finding with //bhlint:ignore ERR_POOL_BUDGETS_EXCEED_DATABASE
reason, in main's doc comment or on the line above func main.
*/
package poolbudget
