/*
Package healthprobe defines an Analyzer that reports health, liveness and
readiness probes that reach a pool or client request traffic also uses.

# Analyzer healthprobe

healthprobe: report a health probe that reaches a pool or client request traffic shares

ERR_HEALTH_PROBE_SHARES_FAILURE_DOMAIN. A load balancer or an
orchestrator polls every instance's probe with the same short timeout. A
probe that pings the database, calls Redis or another service, turns one
slow dependency into every instance failing its probe at the same moment:
a readiness or health probe takes every instance out of the load balancer
at once (a total outage where there was a slow dependency), a liveness
probe restarts every pod at once (cold caches and a reconnect storm on a
dependency that was only slow). A probe that borrows from the pool request
traffic uses also waits behind that traffic when the pool is exhausted:
the instance is declared dead because it is busy. The health check
deserves its own path: a shallow check (the process is up, its loop is
responsive) that uses no shared pool.

What is a probe:
  - a handler registered with one of the routers bhlint knows (net/http's
    ServeMux and package-level Handle/HandleFunc, chi, gorilla/mux, echo,
    gin, fiber, httprouter, pocketbase) for a route whose path's last segment is
    a probe's name — health, healthz, healthcheck, health-check,
    health_check, _health, hc (a health probe); livez, live, liveness,
    alive (liveness); readyz, ready, readiness (readiness) — or whose
    whole path is /ping. The route must be a constant in the registration
    (a method in front, "GET /healthz", is allowed), or a concatenation
    that ends in one: "GET "+cfg.Webroot+"readyz", under a prefix the
    operator configures, is the readiness probe (the message shows it as
    "GET …readyz"); where such a path starts is not known, so /ping there
    is not the top-level probe. The handler may be a
    function, a method value, a closure, the ServeHTTP of a handler type,
    or the closure a factory of the same package returns
    (r.GET("/ready", readiness(db))) or of another package (by its
    fact). A project's own route builder counts too: a method handed a
    net/http handler on a value that a chain of at most four calls made
    from a call with a constant path (route.Get("/health").SecuredWith(
    route.Unsecured()).Handle(h), authn-server's lib/route), and so does
    a project's own router: a method named for what it routes (Get, Post,
    Head, Any, Methods, Handle, HandleFunc…) on a type that is itself a
    net/http handler (it serves the routes it is given), handed a path and
    then the handlers, whatever their static type (gitea's
    routes.Get("/api/healthz", healthcheck.Check) on its web.Router, whose
    handlers are ...any); a Get on a type that serves nothing (a cache's
    Get("/healthz", fill)) is not a route;
  - Check and Watch of a type implementing the gRPC health service (a
    method taking *grpc_health_v1.HealthCheckRequest);
  - a check func registered with a health library that runs it on every
    poll (catalogue rows: heptiolabs/healthcheck AddLivenessCheck and
    AddReadinessCheck, alexliesenfeld/health WithCheck, hellofresh/health-go
    Register and WithChecks, moov-io/base's admin server AddLivenessCheck
    and AddReadinessCheck, ory's healthx.ReadyCheckers), and the
    libraries' own checks built around a pool or a URL fetched over
    net/http's default transport (healthcheck.DatabasePingCheck(db, …),
    healthcheck.HTTPGetCheck(url, …)).

The path includes the prefix of the group a route is registered on when
the group is made in sight (g.Group("/healthz").GET("/", h), and chi's
r.Route("/healthz", func(r chi.Router) { r.Get("/", h) }), are probes).
/status is not a probe's name: services serve status pages, build
information and job states under it far more often than a probe. /ping
counts only as the whole path of a root router (made in the same function,
or of a root type: *http.ServeMux and the package-level mux, *gin.Engine,
*echo.Echo, *chi.Mux, httprouter's Router — catalogue ProbeRootRouters),
where load balancers are pointed; /api/ping, and /ping registered on a
group passed in from elsewhere, may be an API endpoint (often behind
authentication) and are not reported.

What is reported: a probe whose code reaches, through any depth of calls
(across packages by facts, through calls on the module's interfaces
resolved to their implementations, below), a pool or client: a method of a database pool (*sql.DB, sqlx, pgxpool, gorm, xorm,
bun, dbx, the runtime's lane pools), of a Redis client, of a gRPC
connection or HTTP client (catalogue: ResourceTypes), a catalogued
network call of net/http, gRPC or go-redis on a value whose type is not in
that table (a generated gRPC client's connection interface, redis.Cmdable;
ProbeNetworkClients), or net/http's package-level Get/Post/Head, which go
through http.DefaultClient's pool.
A pool handed to a function that calls a method of the module's interface
on that parameter is used there: sqlc's queries generated with the handle as
an argument (q.Health(ctx, a.pool), whose db DBTX runs db.Query) reach
a.pool, though the queries' package may not import the pool's.
A pool is anything wrapping a pool type: a function that returns the
module's interface and boxes a pool into it on some path (gitea's
db.GetEngine(ctx) returns the package's *xorm.Engine, or a session of it,
as its Engine interface) is a pool accessor, and a call through that
interface on its result (db.GetEngine(ctx).Ping()) reaches that pool. An
accessor that boxes the pool its caller passes in is not one: the caller
names that pool. So is a function that returns the pool (or a struct
embedding one) that a package variable or a field holds: chirpstack's
storage.DB() and storage.RedisClient() hand out the service's pool and
client, and a probe calling them uses those, not a pool of its own; a
function that returns what a call opened (sql.Open) is not an accessor.
A probe that calls a func-typed field (m.IsHealthy(ctx))
runs what is stored there: the functions this package stores in the
field are followed at the call; an exported field may be filled by
another package (main builds serverutil.Main{IsHealthy: as.Check}),
and there the finding is at the store, the one place that says which
function the probe runs, with related information at the registration
and at the probe's call; or by a package the probe's imports
(authn-server's NewApp fills App{DbCheck: func() bool { return
db.Ping() == nil }}, its handlers call app.DbCheck()): that package marks
the field (fieldReaches) and the probe's call of it is reported.
Methods that answer from the process (Stats, SetMaxOpenConns, Close,
gorm's DB() and WithContext, xorm's Engine.Context, go-redis' PoolStats…:
ProbeInProcessMethods)
do not count.

Readiness is reported as well as liveness. Kubernetes' guidance is that a
liveness probe must not check dependencies; readiness is often written to
ping the database, and the services read for this analyzer do so. But a
readiness probe checking a dependency every instance shares fails on
every instance at the same moment: the load balancer is left with no
instance at all, which is worse than serving the requests that do not need
the dependency, or failing those that do fast. The message says which
kind: a liveness probe makes "every pod … restarted", a readiness or
health probe makes "every instance … leave the load balancer".

The finding is at the call in the probe's own function (the registered
handler, closure or Check method; for a library, in the registered check
func) that leads to the resource — the first such call in its body — and
names the probe, its route or registration, the resource as the code
names it (a package variable "pools.Main", a field "Store.db", the pool
returned by a call or passed to a function) and the chain of calls to the
use. Related information points at the registration and at the use of the
resource, in this package or another (the facts record where; else at the
first function of the chain), within the module: a use in another module
(a generated API client's call through http.DefaultClient, x/net's) is
shown at the module's own call into that module, the line a fix changes.
A handler whose body is in another package than its
registration (a method of a handler type declared there, the closure a
factory there returns) is reported at the registration: a package's
findings are in its own files, and what the handler reaches comes from
its package's facts, with related information at the line in the
handler's body that leads to the resource (the fact carries it): the line
a fix changes. So is a handler registered as an interface's method
value (api.Ready), which has no body of its own.

The fix: keep the probe shallow — write a constant, or read a status
(an atomic, a field) that a background goroutine updates by pinging the
dependency on its own schedule — and let the dependency's own alerts say
when it is slow; or give the probe a connection of its own, opened for it
and used by nothing else.

Escape policy (what is assumed where the analysis cannot see):
  - a pool or client opened for the probe alone is not shared: one opened
    in the probe's own code, one opened in the registering function and
    captured by nothing but probe closures (besides its Close), and an
    unexported field or package variable of the same package that is only
    ever set to a pool opened there and only read by probe code (or to
    close it, read its statistics). A pool opened by the code that uses
    it and kept nowhere else is that code's own, wherever the code lives:
    calls on it, a helper it is handed to that keeps nothing, and the
    closure the function returns, captured by nothing more (a factory of
    another package whose handler opens a pool per probe, or one per
    handler it returns). A store anywhere, a return, a channel send
    lets others reach it. A dedicated pool handed to the probe through a
    constructor of another package cannot be told from the shared one
    and is reported: ignore it with the directive below;
  - a pool the probe takes out of what it was handed is the shared one,
    not opened for it: a call handed only contexts that returns a pool
    and no error (soft-serve's db.FromContext(ctx), the pool a middleware
    put in every request's context) hands one out, since opening can
    fail and says so;
  - a raw connection dialled by the probe (net.Dial, heptiolabs'
    TCPDialCheck) is its own and not reported;
  - a pool reached through a view of it (gorm's db.DB(),
    db.WithContext(ctx), xorm's engine.Context(ctx)) is the pool it was
    taken from;
  - a resource whose origin cannot be followed (a map or slice element,
    the result of another package's function) is taken as shared and
    named by where the probe got it;
  - a probe that reads a cached status updated by a background goroutine
    reaches nothing: calls made in a goroutine the probe starts do not
    count (the probe does not wait for them) unless the probe receives
    from a channel it handed that goroutine (a ping raced against a
    timeout still waits on the pool), nor do checks a library runs
    periodically (alexliesenfeld/health's WithPeriodicCheck,
    healthcheck.Async); a wait through a WaitGroup or errgroup is not
    seen;
  - calls through function values other than a struct's func-typed field,
    and through interfaces declared in the standard library or in the
    catalogue's libraries, are not followed. A field a probe calls is
    followed to the functions stored in it (this package's stores, and
    another package's for an exported field); a function passed as an
    argument, or stored in a map or a variable, is not. A probe that starts
    the field's function in a goroutine it does not wait for, and a field
    no probe calls (a start-up hook), are not reported. A pool opened for
    the probe and reached only through such a field is taken as shared. A
    call through the module's interface on a field or variable this
    package sets follows the types of the values it stores there (a
    *pgxpool.Pool stored in a Pinger field is that pool); otherwise it
    follows the first visible implementation that reaches a resource, and
    names it, and failing that a pool or client type of the catalogue
    that implements the interface itself;
  - a probe that calls through the module's interface, on its receiver, a
    parameter or a field of one, runs the implementation stored there
    where the handler value is built: api.HealthAPI{DB: db} registered
    as r.GET("/health", h.Health), db a *database.GormDatabase, runs
    GormDatabase's Ping. When that type is known and its method reaches
    no pool (it answers from memory, or dials a connection of its own),
    the probe is silent, whatever else implements the interface. When it
    is not known (a gRPC health service, an interface returned by a call:
    s.Store.GetDriver().Find…), every implementation in the module
    decides, and the one that reaches a pool in the fewest calls (the
    first by package path among those) is
    followed and named in the chain; the others that reach a pool are
    named in related information, each at its own call that leads there
    (a health server asking each of its checkers runs them all, and each
    is a line a fix changes). Implementations are often declared
    in packages the probe's package does not import (a store's drivers,
    which only main imports): each package passes on, to those that
    import it, its probes left open and the implementations of
    interfaces it knows: its own, its module's, and of another module's
    interfaces only those of the methods it calls through (a client
    library's implementations reach a package through that library's
    packages it imports, or are found beside their interface; carried by
    every package of every importer, they were most of each package's
    facts). An implementation of another module's interface declared in
    a third package that a package neither imports nor calls through is
    not seen there. The probe is resolved in the first package that
    imports it and knows an
    implementation that reaches a pool. It is reported there, at the
    line that builds the probe's value (the composite literal or the
    constructor's call returning its type: where the program wires the
    health server and its checkers), else at that package's clause, with
    related information at the probe's call and at the implementation;
    a test harness (a package that imports
    testing) passes it on without reporting it. A probe whose
    implementations all answer from memory is not reported. Three
    interface calls deep are followed (a server's IsReady asking its
    datastore's). A package that reaches no pool library, router or
    gRPC is not analysed, and a call through an interface made there is
    not seen; nor are assertion and mock libraries (testify, gomock):
    test code, which no probe runs;
  - a handler named Health that is not registered for a probe's route is
    not a probe, and a route whose path is not a constant is not known;
    gorilla/mux's r.Path("/healthz").Handler(h) names the path in another
    call and is not seen;
  - a deep check behind an opt-in — the call runs only on one branch of a
    condition that reads the request's own input, a query parameter, form
    value, path value or header (/healthz?full=1; catalogue
    ProbeOptInReads) — is what a person or a dashboard asks for, not what
    the load balancer polls, and is not reported. A condition on anything
    else (the method, a flag of the process) is no opt-in;
  - a check that keeps its own success — a condition before the call
    reads a field or package variable and returns without the call, and
    the probe stores to that field or variable (ory's migrations checker:
    if m.migrationStatus != nil && !m.migrationStatus.HasPending() {
    return nil }, then m.migrationStatus = status) — reaches the resource
    only until it first passes: a start-up gate, not reported.

Suppress a finding with //bhlint:ignore ERR_HEALTH_PROBE_SHARES_FAILURE_DOMAIN
reason, on the line, the line above, or in the probe function's doc
comment; a finding reported in a package that imports the probe's, on the
line above that package's clause.
*/
package healthprobe
