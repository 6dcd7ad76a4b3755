package catalog

// Health probes: which routes a load balancer or an orchestrator polls to
// decide whether an instance stays in rotation (or is restarted), and the
// health-check libraries whose registered check funcs run when it polls.
// healthprobe reports a probe that reaches a pool or client request
// traffic also uses. Keys are full names as in the other tables.

// ProbeKind is what a failing probe does to the fleet.
type ProbeKind string

// The probe kinds.
const (
	// Liveness: a failing probe restarts the instance.
	Liveness ProbeKind = "liveness"
	// Readiness: a failing probe takes the instance out of the load
	// balancer until it passes again.
	Readiness ProbeKind = "readiness"
	// Health: a probe of no stated kind; load balancers and orchestrators
	// use it as a readiness probe (and often as a liveness one too).
	Health ProbeKind = "health"
)

// ProbePaths are the last segments of a route's path that make its handler
// a probe. "status" is left out: services serve their API's status pages,
// build information and job states under it far more often than a probe.
// "ping" counts only as a whole top-level path (ProbeTopLevelPaths).
var ProbePaths = map[string]ProbeKind{
	"health": Health, "healthz": Health, "healthcheck": Health, "health-check": Health, "health_check": Health,
	"_health": Health, "hc": Health,
	"livez": Liveness, "live": Liveness, "liveness": Liveness, "alive": Liveness,
	"readyz": Readiness, "ready": Readiness, "readiness": Readiness,
}

// ProbeTopLevelPaths make a probe only as the whole path: "/ping" is the
// probe load balancers are pointed at, "/api/v1/ping" an API endpoint.
var ProbeTopLevelPaths = map[string]ProbeKind{"ping": Health}

// ProbeRootRouters are the routers' root types: a route registered on one,
// even one passed in from elsewhere, is at the top of the path (a group or
// sub-router type may sit under any prefix). A chi.Mux can be mounted
// under a prefix, but services rarely mount the one that serves /ping.
var ProbeRootRouters = map[string]bool{
	"*net/http.ServeMux":                          true,
	"*github.com/gin-gonic/gin.Engine":            true,
	"*github.com/labstack/echo/v4.Echo":           true,
	"*github.com/labstack/echo.Echo":              true,
	"*github.com/go-chi/chi/v5.Mux":               true,
	"*github.com/go-chi/chi.Mux":                  true,
	"*github.com/julienschmidt/httprouter.Router": true,
	"*github.com/gofiber/fiber/v2.App":            true,
	"*github.com/gofiber/fiber/v3.App":            true,
}

// GRPCHealthRequestType is the request of the gRPC health service's Check
// and Watch: a method taking it implements grpc_health_v1.HealthServer.
const GRPCHealthRequestType = "*google.golang.org/grpc/health/grpc_health_v1.HealthCheckRequest"

// ProbeCheck is a health library's registration of a check func: Arg is
// the parameter (a method's receiver not counted) that holds the check;
// Field, when set, names the field of the struct passed there that holds
// the func (health.Check{Check: f}).
type ProbeCheck struct {
	Arg   int
	Field string
	Kind  ProbeKind
}

// ProbeChecks are the health libraries' registrations of checks that run
// while the probe waits (synchronously, on every poll). Periodic checks
// (alexliesenfeld/health's WithPeriodicCheck, heptiolabs' Async) run in the
// background and cache their result: they are not rows.
var ProbeChecks = map[string]ProbeCheck{
	"(github.com/heptiolabs/healthcheck.Handler).AddLivenessCheck":  {Arg: 1, Kind: Liveness},
	"(github.com/heptiolabs/healthcheck.Handler).AddReadinessCheck": {Arg: 1, Kind: Readiness},
	"github.com/alexliesenfeld/health.WithCheck":                    {Arg: 0, Field: "Check", Kind: Health},
	"(*github.com/hellofresh/health-go/v5.Health).Register":         {Arg: 0, Field: "Check", Kind: Health},
	"github.com/hellofresh/health-go/v5.WithChecks":                 {Arg: 0, Field: "Check", Kind: Health},
	"(*github.com/hellofresh/health-go/v4.Health).Register":         {Arg: 0, Field: "Check", Kind: Health},
	"github.com/hellofresh/health-go/v4.WithChecks":                 {Arg: 0, Field: "Check", Kind: Health},
	// moov-io/base's admin server (every moov service's /live and /ready).
	"(*github.com/moov-io/base/admin.Server).AddLivenessCheck":  {Arg: 1, Kind: Liveness},
	"(*github.com/moov-io/base/admin.Server).AddReadinessCheck": {Arg: 1, Kind: Readiness},
}

