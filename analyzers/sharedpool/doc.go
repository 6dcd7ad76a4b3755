/*
Package sharedpool defines an Analyzer that reports a lane reaching another
lane's pool or client, and a pool or client shared between lanes.

# Analyzer sharedpool

sharedpool: report a lane that reaches another lane's resource, and a pool or client shared between lanes

ERR_SHARED_FAILURE_DOMAIN_DETECTED. A lane is a class of work with its own
share of every fixed-size resource: workers, queue slots, DB connections,
outbound sockets. The isolation holds only if no code path of one lane
touches another lane's resource: when the tax handler calls a helper that
queries the card-auth pool, a tax API at 8,000 ms holds card-auth
connections, and card authorisation goes down with tax.

Lanes come from two sources:

  - //bhlint:lane NAME in the doc comment of a func or method makes it an
    entry point of lane NAME; on a package-level var, or as the line
    comment (or doc) of a struct field, of a pool or client type (*sql.DB,
    *sqlx.DB, *pgxpool.Pool, gorm's *gorm.DB (jinzhu/gorm and gorm.io),
    *dbx.DB and dbx.Builder (pocketbase/dbx), a prepared *sql.Stmt,
    *sqlx.Stmt or *sqlx.NamedStmt, xorm's *xorm.Engine and
    *xorm.EngineGroup, bun's *bun.DB, *http.Client, *http.Transport,
    http.RoundTripper, go-redis's *redis.Client, *redis.ClusterClient,
    redis.UniversalClient and redis.Cmdable (v8 and v9), redigo's
    *redis.Pool, *grpc.ClientConn, MongoDB's *mongo.Client, *mongo.Database
    and *mongo.Collection (v1 and v2), gocql's *gocql.Session, and the
    program's own interface that has every method of one of these
    interfaces: `type Redis redis.Cmdable`, or one embedding it) it
    assigns that resource to lane NAME;
  - the bulkhead runtime's lane-typed types: a function handed to
    Executor[L].Do, Executor[L].Handler or bulkhead.Call with an
    Executor[L] runs in lane L, and a DB[L] (and the other lane-typed pools
    and clients) belongs to lane L. A lane type's name is turned into the
    lane's name as the runtime does: CardAuth is card_auth.

When a program declares no lanes at all (no directive, no lane-typed
runtime type, no lanes: in .bhlint.yml), two workload classes are
inferred:

  - interactive: request handlers registered with net/http (Handle,
    HandleFunc, http.Server{Handler}, ListenAndServe), chi, gorilla/mux,
    echo, gin, fiber, httprouter, fastglue or pocketbase's router (GET/POST/.../Route/Any,
    BindFunc on a route group), and the methods of a gRPC service
    implementation handed to a generated RegisterXxxServer (or to
    RegisterService), and of a Connect service handed to the
    NewXxxHandler protoc-gen-connect-go generates; the endpoint a go-kit transport serves
    (kithttp.NewServer(makeEndpoint(svc), dec, enc): the closure the
    factory returns); and, whoever registers it, a function that takes a
    request and the means to answer it (a response writer and an
    *http.Request, or a framework's context carrying both) that nothing in
    its package calls directly: the closure a handler factory returns to a
    project's own route builder (authn-server's
    route.Get("/health").Handle(handlers.GetHealth(app))). One handed only
    the request (an error reporter) is not a handler, nor one a handler
    calls;
  - background: functions started with go (or errgroup.Go,
    sync.WaitGroup.Go, run.Group.Add) that loop for the life of the
    process: a loop that waits on a ticker, a timer, a channel (a queue
    consumer, range over a channel) or a sleep on each round, or a loop
    with no way out; and jobs handed to a scheduler (robfig/cron AddFunc
    and AddJob, pocketbase's cron, go-co-op/gocron's Scheduler.Do in v1
    and the function given to gocron.NewTask in v2); and message handlers
    handed to a broker's subscription, which its client calls for every
    message (NATS's Subscribe and QueueSubscribe, JetStream's
    Consumer.Consume, paho MQTT's Subscribe, sarama's ConsumerGroup.Consume
    with its handler's methods, Google Pub/Sub's Receive, asynq's and
    watermill's handler registrations: entrypoints' consumers table; a
    client that hands messages over a channel is a receive loop already).
    A goroutine started on a request's path
    in the same package is part of the request, not background work; one
    that returns after its work is neither; nor is a worker whose loop
    receives only from channels that the function starting it makes,
    keeps for the call (no field, global or callee gets them) and closes,
    itself or in a function literal it makes, when that function does not
    itself loop: it ends when the call closes the channel (claircore's
    EnrichedMatch feeding its matchers' errgroup workers).

Membership flows down the static call graph: whatever an entry point of
lane L calls, directly, in a goroutine, through closures it creates, or
through functions of other packages (facts), runs in lane L. A function
handed to an executor runs in the executor's lane, not the caller's; so
does one handed to a user's wrapper that passes its func parameter on to
Executor.Do (learned as a fact, across packages).

Reported:

 1. code reachable from an entry point of lane L that uses a resource of
    lane M ≠ L, at the call in the entry point that leads there, with the
    call path (QuoteHandler → ledger.MerchantOf → ledger.CardDB);
 2. a package-level pool with no lane reached from entry points of two or
    more lanes (the shared pool);
 3. one underlying pool wrapped into two lanes (lanedb.NewDB[Tax](db) and
    lanedb.NewDB[CardAuth](db), or two laned vars built from one
    *sql.DB);
 4. the same for outbound HTTP clients and transports: http.DefaultClient
    used from two lanes, two laned clients over one transport;
 5. with inferred classes: a database pool or Redis client (a
    package-level variable or a struct field with no lane) that both
    interactive and background work reach, once per pool, where the
    wiring package creates it (the first call there whose result is such a
    pool, sql.Open, gorm.Open, dbx.Open or the program's own constructor,
    not a getter, a method or a function that returns a pool field of
    what it is handed: nightingale's models.DB(ctx) returning ctx.DB;
    for a dbx.Builder field, the first call returning *dbx.DB; else the
    call of a function that opens the pool into its variable or field,
    itself or through the functions it calls, as models.Setup() in main
    doing db, err = gorm.Open(…) in package models, learned as a fact;
    a function that fills the field from openings on exclusive branches,
    the configured driver's (autobrr's DB.Open: sql.Open for SQLite in one
    case, for PostgreSQL in another), opens one pool, and the other
    branches are named with it; one that fills it twice on one path opens
    two; for a field, only if this package calls such a function once), naming both classes
    and one call path from each; the related information points at the
    background loop and the handler (where they start, the line in each
    that leads to the pool, and each function on the way), at every other background loop that reaches the pool, and
    at the pool's declaration, and, for a pool opened by a setup
    function, at the line that opens it, and, when that line calls a
    function of its package that returns what it opened (openDB returning
    gorm.Open's result, in each branch), at those calls too, and at the
    openings of the other branches that may open it instead (openlist's
    InitDB opening gorm for SQLite, MySQL or PostgreSQL as configured),
    also when the finding sits at the first opening of its type. A package that sees both classes but
    neither creates such a pool nor is a main package leaves the finding
    to the one that does (the handlers' package that also imports the
    workers is not where the program is wired). A main package that
    reaches the creation by no static call (the commands of a CLI
    library are closures in its fields; storage openers registered in a
    map) reports it at the line of the package that opens it, the line to
    change: for a package-level pool, or the field of a value kept in one
    (provider = &PGSQLProvider{dbHandle: db}), the opening call, the
    first in the source where branches choose between two; for another
    field, the call of the outermost package that fills it, if that
    package does so at one call only (two calls fill two pools). The
    packages carry what they create in their summaries, as a driver
    shows main only the facts of the packages its export data mentions.
    A //bhlint:ignore written at that line holds. In an editor that
    shows a package only its own files' findings (gopls), the finding
    sits at main's package clause and names the line. A main package
    none of whose packages shows a line that opens the pool reports
    nothing, nor at its package clause: the binary hands the field no
    pool (an agent wiring ctx.New(nil) that reports to its server over
    HTTP), or opens it where bhlint cannot see, and a finding with no
    line to change is not one a user can act on. A field of a type
    declared outside the main module that the program opens nowhere (a
    metrics library's collector around a pool, which the program never
    builds, reached through the library's interface) is the dependency's
    state, no pool of the program's: not reported. One the program fills
    from a field of its own (a task queue's ClientConfig.DB and its admin
    pages' Config.DB, both handed the program's Container.Database) is the
    program's pool: named by the program's field and reported where that
    field is opened, as if both ends reached it directly. A library field
    filled from several of the program's fields (a second command of the
    module that opens a pool per lane) is, for each main, the field that
    main opens.

Cases 2–5 are reported in the first package that sees both lanes (often
main), at the entry point or wrap of this package, or else at its package
clause. Misplaced lane directives are reported too: one attached to nothing
bhlint reads (a type, a local variable, a statement), and a lane on a
variable or field that is not a pool or client. A directive with a missing
or malformed name is reported by the directives analyzer
(ERR_MALFORMED_DIRECTIVE).

Fix: give each lane its own pool or client and pass it down, declare it
with //bhlint:lane NAME (or use the runtime's lanedb.DB[L] or lanepgx.Pool[L]), and move work that needs
another lane's data into that lane (through its executor).

Declared lanes always win: a package with lane directives infers nothing,
and inferred classes are ignored wherever a declared lane is visible.
lanes.infer: false in .bhlint.yml turns inference off:

	lanes:
	  infer: false
	  declare: []   # the list form of lanes:, if any

Escape policy: a resource is identified by the package-level variable or
struct field it is loaded from, or by its lane-typed type. Only explicit
uses count: http.DefaultClient.Do does, http.Get (which uses it inside
net/http) does not, and the internals of database/sql, sqlx, pgx, gorm, dbx,
xorm, bun, go-redis, redigo, net/http, MongoDB's driver, gocql and the runtime are never resources of their own (the *sql.Stmt
a *sqlx.Stmt embeds, the *sql.DB in a *sqlx.DB: the program's variable or
field holding the wrapper is the resource). An ORM or
query-builder handle (*gorm.DB, *dbx.DB, a dbx.Builder field, an xorm
Engine or EngineGroup, a *bun.DB) wraps one *sql.DB (an EngineGroup, its
primary's and replicas') and is that pool, as a *mongo.Database or
*mongo.Collection is its Client's, opened where mongo.Connect is called; an xorm Session, a gorm association or statement, dbx params and
a user's type that merely shares a name (a package of its own called gorm)
are not pools. A prepared statement kept in a variable or field is a use
of the pool it was prepared on: for inferred classes it is one pool with
it when it is stored from a call given that pool (s.count, _ =
s.db.Prepare(q)), and so is every statement field of a struct stored from
such a call (app.queries = initQueries(db), which prepares a struct of
*sqlx.Stmt on db), and every statement field of a struct a call fills
through the pointer it is handed beside the pool (goyesql's loaders and
the helpers around them: ScanSQLFile("queries.sql", &q, opt.DB), by
reflection); the call is not read, any call given exactly one pool is
taken to prepare on it, one given two links nothing, and a statement
linked to no pool is a pool of its own (reported if both classes run that
very statement). A pool that entries reach only through its statements
(the DB field of the options a manager's constructor was handed) is named
by that field, and the finding sits where the one opening that fills it
is (main's sqlx.Connect); a field two openings fill (one manager per
pool) has no such place, and the finding stays where it would be
without one. A struct field with no lane
is not treated as shared, since each lane may fill its own instance; a
laned field is that lane's wherever it is read. A function creates a
pool when it stores into a variable or field with no lane the result of a
call of a function (not of a method: db.Unsafe() or a getter opens
nothing, nor does a function that returns a pool field of a parameter; a copy of another variable neither, unless that variable is a
local written once, with that result: conn, err := openDB(cfg), captured
by the migration closures, then Database{DB: conn}), directly, in a closure it
makes (sync.Once.Do) or through its static callees. A pool is created where it is opened,
whatever carries it: a function that opens a pool and hands it to a
function that stores its parameter in a variable or field (redis, err =
dataRedis.New(url) in one branch, NewSentinel in the other;
data.NewBlobStore(…, redis, …) filling redis.BlobStore{Client: redis}, a
storesParam fact across packages) creates that field's pool at the opening
call, and the finding points at every branch that opens it; the
variables and fields one opening fills (the token store's and the job
queue's, from the db app.New opened once) are one pool under several
names, so handlers reaching one and background work the other share it
(the path ends at the name reached, then the pool's); a function
that fills one field from two openings (NewStore(a) for the handlers,
NewStore(b) for the jobs) creates neither. A variable is one pool
whoever calls its creator; a field is filled anew by each call, so a
package that calls a field's creator twice (one pool for the handlers, one
for the jobs) has no single call to report, and the finding stays where it
would be without one. Openings that no static call wires, each a
configuration's choice (dex's storage flavours, opened through its
StorageConfig interface from a map of constructors), are one pool per
process: the finding sits at the first, the others are related
information. A pool passed as a
parameter is attributed at the load that produced it, in the caller; one
a function stores into laned variables or fields (NewDeps(db) filling Card
and Tax with db) is wrapped into those lanes. A call through a func-typed field of
one of the package's own struct types (j.Run(c), where the package's jobs
are values &Job{Run: func(c) error {…}}) reaches what every function the
package stores in that field reaches; a field of another package's type
is not followed, since who else fills it is not known there. Other calls
through function values stored elsewhere are not followed, so a resource
reached only that way is missed rather than guessed at. Calls through an interface declared outside
the standard library (in a package that may reach a pool library, or in
the analysed module, wherever: a store's interface is often declared in a
package that imports no database, shellhub's store.Store, for
implementations in one that does, store/mongo; every package of the
module is read for such calls, a service over the interface too)
are carried in facts unresolved and resolved in the
package that sees the implementations (every named type of the packages it
imports, directly or not, and the implementations the package declaring
the interface saw in the packages it imports: a store package that imports
its backends to choose one): the call reaches the pools of every visible
implementation that reaches one, each named on the path. One that reaches
none (an in-memory store, the backend of a test or a small deployment)
does not make the others safe: which one runs is the deployment's choice,
and where the database's runs, its pool is shared. Such a call is no
longer carried from the package that sees an implementation reaching no
pool: it is resolved there, with what is visible there, whichever
package's call it is (dex's main imports storage/memory beside
storage/sql, and resolves there the server's calls through
storage.Storage). A stand-in is not
such an implementation: a no-op kept in the interface's own package
(permify's NoopDataWriter beside DataWriter) or a double in test support
(a package under test/, tests/, testutil/…) reaches no pool by design, so
calls of the method are carried on to the package where the program is
wired and its backends are visible. A method promoted from an embedded
interface field (type S struct{ model.DataStore }) is no implementation
at all. A pool that
is only compared with nil (if s.db == nil, an IsReady check) is not used:
asking whether a pool is open takes no connection. Calls through
an interface literal (v.(interface{ Save(string) error })), whose
implementations no package can look up, and through the interfaces of
test-support libraries (testify's TestingT, gomock's matchers: *testing.T
and test doubles implement them) are not carried at all. For inferred classes a struct field is one pool
wherever the struct is filled: two instances of one type with a pool each
(one for requests, one for the background) are reported as one pool;
give the background its own field or type (a separate background pool in
a field of its own is not reported). A field filled only from a getter
of another pool field (&userRepo{db: d.GetDB()}, where every visible
implementation of GetDB returns its receiver's dbx) is not a pool of its
own: it is that pool, opened where dbx is, and the finding names it and
sits there. Test files are not read: a
test is no lane's entry point.

The lane map (bhlint lanes [-format=text|json|dot] [packages]) prints what
this analyzer learns: each lane's entry points, the resources each lane
reaches, and the resources lanes share.

Suppress a finding with //bhlint:ignore ERR_SHARED_FAILURE_DOMAIN_DETECTED
reason, on the line or in the doc comment of the enclosing function.
*/
package sharedpool
