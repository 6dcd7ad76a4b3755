package catalog

import (
	"go/types"
	"strings"
)

// Tables for unboundedqueue: what bounds concurrent work, what waits for a
// slot of a pool, and what a long-running program calls to serve.

// QueuePackages are the import paths a package must reach to contain an
// unbounded queue that unboundedqueue can see beyond goroutines and slices.
// (Goroutines per item and slice queues need no import at all.)
var QueuePackages = []string{
	"database/sql", "github.com/jackc/pgx/v5/pgxpool",
	"golang.org/x/sync/errgroup", "golang.org/x/sync/semaphore", RuntimePath,
}

// Limiters are calls that take a slot of a bounded resource before work
// starts, so that work started after them is bounded by the slots.
var Limiters = newTable(
	"(*golang.org/x/sync/semaphore.Weighted).Acquire",
	"(*golang.org/x/sync/semaphore.Weighted).TryAcquire",
	"(*"+RuntimePath+".Executor).Do",
	RuntimePath+".Call",
	"(*golang.org/x/time/rate.Limiter).Wait",
	"(*golang.org/x/time/rate.Limiter).Allow",
)

// SlotTries are the Limiters that never wait for a slot: they take one if
// it is free and refuse at once otherwise (the runtime's executor admits
// into a bounded queue and rejects the rest), so goroutines that call them
// end when no slot is free instead of piling up in the wait.
var SlotTries = newTable(
	"(*golang.org/x/sync/semaphore.Weighted).TryAcquire",
	"(*"+RuntimePath+".Executor).Do",
	RuntimePath+".Call",
	"(*golang.org/x/time/rate.Limiter).Allow",
)

// GoroutineStarters are calls, besides the go statement, that start their
// func argument in a new goroutine with no limit of their own.
var GoroutineStarters = newTable("(*sync.WaitGroup).Go")

// LimitedGroups are calls that start their func argument in a new goroutine
// of a group whose limit is set by a SetLimit method on the same receiver.
var LimitedGroups = newTable("(*golang.org/x/sync/errgroup.Group).Go")

// SlotWaits are calls that may wait for a slot of a pool or semaphore, for
// as long as their context allows.
var SlotWaits = newTable(
	"(*golang.org/x/sync/semaphore.Weighted).Acquire",
	"(*database/sql.DB).Conn", "(*database/sql.DB).BeginTx",
	"(*database/sql.DB).QueryContext", "(*database/sql.DB).QueryRowContext",
	"(*database/sql.DB).ExecContext", "(*database/sql.DB).PrepareContext",
	"(*github.com/jackc/pgx/v5/pgxpool.Pool).Acquire", "(*github.com/jackc/pgx/v5/pgxpool.Pool).AcquireFunc",
	"(*github.com/jackc/pgx/v5/pgxpool.Pool).Begin", "(*github.com/jackc/pgx/v5/pgxpool.Pool).BeginTx",
	"(*github.com/jackc/pgx/v5/pgxpool.Pool).Query", "(*github.com/jackc/pgx/v5/pgxpool.Pool).QueryRow",
	"(*github.com/jackc/pgx/v5/pgxpool.Pool).Exec", "(*github.com/jackc/pgx/v5/pgxpool.Pool).SendBatch",
	"(*github.com/jackc/pgx/v5/pgxpool.Pool).CopyFrom",
)

// DeadlineContexts derive a context that ends by itself.
var DeadlineContexts = newTable("context.WithTimeout", "context.WithDeadline",
	"context.WithTimeoutCause", "context.WithDeadlineCause")

// RootContexts are contexts with no deadline and no cancellation: the
// empty ones, and WithoutCancel's, which keeps its parent's values and
// drops its deadline and cancellation, whatever the parent was.
var RootContexts = newTable("context.Background", "context.TODO", "context.WithoutCancel")

// ProcessSignals subscribe to the signals that stop the process: a function
// that calls one runs for the life of the process, once.
var ProcessSignals = newTable("os/signal.Notify", "os/signal.NotifyContext")

// DerivedContexts derive a context from their first argument without adding
// a deadline: the result waits as long as the parent does.
var DerivedContexts = newTable("context.WithCancel", "context.WithCancelCause",
	"context.WithValue")