// ProbeCheckMaps are map types whose values are check funcs a probe runs
// on every poll: ory's healthx.ReadyCheckers.
var ProbeCheckMaps = map[string]ProbeKind{
	"github.com/ory/x/healthx.ReadyCheckers": Readiness,
}

// ProbeCheckMaker is a health library's own check: a func the library
// builds around the argument at Arg (the pool it pings). Noun and
// Resource, when set, name what the check uses when the argument is not
// the pool itself (a URL fetched through a client the library makes with
// net/http's default transport).
type ProbeCheckMaker struct {
	Arg            int
	Noun, Resource string
}

// ProbeCheckMakers are the libraries' own checks that use a shared pool
// or client. heptiolabs' TCPDialCheck and DNSResolveCheck dial or resolve
// on their own and are not rows.
var ProbeCheckMakers = map[string]ProbeCheckMaker{
	"github.com/heptiolabs/healthcheck.DatabasePingCheck": {Arg: 0},
	"github.com/heptiolabs/healthcheck.HTTPGetCheck":      {Arg: 0, Noun: "HTTP client", Resource: "http.DefaultTransport"},
}

// ProbeInProcessMethods are methods of the resource types (ResourceTypes)
// that answer from the process's own state without a connection: pool
// statistics, settings, unwrapping an ORM handle. A probe that calls only
// these touches no shared pool.
var ProbeInProcessMethods = newTable(
	"(*database/sql.DB).Stats", "(*database/sql.DB).SetMaxOpenConns", "(*database/sql.DB).SetMaxIdleConns",
	"(*database/sql.DB).SetConnMaxLifetime", "(*database/sql.DB).SetConnMaxIdleTime", "(*database/sql.DB).Driver",
	"(*database/sql.DB).Close",
	"(*github.com/jackc/pgx/v5/pgxpool.Pool).Stat", "(*github.com/jackc/pgx/v5/pgxpool.Pool).Config",
	"(*github.com/jackc/pgx/v5/pgxpool.Pool).Close", "(*github.com/jackc/pgx/v5/pgxpool.Pool).Reset",
	"(*github.com/jmoiron/sqlx.DB).DriverName", "(*github.com/jmoiron/sqlx.DB).Rebind", "(*github.com/jmoiron/sqlx.DB).Unsafe",
	"(*github.com/jmoiron/sqlx.DB).Mapper", "(*github.com/jmoiron/sqlx.DB).BindNamed",
	"(*gorm.io/gorm.DB).DB", "(*gorm.io/gorm.DB).Session", "(*gorm.io/gorm.DB).WithContext", "(*gorm.io/gorm.DB).Debug",
	"(*gorm.io/gorm.DB).Model", "(*gorm.io/gorm.DB).Table", "(*gorm.io/gorm.DB).Where",
	"(*github.com/jinzhu/gorm.DB).DB", "(*github.com/jinzhu/gorm.DB).New", "(*github.com/jinzhu/gorm.DB).Model",
	"(*github.com/jinzhu/gorm.DB).Table", "(*github.com/jinzhu/gorm.DB).Where",
	"(*net/http.Client).CloseIdleConnections", "(*net/http.Transport).CloseIdleConnections", "(*net/http.Transport).Clone",
	"(*github.com/redis/go-redis/v9.Client).Options", "(*github.com/redis/go-redis/v9.Client).PoolStats",
	"(*github.com/redis/go-redis/v9.Client).Close", "(*github.com/redis/go-redis/v9.Client).String",
	"(*github.com/redis/go-redis/v9.Client).AddHook", "(*github.com/redis/go-redis/v9.Client).WithTimeout",
	"(*github.com/go-redis/redis/v8.Client).Options", "(*github.com/go-redis/redis/v8.Client).PoolStats",
	"(*github.com/go-redis/redis/v8.Client).Close", "(*github.com/go-redis/redis/v8.Client).AddHook",
	"(*github.com/gomodule/redigo/redis.Pool).Stats", "(*github.com/gomodule/redigo/redis.Pool).ActiveCount",
	"(*github.com/gomodule/redigo/redis.Pool).IdleCount", "(*github.com/gomodule/redigo/redis.Pool).Close",
	"(*google.golang.org/grpc.ClientConn).GetState", "(*google.golang.org/grpc.ClientConn).Target",
	"(*google.golang.org/grpc.ClientConn).Close", "(*google.golang.org/grpc.ClientConn).Connect",
	"(*google.golang.org/grpc.ClientConn).CanonicalTarget",
	// xorm: a session is a view of the engine, made without a connection
	// (the session's own calls are what borrow one).
	"(*xorm.io/xorm.Engine).Context", "(*xorm.io/xorm.Engine).NewSession",
	"(*github.com/go-xorm/xorm.Engine).Context", "(*github.com/go-xorm/xorm.Engine).NewSession",
)

