package catalog

// The gRPC side of shedding: a status error with a code that tells a client
// to come back later, and the two ways a server says when — a RetryInfo
// detail on the status, or the grpc-retry-pushback-ms trailer. Keys are full
// names as in the other tables.

// GRPCPackages are the import paths a package must reach to build a shed
// gRPC error at all.
var GRPCPackages = []string{"google.golang.org/grpc/status", "go.temporal.io/api/serviceerror"}

// GRPCCodeType is the type of a gRPC status code.
const GRPCCodeType = "google.golang.org/grpc/codes.Code"

// GRPCShedCodes are the codes.Code values that tell a client to come back
// later, and so must say when: ResourceExhausted, a refusal for lack of
// capacity. Unavailable (14) is left out: services return it for transient
// failures as much as for refusals (Temporal for every lost database
// connection: 34 findings, nearly all failures), and gRPC's retry policy
// backs off on it by itself (gRFC A6).
var GRPCShedCodes = map[int64]string{8: "ResourceExhausted"}

// GRPCRefusalCodes are the codes.Code values that are a shed only where the
// server refused the call itself for lack of capacity: on a path reached
// only when an admission check failed (AdmissionGrants, AdmissionWaits,
// AdmissionRejections, a full bounded channel, an in-flight count at its
// limit). Elsewhere Unavailable (14) reports a failure — a lost database
// connection, a shard moving, a server draining — not a refusal.
var GRPCRefusalCodes = map[int64]string{14: "Unavailable"}

// GRPCStatusBuilders build a status error, or a *status.Status, with the
// code passed as the given argument.
var GRPCStatusBuilders = map[string]int{
	"google.golang.org/grpc/status.Error":  0,
	"google.golang.org/grpc/status.Errorf": 0,
	"google.golang.org/grpc/status.New":    0,
	"google.golang.org/grpc/status.Newf":   0,
}

// GRPCStatusErr turns a *status.Status into the error a handler returns.
// status.Status is an alias of the internal type, which names the methods.
const GRPCStatusErr = "(*google.golang.org/grpc/internal/status.Status).Err"

// GRPCWithDetails attaches details to a status; a RetryInfo among them is
// retry guidance.
const GRPCWithDetails = "(*google.golang.org/grpc/internal/status.Status).WithDetails"

// GRPCRetryInfoType is the detail that tells a client how long to wait.
const GRPCRetryInfoType = "*google.golang.org/genproto/googleapis/rpc/errdetails.RetryInfo"

// GRPCPushbackKey is the trailer through which a server tells gRPC's retry
// policy how long to wait (gRFC A6).
const GRPCPushbackKey = "grpc-retry-pushback-ms"

// GRPCSendMetadata are the calls that send header or trailer metadata from a
// server method; one that sends the pushback key is retry guidance.
var GRPCSendMetadata = newTable(
	"google.golang.org/grpc.SetTrailer", "google.golang.org/grpc.SetHeader", "google.golang.org/grpc.SendHeader",
	"(google.golang.org/grpc.ServerStream).SetTrailer", "(google.golang.org/grpc.ServerStream).SetHeader",
	"(google.golang.org/grpc.ServerStream).SendHeader",
)

// GRPCLimiterMethod is a method a server middleware calls to admit a call:
// any error it returns, the middleware sends as ResourceExhausted with no
// retry delay of its own, so the method's refusal is the shed. Only the
// method itself can give the delay: it has the call's context, on which
// grpc.SetTrailer sends the pushback trailer.
type GRPCLimiterMethod struct {
	Interface string // the middleware's interface, for the message
	Method    string
	Params    []string // the parameters' type keys
}

// GRPCLimiterMethods are the admission methods of shedding middlewares:
// go-grpc-middleware v2's ratelimit interceptors call Limiter.Limit(ctx) and
// answer status.Errorf(codes.ResourceExhausted, "… please retry later. %s",
// err).
var GRPCLimiterMethods = []GRPCLimiterMethod{
	{Interface: "github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/ratelimit.Limiter", Method: "Limit", Params: []string{"context.Context"}},
}

// GRPCShedErrorTypes are error types of frameworks whose status carries a
// shed code (the types' GRPCStatus or Status method builds it), by the type
// key of a value returned as the error.
var GRPCShedErrorTypes = map[string]string{
	// Temporal's serviceerror: the server and its SDK return these.
	"*go.temporal.io/api/serviceerror.ResourceExhausted": "ResourceExhausted",
	// A refusal code (GRPCRefusalCodes): a shed only after a failed admission check.
	"*go.temporal.io/api/serviceerror.Unavailable": "Unavailable",
}