// SQLOpeners open a *database/sql.DB, whose pool has no maximum until
// SetMaxOpenConns is called with n > 0.
var SQLOpeners = newTable("database/sql.Open", "database/sql.OpenDB")

// PoolBackedOpeners open a *database/sql.DB whose connections all come from
// a pool that has its own maximum (pgx's stdlib over a *pgxpool.Pool): the
// database/sql face is bounded by the pool behind it, and has no row in
// SQLOpeners, whatever the fact on them says.
var PoolBackedOpeners = newTable("github.com/jackc/pgx/v5/stdlib.OpenDBFromPool")

// DefaultBoundedPools are pool types whose library gives them a maximum
// when the program sets none (pgxpool: max(4, NumCPU)): a wait for one of
// their slots queues whatever the program configures. database/sql's pool,
// and every wrapper of it, has none until SetMaxOpenConns.
var DefaultBoundedPools = []string{"*github.com/jackc/pgx/v5/pgxpool.Pool"}

// WeightedSemaphores make a semaphore of the capacity their argument gives.
var WeightedSemaphores = newTable("golang.org/x/sync/semaphore.NewWeighted")

// SQLBound is the method that gives a *database/sql.DB its maximum.
const SQLBound = "(*database/sql.DB).SetMaxOpenConns"

// PoolWrapperOpeners open a *database/sql.DB inside a type of their own (an
// ORM's engine, sqlx's DB, ent's driver): its pool has no maximum until
// SetMaxOpenConns(n > 0) is called on the wrapper, on what its DB() method
// returns (gorm's db.DB(), ent's drv.DB()), or, for a wrapper that embeds
// the *sql.DB (sqlx), on it directly. A wrapper that sets a maximum of its
// own by default (pgxpool, pop's Pool) has no row.
var PoolWrapperOpeners = newTable(
	"gorm.io/gorm.Open", "github.com/jinzhu/gorm.Open",
	"xorm.io/xorm.NewEngine", "xorm.io/xorm.NewEngineWithParams", "github.com/go-xorm/xorm.NewEngine",
	"github.com/jmoiron/sqlx.Open", "github.com/jmoiron/sqlx.Connect",
	"github.com/jmoiron/sqlx.MustOpen", "github.com/jmoiron/sqlx.MustConnect",
	"entgo.io/ent/dialect/sql.Open",
)

// PoolWrapperBounds are the wrappers' own methods that set the maximum of
// the pool inside (xorm's Engine forwards to its *sql.DB).
var PoolWrapperBounds = newTable(
	"(*xorm.io/xorm.Engine).SetMaxOpenConns", "(*xorm.io/xorm.EngineGroup).SetMaxOpenConns",
	"(*github.com/go-xorm/xorm.Engine).SetMaxOpenConns",
)

// frameworkServeLoops are the web frameworks' own calls that listen and
// serve until the listener closes (gin's Run, echo's Start, fiber's Listen,
// fasthttp's and fastglue's ListenAndServe): a main that calls one is a
// server as one calling net/http's is.
var frameworkServeLoops = []string{
	"(*github.com/gin-gonic/gin.Engine).Run", "(*github.com/gin-gonic/gin.Engine).RunTLS",
	"(*github.com/gin-gonic/gin.Engine).RunUnix", "(*github.com/gin-gonic/gin.Engine).RunListener",
	"(*github.com/labstack/echo/v4.Echo).Start", "(*github.com/labstack/echo/v4.Echo).StartTLS",
	"(*github.com/labstack/echo/v4.Echo).StartAutoTLS", "(*github.com/labstack/echo/v4.Echo).StartServer",
	"(*github.com/labstack/echo/v4.Echo).StartH2CServer",
	"(*github.com/gofiber/fiber/v2.App).Listen", "(*github.com/gofiber/fiber/v2.App).ListenTLS",
	"(*github.com/gofiber/fiber/v2.App).Listener",
	"(*github.com/gofiber/fiber/v3.App).Listen", "(*github.com/gofiber/fiber/v3.App).Listener",
	"github.com/valyala/fasthttp.ListenAndServe", "github.com/valyala/fasthttp.ListenAndServeTLS",
	"github.com/valyala/fasthttp.Serve",
	"(*github.com/valyala/fasthttp.Server).ListenAndServe", "(*github.com/valyala/fasthttp.Server).ListenAndServeTLS",
	"(*github.com/valyala/fasthttp.Server).Serve", "(*github.com/valyala/fasthttp.Server).ServeTLS",
	"(*github.com/zerodha/fastglue.Fastglue).ListenAndServe",
	"(*github.com/zerodha/fastglue.Fastglue).ListenServeAndWaitGracefully",
}

