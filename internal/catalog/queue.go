package catalog

import "strings"

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

// RootContexts are contexts with no deadline and no cancellation.
var RootContexts = newTable("context.Background", "context.TODO")

// DerivedContexts derive a context from their first argument without adding
// a deadline: the result waits as long as the parent does.
var DerivedContexts = newTable("context.WithCancel", "context.WithCancelCause",
	"context.WithValue", "context.WithoutCancel")

// SQLOpeners open a *database/sql.DB, whose pool has no maximum until
// SetMaxOpenConns is called with n > 0.
var SQLOpeners = newTable("database/sql.Open", "database/sql.OpenDB")

// PoolBackedOpeners open a *database/sql.DB whose connections all come from
// a pool that has its own maximum (pgx's stdlib over a *pgxpool.Pool): the
// database/sql face is bounded by the pool behind it, and has no row in
// SQLOpeners, whatever the fact on them says.
var PoolBackedOpeners = newTable("github.com/jackc/pgx/v5/stdlib.OpenDBFromPool")

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

// Servers are calls that make a main package a long-running server rather
// than a one-shot command.
var Servers = newTable(
	"net/http.ListenAndServe", "net/http.ListenAndServeTLS", "net/http.Serve", "net/http.ServeTLS",
	"(*net/http.Server).ListenAndServe", "(*net/http.Server).ListenAndServeTLS",
	"(*net/http.Server).Serve", "(*net/http.Server).ServeTLS",
	"net.Listen", "(*net.ListenConfig).Listen",
	"(*google.golang.org/grpc.Server).Serve",
)

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
