package catalog

import "go/types"

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

// RequestCallbacks register a function a framework runs once per client
// request: a real-time server's handlers of a client's connect, subscribe,
// publish or RPC command. The value is the index of the function among the
// call's arguments (the receiver not counted).
var RequestCallbacks = map[string]int{
	"(*github.com/centrifugal/centrifuge.Node).OnConnecting":      0,
	"(*github.com/centrifugal/centrifuge.Node).OnConnect":         0,
	"(*github.com/centrifugal/centrifuge.Node).OnCacheEmpty":      0,
	"(*github.com/centrifugal/centrifuge.Client).OnSubscribe":     0,
	"(*github.com/centrifugal/centrifuge.Client).OnPublish":       0,
	"(*github.com/centrifugal/centrifuge.Client).OnRPC":           0,
	"(*github.com/centrifugal/centrifuge.Client).OnRefresh":       0,
	"(*github.com/centrifugal/centrifuge.Client).OnSubRefresh":    0,
	"(*github.com/centrifugal/centrifuge.Client).OnPresence":      0,
	"(*github.com/centrifugal/centrifuge.Client).OnPresenceStats": 0,
	"(*github.com/centrifugal/centrifuge.Client).OnHistory":       0,
	"(*github.com/centrifugal/centrifuge.Client).OnMessage":       0,
}

// IsHTTPDoer reports whether fn is an interface method shaped as
// (*net/http.Client).Do: Do(*http.Request) (*http.Response, error). A
// library declares such an interface (jwk.HTTPClient, a Doer) so that its
// caller can pass an *http.Client or a wrapper of one: whatever implements
// it sends the request and waits for the response.
func IsHTTPDoer(fn *types.Func) bool {
	if fn == nil || fn.Name() != "Do" {
		return false
	}
	sig := fn.Signature()
	if sig.Recv() == nil || !types.IsInterface(sig.Recv().Type()) || sig.Params().Len() != 1 || sig.Results().Len() != 2 {
		return false
	}
	return TypeKey(sig.Params().At(0).Type()) == "*net/http.Request" &&
		TypeKey(sig.Results().At(0).Type()) == "*net/http.Response" &&
		types.Identical(sig.Results().At(1).Type(), types.Universe.Lookup("error").Type())
}