// Servers are calls that make a main package a long-running server rather
// than a one-shot command.
var Servers = newTable(append([]string{
	"net/http.ListenAndServe", "net/http.ListenAndServeTLS", "net/http.Serve", "net/http.ServeTLS",
	"(*net/http.Server).ListenAndServe", "(*net/http.Server).ListenAndServeTLS",
	"(*net/http.Server).Serve", "(*net/http.Server).ServeTLS",
	"net.Listen", "(*net.ListenConfig).Listen",
	"(*google.golang.org/grpc.Server).Serve",
}, frameworkServeLoops...)...)

// ContainerProviders hand a constructor to a dependency-injection
// container, which calls it once, when the process starts, and keeps what
// it returns for the process's life: a pool a provided constructor opens
// is the process's pool, though no call of the program's opens it.
// fx.Annotate wraps the constructor it is given (argument 0).
var ContainerProviders = newTable(
	"go.uber.org/fx.Provide",
	"(*go.uber.org/dig.Container).Provide",
	"github.com/samber/do.Provide", "github.com/samber/do/v2.Provide",
)

// ContainerWrappers wrap a constructor handed to a ContainerProvider.
var ContainerWrappers = newTable("go.uber.org/fx.Annotate")

// ServeLoops are the calls that serve a listener's connections until it
// closes: a goroutine that runs one is a server for the listener's life.
var ServeLoops = newTable(append([]string{
	"net/http.ListenAndServe", "net/http.ListenAndServeTLS", "net/http.Serve", "net/http.ServeTLS",
	"(*net/http.Server).ListenAndServe", "(*net/http.Server).ListenAndServeTLS",
	"(*net/http.Server).Serve", "(*net/http.Server).ServeTLS",
	"(*google.golang.org/grpc.Server).Serve",
}, frameworkServeLoops...)...)

// MembershipPackages are the last elements of the import paths of packages
// that keep a cluster's membership (a ring of hosts, a gossip member list,
// service discovery). A list one of their functions returns is the set of
// running instances, sized by whoever operates the cluster, not by input.
var MembershipPackages = map[string]bool{
	"membership": true, "memberlist": true, "discovery": true, "serf": true,
}

// IsMembershipPackage reports whether path is a membership package.
func IsMembershipPackage(path string) bool {
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		path = path[i+1:]
	}
	return MembershipPackages[path]
}

