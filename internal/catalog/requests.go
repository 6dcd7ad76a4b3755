package catalog

// IncomingRequestReads are calls that read the incoming request a context
// carries (a gRPC server's metadata, an auth middleware's bearer token): a
// function that makes one runs once per request, whatever its signature,
// as an authenticator a gRPC interceptor calls with the request's context.
var IncomingRequestReads = newTable(
	"google.golang.org/grpc/metadata.FromIncomingContext",
	"google.golang.org/grpc/metadata.ValueFromIncomingContext",
	"google.golang.org/grpc.Method",
	"github.com/grpc-ecosystem/go-grpc-middleware/auth.AuthFromMD",
	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/auth.AuthFromMD",
)

// SingleCallers run their function argument for one caller at a time per
// key, the others waiting for its result: the value is the index, among
// the call's arguments (the receiver not counted), of the key.
var SingleCallers = map[string]int{
	"(*golang.org/x/sync/singleflight.Group).Do":     0,
	"(*golang.org/x/sync/singleflight.Group).DoChan": 0,
}
