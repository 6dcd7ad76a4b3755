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

// GRPCShedErrorTypes are error types of frameworks whose status carries a
// shed code (the types' GRPCStatus or Status method builds it), by the type
// key of a value returned as the error.
var GRPCShedErrorTypes = map[string]string{
	// Temporal's serviceerror: the server and its SDK return these.
	"*go.temporal.io/api/serviceerror.ResourceExhausted": "ResourceExhausted",
}

// GRPCShedConstructors are framework functions that return a shed status
// error.
var GRPCShedConstructors = map[string]string{
	"go.temporal.io/api/serviceerror.NewResourceExhausted": "ResourceExhausted",
}

// GRPCHealthResult is the result type of the standard health service: its
// Unavailable tells a load balancer to stop sending traffic, not a client
// when to retry.
const GRPCHealthResult = "*google.golang.org/grpc/health/grpc_health_v1.HealthCheckResponse"

// StatusFields are the names of the integer field through which an error
// type carries the HTTP status its framework's error handler writes
// (pocketbase's ApiError.Status, echo's HTTPError.Code, fiber's Error.Code).
var StatusFields = []string{"Status", "StatusCode", "Code"}