// ProbeNetworkClients are the packages of NetworkCalls whose calls go
// through a pool or connection the process shares (the noun a message
// uses), when they are made on a value of a type ResourceTypes does not
// list (gRPC's ClientConnInterface in a generated client) or through a
// package-level function (http.Get: http.DefaultClient). Raw dials, name
// lookups and mail open connections of their own and are not rows.
var ProbeNetworkClients = map[string]string{
	"net/http":                     "HTTP client",
	"google.golang.org/grpc":       "gRPC connection",
	"github.com/redis/go-redis/v9": "Redis client",
}

// ProbeDefaultClients name the shared client a package-level network call
// uses.
var ProbeDefaultClients = map[string]string{"net/http": "http.DefaultClient"}

// ProbeOptInReads read a request's own input (a query parameter, a form
// value, a header): a probe's call reached only on a branch that depends
// on one is a deep check a caller asks for (/healthz?full=1), not what the
// load balancer polls.
var ProbeOptInReads = newTable(
	"(net/url.Values).Get", "(net/url.Values).Has", "(*net/http.Request).FormValue",
	"(*net/http.Request).PostFormValue", "(net/http.Header).Get", "(*net/http.Request).PathValue",
	"(*github.com/gin-gonic/gin.Context).Query", "(*github.com/gin-gonic/gin.Context).DefaultQuery",
	"(*github.com/gin-gonic/gin.Context).GetQuery", "(*github.com/gin-gonic/gin.Context).GetHeader",
	"(github.com/labstack/echo/v4.Context).QueryParam", "(github.com/labstack/echo.Context).QueryParam",
	"github.com/go-chi/chi/v5.URLParam",
)

// ProbePackages are the import paths a package must reach to register a
// probe at all: the routers (net/http underneath most), gRPC, and the
// health libraries.
var ProbePackages = []string{
	"net/http", "google.golang.org/grpc", "github.com/heptiolabs/healthcheck", "github.com/alexliesenfeld/health",
	"github.com/hellofresh/health-go/v5", "github.com/hellofresh/health-go/v4", "github.com/ory/x/healthx",
	"google.golang.org/grpc/health/grpc_health_v1",
	"github.com/gofiber/fiber/v2", "github.com/gofiber/fiber/v3", // on fasthttp, not net/http
}