// GRPCShedConstructors are framework functions that return a shed status
// error.
var GRPCShedConstructors = map[string]string{
	"go.temporal.io/api/serviceerror.NewResourceExhausted": "ResourceExhausted",
	"go.temporal.io/api/serviceerror.NewUnavailable":       "Unavailable",
}

// AdmissionGrants are calls whose boolean result says whether the caller was
// admitted: a path taken only when it is false is a refusal for lack of
// capacity (a rate limiter's tokens, a semaphore's weight).
var AdmissionGrants = newTable(
	"(*golang.org/x/time/rate.Limiter).Allow", "(*golang.org/x/time/rate.Limiter).AllowN",
	"(*golang.org/x/time/rate.Reservation).OK",
	"(*golang.org/x/sync/semaphore.Weighted).TryAcquire",
	"(github.com/failsafe-go/failsafe-go/ratelimiter.RateLimiter).TryAcquirePermit",
	"(github.com/failsafe-go/failsafe-go/ratelimiter.RateLimiter).TryAcquirePermits",
	"(github.com/failsafe-go/failsafe-go/bulkhead.Bulkhead).TryAcquirePermit",
)

// AdmissionWaits are calls whose error result is not nil when the caller was
// not admitted: a rate limiter's Wait fails when the wait would outlast the
// context's deadline or the request exceeds the burst.
var AdmissionWaits = newTable(
	"(*golang.org/x/time/rate.Limiter).Wait", "(*golang.org/x/time/rate.Limiter).WaitN",
)

// AdmissionRejections are the sentinel errors with which a runtime turns work
// away for lack of capacity (a full bulkhead or queue, a rate limit, a
// worker pool's overload), matched with errors.Is or ==, by the variable's
// full name. A breaker's open state is left out: it reports a failing
// dependency, not a lack of capacity.
var AdmissionRejections = map[string]bool{
	"github.com/failsafe-go/failsafe-go/bulkhead.ErrFull":              true,
	"github.com/failsafe-go/failsafe-go/ratelimiter.ErrExceeded":       true,
	"github.com/failsafe-go/failsafe-go/adaptivelimiter.ErrExceeded":   true,
	"github.com/failsafe-go/failsafe-go/adaptivethrottler.ErrExceeded": true,
	"github.com/panjf2000/ants/v2.ErrPoolOverload":                     true,
	"github.com/sony/gobreaker.ErrTooManyRequests":                     true,
	"github.com/sony/gobreaker/v2.ErrTooManyRequests":                  true,
}

// AtomicCounters are the sync/atomic calls whose integer result is a
// counter's value: compared with a limit (atomic.AddInt64(&inflight, 1) >
// max), a path taken when it is over is a refusal for lack of capacity.
// Methods of the atomic types are matched by receiver.
var AtomicCounters = newTable(
	"sync/atomic.AddInt32", "sync/atomic.AddInt64", "sync/atomic.AddUint32", "sync/atomic.AddUint64",
	"sync/atomic.LoadInt32", "sync/atomic.LoadInt64", "sync/atomic.LoadUint32", "sync/atomic.LoadUint64",
	"(*sync/atomic.Int32).Add", "(*sync/atomic.Int64).Add", "(*sync/atomic.Uint32).Add", "(*sync/atomic.Uint64).Add",
	"(*sync/atomic.Int32).Load", "(*sync/atomic.Int64).Load", "(*sync/atomic.Uint32).Load", "(*sync/atomic.Uint64).Load",
)

// InflightWords name a plain integer counter of work under way (a field or
// variable): compared with a limit, it is an admission check like an atomic
// counter's.
var InflightWords = []string{"inflight", "in_flight", "concurrent", "active", "running", "outstanding", "pending"}

// GRPCHealthResult is the result type of the standard health service: its
// Unavailable tells a load balancer to stop sending traffic, not a client
// when to retry.
const GRPCHealthResult = "*google.golang.org/grpc/health/grpc_health_v1.HealthCheckResponse"

// StatusFields are the names of the integer field through which an error
// type carries the HTTP status its framework's error handler writes
// (pocketbase's ApiError.Status, echo's HTTPError.Code, fiber's Error.Code).
var StatusFields = []string{"Status", "StatusCode", "Code"}

// ConfigWords name configuration: a field, variable or type whose name holds
// one (s.config.Alerts.Enabled, cfg.AI.APIKey, opts.Feature) is read from the
// settings the process was started with. A refusal decided by them alone is a
// feature switched off, not a shed.
var ConfigWords = []string{"config", "cfg", "options", "opts"}