// DatabaseWaits are calls that make a round trip to a database server and
// wait for its answer: a statement on a pool, a connection, a transaction
// or a prepared statement, and the methods of an ORM handle or query
// builder that run one (gorm's finishers, xorm's session verbs, bun's Scan
// and Exec, pop's queries). A driver reads its socket behind interfaces
// that netio does not follow, so these are the database's network reads.
// Methods that only build a statement (Where, Model, Table) have no row.
var DatabaseWaits = newTable(
	"(*database/sql.Tx).*", "(*database/sql.Conn).*", "(*database/sql.Stmt).*",
	"(*github.com/jackc/pgx/v5.Conn).Exec", "(*github.com/jackc/pgx/v5.Conn).Query",
	"(*github.com/jackc/pgx/v5.Conn).QueryRow", "(*github.com/jackc/pgx/v5.Conn).Begin",
	"(*github.com/jackc/pgx/v5.Conn).SendBatch", "(*github.com/jackc/pgx/v5.Conn).CopyFrom",
	"(github.com/jackc/pgx/v5.Tx).Exec", "(github.com/jackc/pgx/v5.Tx).Query", "(github.com/jackc/pgx/v5.Tx).QueryRow",
	"(github.com/jackc/pgx/v5.Tx).Commit", "(github.com/jackc/pgx/v5.Tx).SendBatch", "(github.com/jackc/pgx/v5.Tx).CopyFrom",
	"(*github.com/jackc/pgx/v5/pgxpool.Conn).Exec", "(*github.com/jackc/pgx/v5/pgxpool.Conn).Query",
	"(*github.com/jackc/pgx/v5/pgxpool.Conn).QueryRow", "(*github.com/jackc/pgx/v5/pgxpool.Conn).Begin",
	// sqlx's reads and writes on a transaction.
	"(*github.com/jmoiron/sqlx.Tx).Get", "(*github.com/jmoiron/sqlx.Tx).GetContext",
	"(*github.com/jmoiron/sqlx.Tx).Select", "(*github.com/jmoiron/sqlx.Tx).SelectContext",
	"(*github.com/jmoiron/sqlx.Tx).NamedExec", "(*github.com/jmoiron/sqlx.Tx).NamedExecContext",
	// gorm (gorm.io and jinzhu/gorm v1): the finishers.
	"(*gorm.io/gorm.DB).Create", "(*gorm.io/gorm.DB).CreateInBatches", "(*gorm.io/gorm.DB).Save",
	"(*gorm.io/gorm.DB).First", "(*gorm.io/gorm.DB).Take", "(*gorm.io/gorm.DB).Last", "(*gorm.io/gorm.DB).Find",
	"(*gorm.io/gorm.DB).FindInBatches", "(*gorm.io/gorm.DB).FirstOrInit", "(*gorm.io/gorm.DB).FirstOrCreate",
	"(*gorm.io/gorm.DB).Update", "(*gorm.io/gorm.DB).Updates", "(*gorm.io/gorm.DB).UpdateColumn",
	"(*gorm.io/gorm.DB).UpdateColumns", "(*gorm.io/gorm.DB).Delete", "(*gorm.io/gorm.DB).Count",
	"(*gorm.io/gorm.DB).Row", "(*gorm.io/gorm.DB).Rows", "(*gorm.io/gorm.DB).Scan", "(*gorm.io/gorm.DB).Pluck",
	"(*gorm.io/gorm.DB).Exec", "(*gorm.io/gorm.DB).Transaction", "(*gorm.io/gorm.DB).Begin",
	"(*gorm.io/gorm.DB).Commit",
	"(*github.com/jinzhu/gorm.DB).Create", "(*github.com/jinzhu/gorm.DB).Save", "(*github.com/jinzhu/gorm.DB).First",
	"(*github.com/jinzhu/gorm.DB).Take", "(*github.com/jinzhu/gorm.DB).Last", "(*github.com/jinzhu/gorm.DB).Find",
	"(*github.com/jinzhu/gorm.DB).FirstOrInit", "(*github.com/jinzhu/gorm.DB).FirstOrCreate",
	"(*github.com/jinzhu/gorm.DB).Update", "(*github.com/jinzhu/gorm.DB).Updates",
	"(*github.com/jinzhu/gorm.DB).UpdateColumn", "(*github.com/jinzhu/gorm.DB).UpdateColumns",
	"(*github.com/jinzhu/gorm.DB).Delete", "(*github.com/jinzhu/gorm.DB).Count", "(*github.com/jinzhu/gorm.DB).Row",
	"(*github.com/jinzhu/gorm.DB).Rows", "(*github.com/jinzhu/gorm.DB).Scan", "(*github.com/jinzhu/gorm.DB).Pluck",
	"(*github.com/jinzhu/gorm.DB).Exec", "(*github.com/jinzhu/gorm.DB).Transaction", "(*github.com/jinzhu/gorm.DB).Begin",
	"(*github.com/jinzhu/gorm.DB).Commit",
	// xorm: the engine's and the session's verbs.
	"(*xorm.io/xorm.Engine).Get", "(*xorm.io/xorm.Engine).Find", "(*xorm.io/xorm.Engine).Insert",
	"(*xorm.io/xorm.Engine).InsertOne", "(*xorm.io/xorm.Engine).Update", "(*xorm.io/xorm.Engine).Delete",
	"(*xorm.io/xorm.Engine).Exec", "(*xorm.io/xorm.Engine).Query", "(*xorm.io/xorm.Engine).QueryString",
	"(*xorm.io/xorm.Engine).QueryInterface", "(*xorm.io/xorm.Engine).Count", "(*xorm.io/xorm.Engine).Exist",
	"(*xorm.io/xorm.Engine).Sum", "(*xorm.io/xorm.Engine).Iterate", "(*xorm.io/xorm.Engine).Rows",
	"(*xorm.io/xorm.Engine).FindAndCount", "(*xorm.io/xorm.Engine).Transaction",
	"(*xorm.io/xorm.Session).Get", "(*xorm.io/xorm.Session).Find", "(*xorm.io/xorm.Session).Insert",
	"(*xorm.io/xorm.Session).InsertOne", "(*xorm.io/xorm.Session).Update", "(*xorm.io/xorm.Session).Delete",
	"(*xorm.io/xorm.Session).Exec", "(*xorm.io/xorm.Session).Query", "(*xorm.io/xorm.Session).QueryString",
	"(*xorm.io/xorm.Session).QueryInterface", "(*xorm.io/xorm.Session).Count", "(*xorm.io/xorm.Session).Exist",
	"(*xorm.io/xorm.Session).Sum", "(*xorm.io/xorm.Session).Iterate", "(*xorm.io/xorm.Session).Rows",
	"(*xorm.io/xorm.Session).FindAndCount", "(*xorm.io/xorm.Session).Begin", "(*xorm.io/xorm.Session).Commit",
	// bun: the query builders' runners.
	"(*github.com/uptrace/bun.SelectQuery).Scan", "(*github.com/uptrace/bun.SelectQuery).Count",
	"(*github.com/uptrace/bun.SelectQuery).ScanAndCount", "(*github.com/uptrace/bun.SelectQuery).Exists",
	"(*github.com/uptrace/bun.SelectQuery).Exec", "(*github.com/uptrace/bun.InsertQuery).Exec",
	"(*github.com/uptrace/bun.InsertQuery).Scan", "(*github.com/uptrace/bun.UpdateQuery).Exec",
	"(*github.com/uptrace/bun.UpdateQuery).Scan", "(*github.com/uptrace/bun.DeleteQuery).Exec",
	"(*github.com/uptrace/bun.RawQuery).Scan", "(*github.com/uptrace/bun.RawQuery).Exec",
	"(*github.com/uptrace/bun.DB).RunInTx", "(*github.com/uptrace/bun.DB).BeginTx",
	// pop: the connection's and the query's runners.
	"(*github.com/gobuffalo/pop/v6.Connection).Find", "(*github.com/gobuffalo/pop/v6.Connection).First",
	"(*github.com/gobuffalo/pop/v6.Connection).All", "(*github.com/gobuffalo/pop/v6.Connection).Create",
	"(*github.com/gobuffalo/pop/v6.Connection).Update", "(*github.com/gobuffalo/pop/v6.Connection).Destroy",
	"(*github.com/gobuffalo/pop/v6.Connection).Save", "(*github.com/gobuffalo/pop/v6.Connection).Transaction",
	"(*github.com/gobuffalo/pop/v6.Query).All", "(*github.com/gobuffalo/pop/v6.Query).First",
	"(*github.com/gobuffalo/pop/v6.Query).Count", "(*github.com/gobuffalo/pop/v6.Query).Exists",
	"(*github.com/gobuffalo/pop/v6.Query).Exec", "(*github.com/gobuffalo/pop/v6.Query).Delete",
)

