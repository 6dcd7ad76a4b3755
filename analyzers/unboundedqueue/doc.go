/*
Package unboundedqueue defines an Analyzer that reports work queued with no
bound on its length or its wait.

# Analyzer unboundedqueue

unboundedqueue: report work queued with no bound on its length or its wait

ERR_UNBOUNDED_QUEUE_DETECTED. A limit on active calls with an unlimited
pending queue only moves the overload into memory and latency, and a queue
with no timeout is a waiting room that never closes: when a dependency
slows, the queue grows until the process runs out of memory or every caller
has timed out. Go makes such queues easy to write by accident. Each finding
names its shape and the fix, and is reported where the unbounded thing is
created or started.

The rule: report when the number of goroutines, waiters or items is set by
something outside the process's control (a request's body, query or path,
a message or delivery stream, database rows, a channel fed by those) and
nothing between that input and the growth caps it. A cap is a guard that
rejects or truncates above a bound, a semaphore or limiter taken before the
work, a fixed set of workers, SetLimit, SetMaxOpenConns. A guard is a cap
only if it caps: len(x) > 0, len(x) == 0 and len(x) >= 1 test emptiness and
let any number through. A list the code or its configuration fixes (a
literal, hooks it registers, the configured peers) is not input, nor is
the cluster's membership (the hosts of a ring: as many as the operator
runs), nor a list fixed when the process starts (the servers main built,
the processes of the Procfile main read). Nor are database rows read
with a constant LIMIT (LIMIT 10, FETCH FIRST 10 ROWS ONLY, an ORM's
Limit(10)), in the statement at the call or in the one a *sql.Stmt field
was prepared from, whether the loop is over the rows or over a local slice
filled only from them: at most that many, whatever the table holds
(goalert's stuck-message check). A LIMIT with a placeholder is the
caller's choice, and a slice that something else also appends to is not
capped by it.

 1. goroutine per item: a go statement (or sync.WaitGroup.Go) inside a loop
    over a slice, map, channel, query rows (for rows.Next()) or any
    cursor whose Next takes nothing or a context and returns only a bool
    (MongoDB's Cursor.Next, a store's own iterator over its records: one
    more stored item each round) — a loop over
    a channel also written by hand: an uncounted for loop whose select case
    receives a value (case m := <-jobs:) with the go statement in that case,
    or whose body starts with m := <-jobs; a case that receives no value or
    an empty struct (a signal: wake, stop) and a time.Time (a tick: the
    clock sets the pace, not input) are not items, nor the values of a
    channel the function closes before the loop (it drains the buffer:
    at most its capacity); a loop that reads, each round, the next
    message a peer sends over a connection (a gRPC stream's Recv or
    RecvMsg, a WebSocket's ReadMessage, a broker's NextMsg or
    FetchMessage: the catalogue's ReceiveCalls, also through an interface
    of the service's own that such a connection implements, as a
    WebSocket kept behind one for tests is) with the go statement after
    the read, one goroutine per message, as fast as the peer sends
    (tracetest's agent, one per request its control plane streams); not a
    listener's Accept, whose connections are the server's sources — or a call in the body of
    such a loop (not in its range expression, evaluated once) of a
    function that starts a goroutine on every call (a fact,
    across packages: a go statement among the top-level statements of its
    body, as in webhook.PostAsync(p) or routine.FireAndForget(f), or a
    WaitGroup's Go there; a check of a closing channel before it, a select
    whose one case receives from a channel the function neither closes nor
    sends on and returns, with a default that goes on, is a shutdown
    check, not a guard: it returns only after the runner is closed; and a
    function that hands a func parameter of its own to such a function on
    every call is one too (yorkie's Backend.Go passing f to Background.Go);
    or under ifs and switches that look only at what the call was handed (its
    parameters and what it computed from them: a message handler that
    starts one for each "since" message, a notifier for each user with an
    address), reported at the call with that go statement as related
    information; not one under a condition on state (an entry of a map
    kept in a field is state: the servers started so far, by port) or after a return that
    state decides (a guard that starts it once, if s.running), not one a
    bool parameter switches on (PostMaybe(p, async): the caller's mode),
    not in a sync.Once's function literal, not one that serves the value
    its function returns (a channel the goroutine uses is in what it
    returns: minio's GetObject feeding the object's reads), not one whose function takes a slot first
    or whose goroutine tries for one in its first statements, not one the
    function waits for before it returns, and not in a function that
    returns a channel, a func or a *sync.WaitGroup: a handle the caller
    joins the goroutine with, as in Drain(ch).Wait()). Silent when
    the function returns right after the start, before the loop can go
    round again (the start is in a return statement, or a return follows
    it in its block or a block around it with no continue, break or goto
    between: return c.TailPodLogs(ctx, pod) in a loop over a job's pods
    tails the first one): one goroutine per call; when
    a slot is taken before it in the loop body (a send of a constant or
    struct{}{} on a channel, a receive, a limiter; a result or a counter
    sent is data, not a token), or tried for in a top-level statement of
    the goroutine's body (see "What counts as a limiter"); when every round of the loop that starts one sleeps (a
    time.Sleep among the top-level statements of its body, before the
    start, or after it with no continue between them: at most one
    goroutine per interval, the pace a rate.Limiter's Wait sets; not a
    sleep under an if, which paces only the rounds that take it, nor a
    constant duration of zero or less); when the loop is counted (for i := 0; i < n; i++, range over
    an int: a worker pool) or ranges over an array, a literal list, a local
    variable only ever assigned literals ({pg, mysql, crdb}), a list of
    funcs (hooks the code registered; not a map of funcs of a type the
    package deletes from: subscriptions, which come and go with their
    subscribers, as coder's pubsub listeners, one per request that watches
    a job, each notification starting one goroutine per listener) or of a type the code declares as a
    list of a non-empty interface (type FanoutStage []Stage, run by its own
    Exec: the stages a pipeline assembles, behaviours, not data; an
    unnamed slice of an interface may hold entities, one client per
    connection, and a map's keys may come from input), or a list read from
    configuration (an expression naming cfg, conf, config, settings,
    options, opts or ...Config, or a value of a type that a package named
    config, conf, configuration or settings declares or that is named
    ...Config, or of a struct type of the package that such a type holds,
    at any depth, as a value or in a slice or map (MonitorConfig{Instances
    []Instance}: an Instance's HeartbeatURLs are the operator's; not
    through a field that is one pointer, ServerConfig{Hub *Hub}: a
    dependency the program built and handed in; nor a type that a
    function handed a request builds, a variable or literal of it there:
    the request's data, whatever configuration also holds one), directly
    or through the
    assignments of locals and the range statements that define them:
    NewInhibitor(rs []config.InhibitRule) appending one rule per cr of rs)
    or the list a function of a
    membership package returns (a package named membership, memberlist,
    discovery or serf: resolver.AvailableMembers(), directly or through a
    local; a method of that name elsewhere, a store's group members, is
    data) or any list of a membership package's type (peers func()
    []*memberlist.Node); or a list of listeners (net.Listener, or a type
    with its Accept and Addr: the sockets the process opened to serve on,
    one server each); or a list fixed at start-up: the
    loop is in code that runs only at start-up (main, init, a function
    that subscribes to the process's signals outside its function literals
    (signal.Notify, signal.NotifyContext: it runs until the process is
    told to stop, so once per process, as a command's Run() that starts the
    modules compiled in, waits for SIGTERM and stops them; a function or
    method, handed neither a request nor a context, that binds the
    listeners it serves on), and the plain
    functions — unexported, or any of a main package — that only such code
    calls, also from its function literals, except one that takes a
    request: a handler main registers) and not in such a literal; or the
    list is a variadic parameter that no call in the package fills from a
    slice (f(xs...)): its callers write it out argument by argument; or it
    is a field only the package can write (unexported, or of a main
    package) that is written only in start-up code or with a value read
    from configuration (NewBroker(config) copying config.Shards; an entry
    set by index, rt.routes[name] = url, is a write of a map field), and whose
    address is never taken (a generic type's field is one field, whichever
    instantiation writes or reads it: newManager[T] filling consumers from
    []ExporterConfig, Start ranging over m.consumers); when the
    code caps len(collection) before the loop (compares it with something
    other than 0 or 1); or the collection is a parameter of the function,
    never assigned in it, the function is not a request's own (one
    handed a request), and only the module can call it (unexported, of a
    main package, or exported by an internal package: an exported
    function of a public package is an API, which anyone may hand any
    list, and is judged where it is): then its callers decide, by the
    same rules, at the
    argument they hand (a literal or nil, a local only ever assigned
    literals, configuration, also through an accessor taking nothing
    named for it: s.getOpts().Addrs, srv.GetConfig(); the cluster's
    members; a length the caller checked; a batch with a constant LIMIT;
    a list made in start-up code or kept in a field only start-up code
    sets), and the first call that hands a list none of these fixes
    reports the go statement, naming the call (nsq's clusterinfo querying
    each lookupd address nsqadmin hands it from its options is not
    reported; a helper handed the rows a handler read is). A caller that
    hands on a parameter of its own defers to its own callers; an
    internal package's exported function's callers in other packages
    decide through a fact (fansOutOverParam), and one nobody in sight
    calls is not reported; an
    unexported one that no call names (a func value), or a main package's
    (nothing imports it), is reported where it is; when the
    loop waits for what it started (a receive, a Wait) after the start; or
    when each goroutine ranges over a part the code made (a chunk of a
    list, one producer's channel) and the function waits for them all
    (WaitGroup or errgroup Wait) after the loop: as many goroutines as
    parts, all gone when it returns; or when each goroutine's work loops
    for as long as its source lives (a receive loop over a channel, also
    one that takes each item through a helper that receives it,
    getNextLine(queue); a ticker loop, an infinite loop, in the work or
    two calls down: the rule
    that makes a goroutine background work), or is a runner handed only a
    stop channel (Run(stopCh <-chan struct{}), as Kubernetes' informers
    take it, in any package: it runs until the channel closes), or serves a listener's
    connections (a blocking serve of the catalogue's ServeLoops, http's
    ListenAndServe and grpc's Serve, or a function that accepts in a loop,
    in this package or another: servesConns, a fact; sftpgo's FTP, WebDAV
    and HTTP servers, one per configured binding): one reader per shard,
    file, peer, plugin, listener or input channel is bounded by how many
    sources the deployment or the code set up, not by how fast input
    arrives; or
    when the goroutine's work only computes: through its own package's
    static calls it sends, receives or selects on no channel, starts no
    goroutine, makes no dynamic call and calls outside the package only
    functions that compute (sync/atomic, strings, sort, sync.Map's
    methods…) or log (log, slog, zap, logrus, zerolog, klog, logr: a line
    written to the process's own output waits on no dependency): it ends
    in CPU time however slow a dependency is, so one per item is
    parallelism, not a queue. The same holds for a function that starts a
    goroutine on every call: one whose goroutine only computes and logs (an
    audit line written per change a request made) is not such a starter
    (asked in the program's own packages: the question builds a package's
    SSA, which a dependency analysed only for its facts does not pay for).
    Fix:
    take a slot first, or start a fixed number of workers that read from
    a channel.
 2. errgroup without a limit: (*errgroup.Group).Go in such a loop, on a group
    created in the function (var g errgroup.Group, new, &errgroup.Group{},
    errgroup.WithContext) with no g.SetLimit(n), n >= 0, in a block around
    the loop and before it (so on every path). Fixed g.Go calls outside
    loops are fine. Fix: g.SetLimit(n) right after creating the group.
 3. pool without a maximum: a *sql.DB from sql.Open or sql.OpenDB, or a
    pool an ORM or sqlx opens around one (gorm.Open, xorm.NewEngine,
    sqlx.Open and Connect, ent's sql.Open: the catalogue's
    PoolWrapperOpeners), that is stored (a field, a global, a struct
    literal), passed to a function, or used by a function literal, with no
    SetMaxOpenConns(n > 0) on it in the function: on the pool, on the *sql.DB
    inside it (db.DB().SetMaxOpenConns(n), or sqlDB, err := db.DB() then
    sqlDB.SetMaxOpenConns(n)), or the wrapper's own (xorm's
    engine.SetMaxOpenConns(n)). A function that returns the pool unbounded
    exports a fact (opensUnboundedDB), and its callers, in any package, are
    checked in its place; one handed to a dependency-injection container
    as a constructor (fx.Provide(newSQL), through fx.Annotate, dig's
    Provide: the catalogue's ContainerProviders) has no caller of the
    program's, and the container keeps what it returns for the process's
    life, so it is reported at its open. When the opener is the program's own (declared in
    the analysed package's module) and a caller stores the pool with no
    maximum, the finding sits at the open inside the opener, the line to
    change, once for all its callers (minder's GetDBConnection, used by
    five), at each branch of an opener that chooses the driver
    (authn-server's data.NewDB over its mysql, postgres and sqlite3
    packages), with the caller's line as related information; the open
    of a dependency's opener is the program's call of it, not the
    sql.Open in the module cache. A caller that sets a maximum only when
    configured, or sets it to 0, is reported at its own line, the one to
    change. The same holds when the opener returns the pool inside a value that
    carries it (a wrapper's handle with the pool in a field or a DB()
    method: database = Wrap(gormdb); return database, and its caller's
    dbSession.DB().SetMaxOpenConns(n) bounds it), and when it passed the
    pool to calls before returning it (a migration run in sequence:
    MigrateDB(db); return db), but not when it stored it, captured it in a
    function literal or handed it to a go or defer statement first; a function that calls SetMaxOpenConns on a pool parameter (a
    *sql.DB, or an ORM's handle through the *sql.DB inside it: a
    setDBConns(db *gorm.DB) helper) exports boundsDBParam, and passing the
    pool to it bounds it, also when the pool was stored in a package
    variable or a field first (DB, err = open(dsn); setDBConns(DB)). A
    method of the package's interface that every implementation in the
    package implements with such a function opens a pool too (a driver
    interface whose PGXDriver and PQDriver each return sqlx.Connect's
    pool): a caller through the interface gets a fresh pool whichever runs;
    one implementation that hands back a pool it holds makes it no opener.
    SetMaxOpenConns(0) is no maximum, and so is one under an if that tests
    its own argument (if cfg.MaxConns > 0 { db.SetMaxOpenConns(cfg.MaxConns)
    }): the pool has a maximum only when the operator sets one, and none by
    default (a fallback in the else, or a condition on something else, such
    as the driver, is taken as a maximum); so is one past an early return
    when a value other than the pool is nil (cerbos' Configure on the
    optional connPool section: if cc == nil { return }), which makes no
    boundsDBParam. A pool opened in a function literal into a variable of
    the function around it (db, err = sqlx.Connect(…) in the closure a
    retry helper runs) is that function's: it opens the pool, as if it had
    called sqlx.Connect itself. An opener in a generated file (ent's
    client Open, which opens the pool and hands it back inside the client
    it returns, through NewClient(append(options, Driver(drv))...): a value
    that can hold the driver in a field of an interface the driver
    implements) is nobody's to edit: the finding sits at the program's
    call of it, as for a dependency's opener, and says to open the pool,
    bound it, and hand it to the client's driver. Not reported: a pool in a function
    that takes a *testing.T, *testing.B or testing.TB (a test fixture,
    even outside a _test.go file), and a pool the function closes with
    defer (db.Close() or a deferred literal calling it) when it neither
    stores it, starts a goroutine nor serves (a migration run, a one-shot
    check: nothing concurrent waits on it).
    pgxpool is not reported: its pool always has a maximum
    (pool_max_conns, by default the larger of 4 and the number of CPUs),
    nor a *sql.DB that draws every connection from such a pool
    (stdlib.OpenDBFromPool: the catalogue's PoolBackedOpeners), which that
    maximum bounds, nor sql.OpenDB over a connector of the program's own
    struct type with no fields (a fake database in process, which holds
    no address and waits on nothing). Fix: db.SetMaxOpenConns(n) with the
    lane's share.
 4. wait with no deadline: a call that waits for a slot (the catalogue's
    SlotWaits: semaphore.Weighted.Acquire, (*sql.DB).Conn, BeginTx,
    QueryContext and the other context methods of a pool, pgxpool's Acquire,
    Begin, Query, Exec…) whose context is context.Background() or TODO(),
    directly or through WithCancel or WithValue, or WithoutCancel of any
    context (it drops the parent's deadline and cancellation), with no
    WithTimeout or WithDeadline. It is reported where it is in a request's
    own function (one that takes the request, a gRPC method, a handler
    literal, or a method implementing an interface that another package of
    the program declares, handed a context; a goroutine's literal, go
    func() { … }(), is judged with the function that starts it, and any
    other literal, a callback whose runner is not followed, such as
    pocketbase's model-delete hook, where it is), and otherwise where a
    request reaches it, as a wait with no context (below): a wait for a slot
    matters where requests queue on it, and one that only start-up or
    background work reaches (coroot's watcher taking its lock on every
    tick, hatchet's check run once per process, tracetest's configuration
    read at start-up) queues behind no request; its one loop is all that
    waits. Not a wait for a slot: sem.Acquire(ctx, n)
    on a local sem := semaphore.NewWeighted(n), which takes every slot and
    so returns when the work already started has finished (a join); nor a
    wait on a pool the function has just opened and not yet shared (db :=
    sql.Open(…) or pgxpool.New(…), or any function that hands back a fresh
    pool by its fact, as pgx's stdlib.OpenDB; then db.ExecContext(context.TODO(),
    "SET sql_mode …") before db is stored, passed, captured or returned,
    and not in a loop that shares it on an earlier round): every slot of
    that pool is free, so the wait queues behind nobody. A wait is also
    whatever reaches one: a call of a function that hands its context
    parameter, with no deadline added, to such a wait in its own body
    (forwardsSlotWait, a fact across packages, to a fixed point): sqlf's
    QueryAndClose(ctx, db, …) running db.QueryContext(ctx, …) on the
    Executor it is handed, when the caller hands it a pool (a transaction
    already holds its connection), or a store's Save(ctx) beginning on the
    store's own pool. The call given context.Background() is judged as
    the wait itself, with the wait as related information; on a database/sql pool or a
    wrapper of one, only where a maximum is known, as below (soft-serve's
    Transaction handing Background() to its embedded *sqlx.DB, which no
    package bounds, opens a connection instead of queueing; a pgxpool
    has a maximum by default: catalog.DefaultBoundedPools). Not followed: a wait in a
    goroutine or function literal the function makes (it may run after the
    call), a wait the function gives a deadline of its own, and a method
    of an interface field (sqlc's DBTX, which a transaction may fill). Fix:
    derive the context with a timeout, or pass the caller's. The runtime's executors are not waits of this kind:
    a lane's queue wait is bounded by its QueueTimeout (shape 6).
    Also a wait with no context at all in a function that was handed one
    (a context.Context parameter, or a framework's context that is one,
    gin's *Context): the wait ignores the cancellation it was given. It is
    reported where it is when the function is the request's own (it takes
    the request, or has a gRPC method's shape) or when no request's path
    can be followed to it (a method of an interface declared in a package
    it imports, which callers reach through the interface without seeing
    the implementation: apache/answer's repositories under its service
    layer; the handed context is then the evidence of a request there is),
    and otherwise where a request reaches it, as a wait in a function
    handed none (below): being
    handed a context does not put a function on a request's path, since a
    worker's loop hands its own down too, and a wait only background work
    reaches queues behind no request (indigo's relay: ninety-seven gorm
    calls without WithContext in its ingestion, crawl and compaction
    workers, twelve on its public endpoints' paths). The waits are the pool
    methods without the Context suffix (database/sql's Query, Exec, Begin…,
    sqlx's Get, Select, MustBegin…: ContextlessSlotWaits) and an ORM's
    round trips (DatabaseWaits) on a handle none of whose builders attached
    a context (catalog.ORMContextSetters: gorm's WithContext, xorm's
    Context): r.db.Where(…).First(&u), or apache/answer's
    data.DB.Transaction(func(s) { s = s.Context(ctx) … }), which waits for
    its connection before the callback attaches the context. A handle that
    is a parameter, or comes from a function that returns one, may carry
    its caller's context: the wait of a helper that runs its round trip on
    the handle it is handed (tekton results' getRecord(txn *gorm.DB, …)) is
    decided at each call by the argument passed — the shared handle (a
    field, a package variable: getRecord(s.db, …)) makes it a wait with no
    context at the call, the line to change; a handle with a context
    attached, a transaction, or anything not followed makes it none; the
    caller's own parameter hands the question to its callers. A field or a
    package variable is the shared handle and carries none, and so does what a function returns
    that only reads one out (nightingale's models.DB(ctx) returning ctx.DB:
    returnsSharedHandle, a fact), or that is handed neither a context nor a
    handle and attaches none (dtm's dtmutil.DbGet(conf), returning the pool
    it caches per DSN). A struct that embeds a handle is one (dtm's
    dtmutil.DB wrapping *gorm.DB: dbGet().Transaction(…)). A transaction an ORM's Begin returns
    (gorm's tx := db.Begin()) runs its queries on the connection it holds:
    they wait for no slot; the Begin does. So do the methods of a
    transaction or a connection type, or of a type embedding one (sqlx's
    Tx.Select), whatever the code they share with the pool's methods does
    (sqlx's package-level Select, which DB.Select calls too). Not in main or init, nor in a
    function handed no context (start-up, a migration step), unless a
    request reaches it: per-request is whatever an entry point reaches.
    As for every wait for a slot, the pool needs a maximum (SetMaxOpenConns
    with n > 0, or a *sql.DB opened over a pool that has one: pgx's
    stdlib.OpenDBFromPool, catalog.PoolBackedOpeners): in a package
    that neither gives a pool one nor imports one that does (a store
    handed its *gorm.DB by main), the finding is kept pending and the
    first package on the imports' way that knows a maximum (main) reports
    it at the store's line (test support, a fixture handed a *testing.T,
    is dropped where it is, as the package that would report it cannot
    tell). That holds for a wait in a function handed no context too when
    the store's package opens no pool of its own: the pool it waits on is
    the one the program hands it (sliding-sync's sqlutil helper beginning a
    transaction on main's *sqlx.DB); a package that opens one is judged by
    its own maximum. A program that gives no pool a maximum
    (garm's gorm store) reports none, as a query there opens another
    connection instead of waiting, and what the pool lacks is its
    maximum, reported where it is opened. A
    function handed no context that waits this way, itself or through the
    functions it calls (also in a goroutine it starts on every call, go
    func() { … }(), which waits on its behalf: indigo's subscribeRepos
    playing the history back), carries waitsNoContext (a fact, across packages),
    and so does a method of an interface whose package sees such an
    implementation among its own types and its imports' (gatus's
    store.Store, filled by its SQL store: the handlers call through the
    interface). A request's path (the handlers any package registers,
    and what they call there; and a method implementing an interface that
    another package of the module declares and whose handlers call it
    through the interface, servedPerRequest, a fact: tracetest's
    controller behind its openapi-generated router, an oapi-codegen
    strict server's implementation) that calls such a function or method
    reports the wait where it is, in the store's package when the call
    crosses into it, with the call and the entry point as related
    information, once (the first package on the imports' way that
    reaches it); so does a request's path that calls a method of an
    interface another package of the module declares when neither package
    sees its implementations (dex's server calling storage.Storage,
    implemented by storage/sql, which only main imports): the calls are
    kept (servedElsewhere, a package fact) and the first package that also
    sees an implementation that waits this way (main, which wires it in)
    reports its waits, with the call and the entry point as related
    information (an implementation with no wait, an in-memory store, is
    silent); the same wait reached only by background work is not
    reported, nor a wait in a package that gives no pool a maximum
    (SetMaxOpenConns with a value that may be positive): a wait for a
    slot needs one, and a pool without one opens a connection per caller
    instead of queueing them. A dependency's code (a versioned module's, or
    one vendored into the program) carries its waits whatever its
    maxima, as a library never sets one; where the module's code calls
    into it, the wait becomes that call, the line the program can change,
    when the calling package or one it imports gives a pool a maximum
    (utask's handlers calling zesty's DBProvider.Tx, which reaches
    go-gorp's DbMap.Begin and database/sql's Begin through two
    interfaces). A handler package that neither gives a pool a maximum
    nor imports one that does (utask's api/handler; only api and main
    import utask/db, which bounds the pool) keeps such a finding pending
    (a package fact): the maximum is the program's, and the first package
    on the imports' way that gives one or imports one that does (the api
    that wires both, the main package) reports it at the handler's line,
    once. A program none of whose packages gives a maximum leaves it
    pending. Fix: the
    Context variant, or attach the context to the handle first; for a
    function handed none, hand the request's context down to it; for a
    library that takes none, its variant that does. Neither
    kind of wait is reported in a function that sets up the database's
    schema, which runs before the service can serve (its requests need the
    tables), so that nothing queues behind it: one that calls a migration
    library (catalog.SchemaMigrations: golang-migrate, goose, sql-migrate,
    gorm's AutoMigrate, xorm's Sync), runs a constant DDL statement on a
    pool (CREATE, ALTER or DROP; not CREATE TEMPORARY TABLE, a query's
    scratch), a package variable initialised with one, or each
    statement of a package variable listing them
    (for _, stmt := range schema { db.Exec(stmt) }), or reads SQL scripts
    out of the program's embedded files (an embed.FS read in a function
    naming .sql files): dendrite's table constructors, coder's migrations,
    memos's Migrate; and a function of the package that calls one that
    does (a driver's New that opens the pool, creates the tables, then
    copies old rows with context.Background()). A service that makes
    a schema per tenant on a request's path is missed. Nor is a pool's wait
    reported in an embedded database's backend (a package named for one of
    catalog.EmbeddedDrivers: sqlite3, sqlite, duckdb) that gives no pool a
    maximum: a wait for a slot needs a maximum, and a pool without one opens
    another connection (a file in the process, not a server's) instead of
    queueing the caller; what it lacks is its maximum, reported where it is
    opened (dendrite's per-call Prepare in its sqlite3 tables). A backend
    that sets one (SetMaxOpenConns(1), serialising SQLite's writers) queues
    its callers, and its waits are reported; a semaphore's wait is reported
    in such a package as anywhere. A SQLite backend in a package named
    otherwise is judged as a server's pool.
 5. slice used as a queue: a struct field of slice type that a method
    appends to on its receiver (r.f = append(r.f, …)) while holding a
    sync.Mutex or RWMutex (so producers and a consumer share it), with no
    comparison of len(r.f) in that method, and that another function drains
    (f = f[1:], f[n:], f[:0], nil, make(T, 0)) other than in a Close, Stop,
    Shutdown, Reset, Clear, Cleanup or Teardown, which is teardown. A
    length check is one that caps: len(r.f), or a local set to it (n :=
    len(r.f) under the lock, n >= batch after it), compared with something
    other than 0 or 1; len(r.f) == 0 (wake the consumer) is not one. A
    slice of funcs (callbacks registered for one transaction or event, run
    once) is hooks, not data, as in shape 1. A reset (nil, [:0],
    make(T, 0)) drains only where the function first takes the items out
    (out := r.f, a range, an index, a call); a function that removes one
    entry found by a search (append(f[:i], f[i+1:]...), a swap-remove) keeps
    a registry or a set, not a queue. A slice one goroutine fills and resets
    (a builder, a reused buffer) and an empty literal that only replaces nil
    are not queues; nor is a slice whose every producer, after its append,
    calls the function that drains it (not in a goroutine): each empties
    what it added before it returns (a hand-off that serialises
    notifications), so the slice holds one entry per producer running at
    that moment; nor one the appending function first replaces with a
    fresh empty slice (m.pending = make([]T, 0, len(in)), then appends from
    in): it holds one call's list, not what earlier calls left. Fix: check
    the length against a bound and
    reject or drop when full, or use a buffered channel.
 6. runtime configuration: a bulkhead.LaneSpec literal (the runtime's
    github.com/bhlint/bhlint/bulkhead, known by import path) with a
    constant MaxQueued below zero or at least math.MaxInt32 (an unlimited
    queue), or a positive MaxQueued with no positive QueueTimeout. Fix: a
    small MaxQueued with a QueueTimeout, or MaxQueued 0 to fail fast.
 7. goroutine per request: in a function that runs once per request — one
    that takes an *http.Request or a framework's context that carries one
    (a struct or interface with both the request and a response writer:
    gin's *Context, echo's Context, pocketbase's *RequestEvent, a
    project's own context type that embeds one), or an
    exported method shaped as a gRPC method (a context and a pointer to a
    generated message, one with ProtoReflect; a response and an error), or
    a function literal that takes one wherever it is written (the handler
    a constructor returns: func(app *App) http.HandlerFunc { return
    func(w, r) { go … } }; the constructor itself is not per request; not a
    method of an http.RoundTripper or of a request doer (Do(*http.Request)
    (*http.Response, error), what generated API clients send through),
    whose *http.Request is the one its client sends: a transport that adds
    a token takes a lock per outgoing request, not per request the process
    answers — a type whose own RoundTrip or Do is declared on it, not
    promoted from an embedded transport,
    and that is no http.Handler: a proxy that serves and is its own
    transport answers requests), or a method handed a context that
    implements a method of an interface another package of the program
    declares (callers reach it through the interface without seeing it:
    an authentication scheme registered from its own package, which the
    API asks to send the reset mail; the handed context is the evidence
    of the request, as for a wait that ignores it; a method handed none,
    a start-up warm-up, is left to its callers) — a
    goroutine started outside any loop (a go statement, wg.Go, or a call of
    a function that starts one per call with a function literal as its
    work, routine.FireAndForget(func() { … })), also in a function literal
    the request runs (a hook's handler), that either runs a function parked
    on a send to a shared queue (go pool.Push(jobs), where Push waits for a
    fixed set of workers: a fact; not a method of a value the function made
    itself, as a session the request creates, whose queue has the consumer
    the request starts, nor a function handed such a value whose own queue
    it parks on: go httpapi.Heartbeat(ctx, conn), conn the websocket the
    request accepted, sends on that connection's write-timeout channel,
    read by the goroutine the connection started, one per connection; the
    fact says which parameter the queue hangs off; nor a channel that is
    an actor's mailbox, as shape 10 defines it: goalert's SMS webhook
    goroutines send on the monitor's channel, whose one consumer only keeps
    a map between receives) — also one that parks through what it calls, in its
    own goroutine, a function or an interface method so marked (go
    s.worker.LaunchCampaign(c), where the worker's implementation, in the
    interface's package, hands the batch to the mailer's Queue, which sends
    on an unbuffered channel), but not through a function that takes a
    slot (a semaphore's wait is the bound) nor through the standard
    library (an HTTP transport's own channels are its machinery) — or
    waits on the network with no deadline
    and no cancellation. It waits on the network when its work reaches a
    network call of the catalogue (not one handed how long to wait, a
    time.Duration: NATS's Request(subj, data, timeout), paho's
    token.WaitTimeout(d)), or a database round trip (a query,
    statement or transaction on a pool, a connection or a transaction,
    and an ORM's methods that run one: gorm's First or Updates, xorm's
    session verbs, bun's Scan and Exec, pop's queries; catalog.DatabaseWaits,
    the driver's own read being behind interfaces), through functions none of which sets a
    deadline (a context with a timeout or a deadline, a Timeout field as in
    http.Client{Timeout: d}, SetDeadline, a call of a function of its
    package that returns the cancel of a context it gave a deadline, as a
    client's options helper does (nats.go's getJSContextOpts): one that does bounds every wait
    under it) — the waitsOnNetwork fact, across packages; an interface
    method shaped as (*http.Client).Do, Do(*http.Request) (*http.Response,
    error), is an HTTP client whatever implements it (jwk's HTTPClient) —
    through static calls, interface methods that a type of the interface's own package
    implements with such a method (a mailer's Send over SMTP, a generated
    gRPC client; also when the go statement runs the interface method
    itself, go s.mailer.Send(m)), function literals handed to a call (a hook's
    Trigger(event, func(e) error { return e.Mailer.Send(m) })), not to one
    that runs them later (time.AfterFunc, a function that starts a
    goroutine per call), and functions looked up by a constant key in a
    package-level map literal of functions (netmaker's database layer,
    getCurrentDB()[FETCH_ALL].(func(string) …)(table), whose tables per
    backend each store a query under the key: any of them may run), and
    functions drawn from a list of functions the caller writes out (for _,
    step := range []func() error{c.load, c.ask}: each of them runs). A deadline set in a function (an http.Client's
    Timeout) bounds each attempt of a wait it hands to a retrier of its
    package — a function that calls its function argument in a loop that
    pauses (time.Sleep, a receive from time.After): retry(schedule,
    func() error { return c.Do(req) }) — not the retries: the function
    waits as long as the schedule lasts (authn-server's webhook sender, a
    minute and more). It has no deadline when the work itself neither
    sets one nor hands each of its waiting calls a context from the caller
    (a parameter, the request's, a field: the request's ends with the
    request), as an argument or in a value built from one
    (db.WithContext(ctx).First(…), a request made by
    NewRequestWithContext(ctx, …)): a context the goroutine is given but
    passes only to its logger cancels nothing it waits on; a context
    made from context.Background() or TODO(),
    directly or through WithValue, WithCancel or a function that returns a
    context made from its context argument, is none, and so is
    WithoutCancel of the request's (go Enqueue(context.WithoutCancel(ctx),
    …): it is never done), and net/smtp and the
    catalogue's mailers (gomail's and its forks' Dialer.DialAndSend,
    go-mail's Client.DialAndSend) take none at all: a Dialer's Timeout
    bounds one read or write, not the send. Silent when an if around it tests time (time.Since: a
    minimum interval) or a limiter; when a slot is taken or a claim made
    before it in the function or the function literals around it (a
    semaphore send, a receive, a limiter, CompareAndSwap, TryLock,
    LoadOrStore: an in-flight or dedupe guard; or the same claim written
    out on a package variable or field, `if running { return }` then
    `running = true` before the start, or in a function of any package
    that returns false (or nil) when the key or slot is taken and, under a
    mutex, records it before returning true (or the address of what it
    recorded): claimsUnderLock, a fact, sftpgo's AddVFolderQuotaScan and
    RetentionChecks.Add, one run per folder or user at a time); when it runs under a
    sync.Once or a singleflight; when the goroutine takes a slot in its
    first statements; and when the function waits for it after starting it
    (a Wait, or a receive on a channel that no other function literal sends
    on, outside a select that gives up: a wait that a timer's callback ends
    leaves the goroutine running). Fix: take a slot before starting it and
    reject when none is free, hand the work to a fixed set of workers, or
    give it a context with a timeout. Per request is whatever a request
    reaches: a function that does not itself run per request but starts
    such a goroutine on every call, outside loops, or calls one that does
    (outside loops, or in a loop over the items of what it was handed: a
    batch's every item starts one more, and the loop bounds nothing;
    readflow's CreateArticles calling CreateArticle per article), unless
    the goroutine serves the value the function returns (minio's
    GetObject: one per handle the caller holds, paced by its reads), or
    parks on a queue of a value the caller made and handed to it (a
    connection that Dial makes and Starts)
    (the detachesPerCall fact, across packages: a service's
    SendAndSaveCode, a billing helper's refund; also one whose goroutine
    runs a function parked on a queue's send as above, which a context
    handed down does not bound: apache/answer's question service starting
    go qs.notificationInviteUser(ctx, …), which hands each invitation to
    the notification queue, or a function literal a call in whose own body
    does) is reported at its go
    statements, each the line to change (a stats update on a claim's
    failure and another after its success are two), in whichever package
    it is, each once (the
    first package on the imports' way whose request reaches it; every
    handler that reaches it is one more request that starts it), with the
    request's call as related information. A dependency's go statement is
    not the user's to edit: one that a dependency's function starts per
    call is reported at the module's call into it, naming where it starts
    (openlist's drivers/mega calling go-mega's MultiFactorLogin).
    Per message is the same as per request: a message handler the package
    subscribes with a broker's client (a function or method value, or a
    function literal, handed to NATS's Subscribe or QueueSubscribe, paho's
    Subscribe or AddRoute, a JetStream consumer's Consume, sarama's
    consumer group, watermill's router: internal/entrypoints' consumers
    table) runs once for every message delivered, as fast as the
    publishers send, and a goroutine it starts on every call, on the same
    terms — its work waits on the network with no deadline, or parks on
    a send to a shared queue — is reported as "goroutine per message"
    (chirpstack's MQTT gateway backend, one goroutine per uplink, each
    waiting on the unbuffered channel its one consumer reads). Handled in
    the handler itself, a message is paced by the client's delivery.
 8. transport per request: in a function that runs once per request (as in
    shape 7), an http.Transport made there — a composite literal
    (&http.Transport{…}) or a Clone
    (http.DefaultTransport.(*http.Transport).Clone()) — also in a function
    literal the request runs (a reverse proxy's). A transport is a
    connection pool whose limits (MaxConnsPerHost, the idle connections)
    hold per transport: one made per request reuses no connection and caps
    none, so the connections to the dependency grow with the requests.
    Silent when it is kept for the requests that follow (a cache the first
    request fills): assigned to a field, a map entry or a package variable,
    or to a local variable the function then stores so or hands to a
    function of its package that stores it (nightingale's data-source proxy,
    building one on a cache miss and handing it to transportPut, which keeps
    it in a map); or made under a sync.Once. Fix: make one
    transport when the service starts, with MaxConnsPerHost, and share it.
    A shared transport with no MaxConnsPerHost is not reported: whether its
    dependency needs a limit is not in the code.
 9. mutex held across a network wait per request: on a request's path, a
    Lock of a sync.Mutex (or an RWMutex's write Lock) that every request
    shares, followed, before the Unlock of the same mutex on some path (a
    deferred Unlock holds it to the return), by a call that waits on the
    network. A mutex is a pool of one whose queue has no bound and no
    deadline: while one request waits on the network, every other request
    waits on the mutex, each behind all the earlier ones' network calls.
    Any network wait counts, with a deadline of its own or not (netio's
    calls, through static calls in any package, the waitsOnNetwork
    interface methods, and a call of a function value that is known to
    wait: a literal that does, or the result of a factory marked
    returnsNetworkFunc, a fact, passed down as an argument or captured):
    a timeout t bounds one holder, and the k-th waiter
    still waits k times t, with no deadline of its own on the wait for the
    mutex; a context from the request cancels the holder's call, not the
    waiters' Lock. A request's path: the functions shape 7 knows run per
    request, the handlers the package registers (internal/entrypoints'
    interactive entry points), and a function that reads the incoming
    request its context carries (the catalogue's IncomingRequestReads: gRPC
    metadata, an auth middleware's bearer token: an authenticator an
    interceptor calls), and the functions a framework runs once per client
    request (the catalogue's RequestCallbacks: centrifuge's subscribe,
    publish, RPC and cache-empty handlers); and what they call in the
    package, through static
    calls and function literals called or handed to a call that runs them
    then (a parser's key function, a singleflight.Do with a key the request
    chooses), not a goroutine they start. Shared: a package variable, or a
    value that outlives the request — the handler's receiver, a variable a
    handler literal captures, and their fields, passed down as arguments.
    Silent: TryLock (fails fast, never queues); RLock (readers share it; a
    writer's Lock queues behind them, and is reported where it is held); a
    Lock released before the network call; a mutex made in the function or
    in a value the request creates (a session); a per-key lock (taken from a
    map, a sync.Map or a slice of stripes: requests queue only behind the
    same key's, which one client's load cannot turn into everyone's wait); a
    mutex only background code takes (one goroutine, no queue of requests);
    the function of a singleflight.Do whose key is a constant (one caller
    runs it, the others wait for its one result, not in series: the mutex
    behind it has no queue) — with a key the request chooses, requests for
    other keys still queue on the mutex behind it, and it is reported;
    sync.Once. A double-checked cache (read the cache under RLock, then Lock
    and fetch) is reported: while the dependency is down the cache stays
    empty and every request fetches in turn. Reported at the Lock, naming
    the mutex as written, with the network call, the per-request function
    and up to two other places requests take the same mutex as related
    information. Fix: make the network call outside the lock (lock only to
    read or store the result), let the waiters share one call
    (singleflight), or TryLock and fail fast.
 10. send with no deadline per request: on a request's path (the functions
    shape 9 follows from the package's per-request functions), a plain
    send (ch <- v, not in a select) on a channel every request shares — a
    package variable, or a field of a value that outlives the request (the
    handler's receiver, what a handler literal captures, their fields) —
    of anything but struct{}. The request waits until a consumer takes
    the value, with no deadline: while the consumers are busy (a mail or
    an upstream call per value) or gone, every request waits there, and
    the queue has no bound but the number of requests (crowdsec's decision
    deletes, sent to the unbuffered channel the CAPI sync loop reads every
    ten seconds). Silent: a send in a select (on the request's context, a
    timer, or with a default that drops the value); a send of struct{} (a
    signal, or a semaphore's slot: a bound of its own); a channel the
    request made (a reply channel); a send in a goroutine the request
    starts (the request does not wait for it; shape 7 judges the
    goroutine); a channel that is an actor's mailbox: every function of
    the package that receives from it (there is at least one) never waits
    but for its next receive, through the package's static calls and the
    implementations its own interfaces have there — no plain send, no
    select that may block to send (one with a default drops instead), no
    network or database wait, no sleep, no Lock, no call of a function
    value or of another interface's method (context.Context's,
    reflect.Type's, error's and fmt.Stringer's answer at once) — so a
    request waits for the consumer's CPU time only, which no slow
    dependency can stretch (navidrome's event broker: one loop that adds
    and removes subscribers in a map and hands each message on with a
    select that drops it for a full client); a channel the package hands
    to its importers: it makes the channel (make(chan …) stored in the
    variable or field), exports it or returns it from a function, and
    receives from it nowhere: its consumer is the code of the program that
    imports the package, which this package cannot see (tusd's
    CreatedUploads, read by the hooks of the binary that embeds the
    handler); a channel another package made and handed in is still
    judged. Reported at the send, with the per-request function as
    related information. Per-request is whatever an entry point reaches,
    in any package: a handler that calls, through a service and an
    interface, another package's function whose send waits so (a
    notification queue's Send, ns.Queue <- msg, behind the service that
    posts an answer) waits there too; the finding sits at the send, once
    for every request path that reaches it, with the call and the
    per-request function as related information. The same silences hold
    there (a select that gives up, struct{}, an actor's mailbox, a channel
    made for the importers), and a queue that hangs off a value the
    request made itself, or off a value the sending function made (an
    object whose own goroutine serves it), is its own. Through an
    interface, the send counts when every implementation in the
    interface's package waits so (a production logger beside a test double
    whose writes go to a channel leaves the wait to whichever is wired in,
    which the package cannot know). A dependency's
    sends are its machinery, not the program's to bound (go-ldap's
    connection hands every request to its own loop through a channel), as
    the standard library's are. What the consumer does with the value
    is not followed beyond a mailbox's: a queue whose one consumer only
    writes a row waits at the database's speed, and is reported as one
    whose consumer sends mail. Fix: select on
    the request's context (or a timeout) and answer 503, or drop the value
    when the queue is full.
    A token given back is no send to wait on: a value the function
    received from the same channel (tok := <-lock … lock <- tok, also from
    a select's case and in a deferred function literal) fills the slot its
    receive emptied. The receive is the wait: a plain receive (not in a
    select) on a request's path, from such a shared channel, of a token the
    function gives back, is a lock or semaphore taken with no deadline, and
    every request that finds the tokens taken waits there, as long as the
    holders keep them (watchtower's update lock, held for a whole update
    run by the scheduler or by a request). Reported at the receive ("token
    taken with no deadline on every request"), with the per-request
    function as related information. Silent: a take in a select (with the
    request's context, a timer, or a default that skips the work); a take
    off the request's path. Fix: select on the request's context (or a
    timeout) and answer 503 or 429 with Retry-After, or skip the work when
    no token is free.
 11. goroutine abandoned on its send: a function makes an unbuffered
    channel (make(chan T), make(chan T, 0)), starts a goroutine that sends
    on it outside a select (a function literal; or a function handed the
    channel, go check(ctx, ch), that sends on that parameter so, or, when
    its body is not at hand — a function value, another package's
    function — whose parameter is send-only, chan<- T: it is there to be
    sent on), and then can return without receiving from it: a select with
    a case that receives from it and a case that returns without receiving
    (<-ctx.Done(), <-time.After(d): the caller gives up; when the select is
    the function's last statement, a case that runs to its end returns as
    well: keto's permission checks), or a return in the block that
    starts the goroutine, after it and before the first receive in the
    source (kratos's registration returning on a failed validation while
    the password's hash is still to be sent). Then nothing will ever
    receive, and the goroutine blocks on its send for ever: one more for
    every call that gives up or returns early, with no bound but the
    number of such calls (crowdsec's plugin notifier returning on its
    timeout). Silent: a buffered channel; a goroutine whose send is in a
    select (it gives up too); a case on a channel the goroutine itself
    sends on or closes (its error or done channel: its other answer, not
    the caller giving up); a giving-up case that receives before it
    returns, or one that does not return (a tick that logs and waits
    again); a channel used otherwise than by that goroutine's send and the
    function's receives (returned, passed, stored, closed: someone else may
    receive; a function value handed a channel that goes both ways may
    receive on it as well); a function that runs once per process (main, init, one
    that waits for the process's signals, as a registry's ListenAndServe
    does, and the functions only those call: shape 1's start-up code),
    outside its function literals: it leaves at most one goroutine, when
    the process stops; a goroutine that serves a listener (the
    catalogue's ServeLoops, or a function that serves: minder's gRPC and
    HTTP servers reporting their end on errch), which sends only when its
    server stops, once per server. Reported at the go statement, with the giving-up case or the
    early return as related information. Fix: make(chan T, 1), so that the send completes
    into the buffer whoever is left to receive.

What counts as a limiter (shapes 1 and 2): a channel send (a buffered
channel used as a semaphore), a channel receive (a token), and the
catalogue's Limiters: semaphore.Weighted Acquire and TryAcquire, the
runtime's (*bulkhead.Executor).Do and bulkhead.Call, and rate.Limiter Wait
and Allow — taken before the go statement; and a call of a function that
takes a slot itself (a fact, across packages): one that sends on a
package-level or field semaphore channel and receives from it again
(sem <- struct{}{} … <-sem), as go/packages' parseFile does with its
ioLimit, or calls a catalogue limiter. Inside the goroutine's first
statements only a slot it tries for counts: the catalogue's SlotTries
(TryAcquire, Allow, the runtime's executor, which rejects when its queue is
full), a token sent in a select with a default, a function whose every take
is one of those (takesSlot(tries)), or a receive. A slot the goroutine waits
for bounds the work that runs, not the goroutines: one per item or request
is still started, and they pile up in the wait (sftpgo's event actions
taking their guard inside the goroutine each event starts) — unless the
function waits for them all after its loop (a WaitGroup's or errgroup's
Wait, a receive, a range over the channel they answer on): its fan-out
then runs under the semaphore's cap, and the goroutines waiting for a slot
end with the call that joins them (yorkie's FanOut over a request's shard
groups, each goroutine taking a slot of the server-wide semaphore with the
request's context).
Reaching such a function deeper down does not count, with one exception:
an acquire that keeps its slot for the caller, who releases it later — a
semaphore type's Acquire (type Semaphore chan struct{}, whose Acquire
sends on the receiver and whose Release receives; or a struct whose
method sends a token, a constant or struct{}{}, into a channel field that
another method drains in a statement of its own: remeh/sizedwaitgroup's
Add and Done, toolkits' Semaphore, as atlantis and nightingale take them
before each go statement; a field that carries values, a job sent in and
received to be run, is a queue, and a send or receive in a loop is a
worker's: database/sql signalling its opener) or a function that calls
one and releases nothing anywhere in its body (tusd's
acquireUploadSemaphore): acquiresSlot, a fact, transitive, since a wrapper
of an acquire is an acquire.

Scope: shapes 3 and 4 apply to code that serves requests or runs long:
every library package, and a main package that listens (http.ListenAndServe,
net.Listen, grpc Serve…, or a web framework's own serve call: gin's Run,
echo's Start, fiber's Listen, fasthttp's and fastglue's ListenAndServe;
catalog.Servers), or calls a function of another package that serves
connections (servesConns: a graceful-restart wrapper such as
endless.ListenAndServe, a project's own server package). A main package that never listens is a one-shot
command, and main and init themselves run once; neither is checked for
shape 4, nor a one-shot command for shape 3. Test files are not checked for
shapes 3, 4, 6, 7, 8, 9 and 10.

Escape policy: a group, a pool or a context that comes from elsewhere (a
parameter, a field, a package variable, a request) is the creator's to
bound and is trusted; a group passed to another function may be limited
there and is trusted too. A pool returned from the function that opened it
is the caller's to bound (the fact above). A goroutine that runs a function
of another package, or a function value, is not looked into. A goroutine
started by a callee is seen one call deep: a function that starts one on
every call (FireAndForget, PostAsync) is a go statement where it is called
in a loop or per request, also when what it is handed picks whether it
starts one; a function that hands it a func parameter of its own is
one too, but a function that calls one with work of its own choosing,
or starts its goroutine only when its state allows, is not. The work handed to such a
function is looked into only when it is a function literal. A goroutine
per request is seen in the function that takes the request (an
*http.Request, a framework's context of one, or the request context of a
server not built on net/http: fasthttp's RequestCtx, fiber's Ctx,
fastglue's Request), has a gRPC method's shape, or is a handler the
package registers with a router or an RPC server (internal/entrypoints: a
Connect service's methods, a route's handler whatever its context type), and in the functions it calls outside loops, at any depth
through static calls (detachesPerCall); not through interface methods or
function values (a service behind an interface whose implementation
starts one is missed). Network waits
are followed through static calls, function literals handed to calls and
interface methods implemented in the interface's own package; an
implementation in another package (a wrapper that adds a timeout, a mock)
is not looked into (for a wait on a shared queue, the same: an interface
method parks when an implementation in its own package does), and a
deadline is seen in the function that sets it
and, for a call on a field of a struct (c.wrapped.Do(req)), in a function
of the struct's package that builds it (a constructor that writes
&Client{wrapped: &http.Client{Timeout: d}}); a client given its timeout
elsewhere and passed in is not,
nor is a package that neither calls the network catalogue nor uses a
function marked waitsOnNetwork (its goroutines per request aside). A
collection ranged over is trusted as fixed when the code wrote it, the
configuration names it or a membership package returns it (by the package's
name: a ring of hosts under another name is reported), or when start-up
code set it — start-up code being main, init, a function that waits for
the process's signals, a function or method handed neither a request nor a
context that binds the listeners it serves on (net.Listen, ListenAndServe,
a gRPC server's Serve: it starts the servers, once per process, as jaeger's
Agent.Run does before its goroutine per configured processor), the
functions only they call, and a command's function literal, one stored in a framework's field
(cobra's RunE, an urfave Action), which runs once when the command line
names it (coder's server command shutting down the daemons it built from
its configuration) — (a list handed in as a parameter is judged at the
static calls of the function, in its package and, for one an internal
package exports, in the packages that import it: a call through an interface or a func value
is not seen, and a fan-out only such calls reach is not reported; a variadic parameter
of an exported function is trusted to be written out by callers in other
packages too; and a main that reads a list from a file or a database at
start-up and fans out over it does so once, which is not reported; a
field filled by decoding into its struct, json.Unmarshal(body, &s), is no
write the analyzer sees); it is
trusted as capped when this function, or each caller that hands it the list, compares its length with a
bound before the fan-out (a comparison anywhere before it, not on every
path). What the names cannot tell is decided towards silence: a work queue
of closures (a slice of funcs) and a request field named Options are not
reported.

A mutex held per request (shape 9) is seen in the package that takes it:
a request's path is followed only through the package's own functions,
so a per-request function in one package that calls another package's
function that locks across a network call is not reported, and calls
through interfaces and function values are not followed on the request's
path; under the lock, a function value is followed when it was passed
down as an argument or captured from where it was made (a literal, a
factory's result), not when it is read from a field or a map.
The mutex is shared when it is reached through fields and loads from a
package variable or a value the per-request function did not make; one
from a map, a slice, an interface or a call's result is taken to be a
per-key lock.

Suppress a finding with //bhlint:ignore ERR_UNBOUNDED_QUEUE_DETECTED
reason, on the line or in the doc comment of the enclosing function.
*/
package unboundedqueue