// HandBacks close what a row of DatabaseWaits holds and wait for no
// connection: a prepared statement's Close (database/sql closes its driver
// statements on connections as they come free) and a connection's Close,
// which returns it to its pool. xorm's session closes its cached
// statements this way after every verb.
var HandBacks = newTable("(*database/sql.Stmt).Close", "(*database/sql.Conn).Close")

// IsDatabaseWait reports whether fn makes a round trip to a database
// server: a row of DatabaseWaits (not one that hands back what it holds),
// or a pool's call that takes a connection first (PoolAcquires).
func IsDatabaseWait(fn *types.Func) bool {
	return DatabaseWaits.Has(fn) && !HandBacks.Has(fn) || PoolAcquires.Has(fn)
}

// ContextlessSlotWaits take a connection from a pool, waiting for a slot
// when every one is taken, and take no context: database/sql's and sqlx's
// methods without the Context suffix.
var ContextlessSlotWaits = newTable(
	"(*database/sql.DB).Query", "(*database/sql.DB).QueryRow", "(*database/sql.DB).Exec",
	"(*database/sql.DB).Begin", "(*database/sql.DB).Prepare", "(*database/sql.DB).Ping",
	"(*github.com/jmoiron/sqlx.DB).Get", "(*github.com/jmoiron/sqlx.DB).Select",
	"(*github.com/jmoiron/sqlx.DB).Queryx", "(*github.com/jmoiron/sqlx.DB).QueryRowx",
	"(*github.com/jmoiron/sqlx.DB).NamedExec", "(*github.com/jmoiron/sqlx.DB).NamedQuery",
	"(*github.com/jmoiron/sqlx.DB).MustExec", "(*github.com/jmoiron/sqlx.DB).Beginx",
	"(*github.com/jmoiron/sqlx.DB).MustBegin", "(*github.com/jmoiron/sqlx.DB).Preparex",
	"(*github.com/jmoiron/sqlx.DB).PrepareNamed",
)

// ORMContextSetters attach a context to an ORM handle or session: the
// statements run on what they return wait as long as that context allows.
// A round trip (DatabaseWaits) on a handle none of whose builders set one
// waits for a pool slot with no deadline.
var ORMContextSetters = newTable(
	"(*gorm.io/gorm.DB).WithContext", "(*xorm.io/xorm.Engine).Context", "(*xorm.io/xorm.Session).Context",
	"(*xorm.io/xorm.EngineGroup).Context",
)

// ORMContextHandles are the ORM handle types whose round trips run on the
// context a setter attached (ORMContextSetters), or on none.
var ORMContextHandles = []string{"*gorm.io/gorm.DB", "*xorm.io/xorm.Engine", "*xorm.io/xorm.Session", "*xorm.io/xorm.EngineGroup"}

// SchemaMigrations are the calls of the schema migration libraries: a
// function that makes one sets up the schema, which runs before the
// service can serve (its requests need the tables), so nothing queues
// behind its waits.
var SchemaMigrations = newTable(
	// golang-migrate: building a migrator and running it.
	"github.com/golang-migrate/migrate/v4.New", "github.com/golang-migrate/migrate/v4.NewWithInstance",
	"github.com/golang-migrate/migrate/v4.NewWithDatabaseInstance", "github.com/golang-migrate/migrate/v4.NewWithSourceInstance",
	"(*github.com/golang-migrate/migrate/v4.Migrate).Up", "(*github.com/golang-migrate/migrate/v4.Migrate).Down",
	"(*github.com/golang-migrate/migrate/v4.Migrate).Steps", "(*github.com/golang-migrate/migrate/v4.Migrate).Migrate",
	// pressly/goose.
	"github.com/pressly/goose/v3.Up", "github.com/pressly/goose/v3.UpContext", "github.com/pressly/goose/v3.Run",
	"github.com/pressly/goose/v3.RunContext", "github.com/pressly/goose/v3.UpTo", "github.com/pressly/goose/v3.UpToContext",
	// rubenv/sql-migrate.
	"github.com/rubenv/sql-migrate.Exec", "github.com/rubenv/sql-migrate.ExecMax", "github.com/rubenv/sql-migrate.ExecContext",
	// ORMs' schema sync: gorm's AutoMigrate, xorm's Sync.
	"(*gorm.io/gorm.DB).AutoMigrate", "(*github.com/jinzhu/gorm.DB).AutoMigrate",
	"(*xorm.io/xorm.Engine).Sync", "(*xorm.io/xorm.Engine).Sync2", "(*github.com/go-xorm/xorm.Engine).Sync2",
)

// LogPackages are logging libraries: a call of one writes a line to the
// process's own output (a file, stderr, a collector's local agent), waits
// on no dependency of the request, and so ends on its own, as computing
// does. A goroutine per item that only computes and logs (an audit line per
// role a request changed) is parallelism, not a queue.
var LogPackages = map[string]bool{
	"log": true, "log/slog": true,
	"go.uber.org/zap": true, "go.uber.org/zap/zapcore": true,
	"github.com/sirupsen/logrus": true,
	"github.com/rs/zerolog":      true, "github.com/rs/zerolog/log": true,
	"k8s.io/klog/v2": true, "github.com/go-logr/logr": true,
}
