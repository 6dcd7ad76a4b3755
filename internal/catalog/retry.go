package catalog

import "go/types"

// Sleeps are calls that make the caller wait for the duration passed as the
// given argument: a retry loop that makes one waits between attempts, and
// whether that wait grows depends on the value passed.
var Sleeps = map[string]int{
	"time.Sleep": 0,
}

// ErrorMatchers test which error a value is, as the standard errors.Is and
// errors.As do: the libraries that wrap errors export the same two, which
// forward to the standard ones.
var ErrorMatchers = newTable(
	"errors.Is", "errors.As",
	"github.com/pkg/errors.Is", "github.com/pkg/errors.As",
	"golang.org/x/xerrors.Is", "golang.org/x/xerrors.As",
	"github.com/cockroachdb/errors.Is", "github.com/cockroachdb/errors.As",
	"emperror.dev/errors.Is", "emperror.dev/errors.As",
)

// Timers are calls that return a channel, or a timer or ticker whose C
// channel, fires after the duration passed as the given argument (receivers
// count as argument 0): receiving from it waits. Reset re-arms a timer.
var Timers = map[string]int{
	"time.After":           0,
	"time.Tick":            0,
	"time.NewTimer":        0,
	"time.NewTicker":       0,
	"(*time.Timer).Reset":  1,
	"(*time.Ticker).Reset": 1,
}

// PausePackages are the import paths a package must reach to wait at all:
// the standard timers and the backoff and limiter libraries of Backoffs.
var PausePackages = []string{
	"time",
	"github.com/cenkalti/backoff/v4", "github.com/cenkalti/backoff/v5",
	"github.com/failsafe-go/failsafe-go", "golang.org/x/time/rate",
}

// Backoffs are calls that wait between attempts with a delay that grows or
// is jittered on its own: backoff and retry libraries, and rate limiters,
// which pace their callers whatever the caller passes.
var Backoffs = newTable(
	// cenkalti/backoff: the retry helpers and the policies' next delay.
	"github.com/cenkalti/backoff/v4.Retry", "github.com/cenkalti/backoff/v4.RetryNotify",
	"github.com/cenkalti/backoff/v4.RetryNotifyWithTimer", "github.com/cenkalti/backoff/v4.RetryWithData",
	"github.com/cenkalti/backoff/v4.RetryNotifyWithData", "github.com/cenkalti/backoff/v4.RetryNotifyWithTimerAndData",
	"github.com/cenkalti/backoff/v5.Retry",
	// failsafe-go: executions run under the caller's retry policy.
	"github.com/failsafe-go/failsafe-go.Run", "github.com/failsafe-go/failsafe-go.Get",
	"github.com/failsafe-go/failsafe-go.RunWithExecution", "github.com/failsafe-go/failsafe-go.GetWithExecution",
	"(github.com/failsafe-go/failsafe-go.Executor).*",
	// golang.org/x/time/rate: a limiter paces its callers.
	"(*golang.org/x/time/rate.Limiter).Wait", "(*golang.org/x/time/rate.Limiter).WaitN",
)

// RetryAfterHeader is the response header a shed response must carry.
const RetryAfterHeader = "Retry-After"

// ShedStatuses are the HTTP statuses that tell a client to come back later,
// and so must say when.
var ShedStatuses = map[int64]string{429: "429 Too Many Requests", 503: "503 Service Unavailable"}

// ProbeWords mark health, liveness and readiness endpoints, whose 503 tells
// a load balancer or orchestrator to stop sending traffic, not a client when
// to retry.
var ProbeWords = []string{"health", "healthz", "livez", "readyz", "liveness", "readiness", "ready", "alive", "probe"}

// ReceiveCalls wait for the next message, connection or frame from a peer:
// a loop round one of them is a reader loop. After the connection,
// subscription or listener is closed they fail at once, every time, so a
// reader loop that goes round again on their error with no pause spins.
// gRPC streams' Recv, whatever the generated type, is recognised by its
// receiver (see GRPCStreamMethods).
var ReceiveCalls = newTable(
	// net: a listener's Accept fails at once for ever once it is closed.
	"(net.Listener).Accept", "(*net.TCPListener).Accept", "(*net.TCPListener).AcceptTCP",
	"(*net.UnixListener).Accept", "(*net.UnixListener).AcceptUnix",
	// net: a packet connection's reads fail at once for ever once it is closed.
	"(*net.UDPConn).ReadFromUDP", "(*net.UDPConn).ReadFrom", "(*net.UDPConn).ReadMsgUDP",
	// go-redis v9 publish/subscribe.
	"(*github.com/redis/go-redis/v9.PubSub).Receive", "(*github.com/redis/go-redis/v9.PubSub).ReceiveMessage",
	"(*github.com/redis/go-redis/v9.PubSub).ReceiveTimeout",
	// NATS and Kafka consumers, WebSocket reads.
	"(*github.com/nats-io/nats.go.Subscription).NextMsg", "(*github.com/nats-io/nats.go.Subscription).NextMsgWithContext",
	"(*github.com/segmentio/kafka-go.Reader).ReadMessage", "(*github.com/segmentio/kafka-go.Reader).FetchMessage",
	"(*github.com/gorilla/websocket.Conn).ReadMessage", "(*github.com/gorilla/websocket.Conn).NextReader",
	"(*github.com/gorilla/websocket.Conn).ReadJSON",
)

// RemoteReceivePackages are the packages of ReceiveCalls whose calls reach
// another service (a broker or a peer), so that a loop that repeats them
// repeats a network round trip; a listener's Accept waits for clients and
// loads no dependency.
var RemoteReceivePackages = []string{
	"github.com/redis/go-redis/v9", "github.com/nats-io/nats.go", "github.com/segmentio/kafka-go",
	"github.com/gorilla/websocket",
}

// GRPCCallOption is the type of the variadic last parameter of every method
// of a generated gRPC client: a call through the client interface is a
// network call even when the implementation is not known.
const GRPCCallOption = "google.golang.org/grpc.CallOption"

// ConnectHandlerOptions are the option types of the handler constructors
// protoc-gen-connect-go generates (NewXxxHandler(svc, opts...)): Connect's,
// under its current and its former module path.
var ConnectHandlerOptions = []string{"connectrpc.com/connect.HandlerOption", "github.com/bufbuild/connect-go.HandlerOption"}

// GRPCStatusCode returns the gRPC code of an error: a loop that goes round
// when status.Code(err) is Unavailable retries on that error.
const GRPCStatusCode = "google.golang.org/grpc/status.Code"

// GRPCStreamMethods are the methods every gRPC stream has (grpc.ClientStream
// and grpc.ServerStream both): a Recv on a type that has them receives a
// message from the peer.
var GRPCStreamMethods = []string{"RecvMsg", "SendMsg", "Context"}

// IsGRPCStream reports whether t, or a pointer to it, has every method of
// GRPCStreamMethods: a gRPC stream, generated or not.
func IsGRPCStream(t types.Type) bool {
	for _, name := range GRPCStreamMethods {
		obj, _, _ := types.LookupFieldOrMethod(t, true, nil, name)
		if _, ok := obj.(*types.Func); !ok {
			return false
		}
	}
	return true
}

// ConflictErrors are the errors with which a datastore answers about the
// data, not about itself: another writer won an optimistic transaction
// (go-redis's TxFailedErr, returned when a key WATCHed by the transaction
// changed before its EXEC), or the node a write needs is missing or is
// there already (ZooKeeper's ErrNoNode and ErrNodeExists, on which a
// create makes the parent or takes the existing node and goes round). The
// server is up and has answered; a bounded loop that goes round only on
// one of them retries a lost race on the data, as a database's
// serialization failure is retried, not a call on a failing dependency.
var ConflictErrors = []string{
	"github.com/redis/go-redis/v9.TxFailedErr",
	"github.com/go-redis/redis/v8.TxFailedErr",
	"github.com/go-redis/redis/v7.TxFailedErr",
	"github.com/go-redis/redis.TxFailedErr",
	"github.com/go-zookeeper/zk.ErrNoNode", "github.com/go-zookeeper/zk.ErrNodeExists",
	"github.com/samuel/go-zookeeper/zk.ErrNoNode", "github.com/samuel/go-zookeeper/zk.ErrNodeExists",
}

// RetryRunners run a function again until it succeeds, under the policy
// their variadic options set (avast/retry-go's Do and DoWithData): the
// value is the index of the function argument, the options follow it.
var RetryRunners = map[string]int{
	"github.com/avast/retry-go.Do": 0, "github.com/avast/retry-go/v4.Do": 0,
	"github.com/avast/retry-go/v4.DoWithData": 0, "github.com/avast/retry-go/v5.Do": 0,
	"github.com/avast/retry-go/v5.DoWithData": 0,
}

// RetryPolicyPackages are the import paths of RetryRunners and
// BackoffRunners and their options: a package that imports none has no
// policy to judge.
var RetryPolicyPackages = []string{
	"github.com/avast/retry-go", "github.com/avast/retry-go/v4", "github.com/avast/retry-go/v5",
	"github.com/cenkalti/backoff", "github.com/cenkalti/backoff/v3", "github.com/cenkalti/backoff/v4",
	"github.com/sethvargo/go-retry",
	"github.com/ThreeDotsLabs/watermill/message/router/middleware",
	grpcRetryV1, grpcRetryV2,
	"github.com/go-resty/resty/v2", "resty.dev/v3",
}

// RetryCountSetters set how many times a client retries every request it
// sends, from the call's argument at the index (the receiver is 0): resty's
// SetRetryCount. The client backs off with jitter by default; a count at an
// integer's maximum (math.MaxInt32) is how a program writes "until it
// succeeds".
var RetryCountSetters = map[string]int{
	"(*github.com/go-resty/resty/v2.Client).SetRetryCount": 1,
	"(*resty.dev/v3.Client).SetRetryCount":                 1,
}

// go-grpc-middleware's retrying client interceptors, v1 and v2.
const (
	grpcRetryV1 = "github.com/grpc-ecosystem/go-grpc-middleware/retry"
	grpcRetryV2 = "github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/retry"
)

// RetryInterceptors retry every RPC of the connection they are installed
// on, under the policy their variadic options (from the first argument)
// set: go-grpc-middleware's retrying client interceptors. Their default
// waits 50 ms with 10% jitter between attempts.
var RetryInterceptors = newTable(
	grpcRetryV1+".UnaryClientInterceptor", grpcRetryV1+".StreamClientInterceptor",
	grpcRetryV2+".UnaryClientInterceptor", grpcRetryV2+".StreamClientInterceptor",
)

// A RetryPolicyStruct is a retry policy written as a struct literal: the
// names of its fields that make the delay grow (a factor above 1), add
// jitter (a factor above 0) and end the attempts at a deadline (a
// duration above 0); Retried says what it runs again.
type RetryPolicyStruct struct {
	Growth, Jitter, Deadline string
	Retried                  string
}

// RetryPolicyStructs, by TypeKey: watermill's Retry middleware, whose
// zero Multiplier and RandomizationFactor retry the handler at a constant
// delay (and, after the first, at none) with no jitter.
var RetryPolicyStructs = map[string]RetryPolicyStruct{
	"github.com/ThreeDotsLabs/watermill/message/router/middleware.Retry": {
		Growth: "Multiplier", Jitter: "RandomizationFactor", Deadline: "MaxElapsedTime",
		Retried: "the message handlers it wraps",
	},
}

// A BackoffRunner runs the function at argument Func again under the
// backoff value at argument Policy; Context, when not -1, is the argument
// whose context's end stops it. Constant says the runner makes a constant
// policy itself (go-retry's Constant(ctx, d, f)), and Policy is then -1.
type BackoffRunner struct {
	Func, Policy, Context int
	Constant              bool
}

// BackoffRunners run a function under a backoff value: cenkalti/backoff's
// Retry family (v4 stops only when the value says Stop) and go-retry's Do
// (it also stops when its context ends).
var BackoffRunners = map[string]BackoffRunner{}

// A BackoffWrapper wraps the backoff value at argument Arg: Bounds when
// it caps the attempts (WithMaxRetries), Deadline when it gives up after a
// time (go-retry's WithMaxDuration), Jitter when it randomises the delay;
// none of them when it passes the value's delays on (WithCappedDuration,
// cenkalti's WithContext, whose Context argument stops it when it ends).
type BackoffWrapper struct {
	Arg, Context             int
	Bounds, Deadline, Jitter bool
}

// BackoffWrappers are the wrappers of BackoffRunners' policies.
var BackoffWrappers = map[string]BackoffWrapper{}

// ConstantBackoffs make a backoff value that waits the same time every
// round, with no growth and no jitter, and never gives up; ConstantBackoffTypes
// (by TypeKey) are the same written as a literal
// (&backoff.ConstantBackOff{Interval: d}).
var (
	ConstantBackoffs     = newTable()
	ConstantBackoffTypes = map[string]bool{}
)

func init() {
	for _, v := range []string{"github.com/cenkalti/backoff", "github.com/cenkalti/backoff/v3", "github.com/cenkalti/backoff/v4"} {
		for _, name := range []string{"Retry", "RetryNotify", "RetryNotifyWithTimer", "RetryWithData", "RetryNotifyWithData", "RetryNotifyWithTimerAndData"} {
			BackoffRunners[v+"."+name] = BackoffRunner{Func: 0, Policy: 1, Context: -1}
		}
		BackoffWrappers[v+".WithMaxRetries"] = BackoffWrapper{Arg: 0, Context: -1, Bounds: true}
		BackoffWrappers[v+".WithContext"] = BackoffWrapper{Arg: 0, Context: 1}
		ConstantBackoffs.Add(v + ".NewConstantBackOff")
		ConstantBackoffTypes["*"+v+".ConstantBackOff"] = true
	}
	const retry = "github.com/sethvargo/go-retry"
	BackoffRunners[retry+".Do"] = BackoffRunner{Func: 2, Policy: 1, Context: 0}
	BackoffRunners[retry+".DoValue"] = BackoffRunner{Func: 2, Policy: 1, Context: 0}
	BackoffRunners[retry+".Constant"] = BackoffRunner{Func: 2, Policy: -1, Context: 0, Constant: true}
	BackoffWrappers[retry+".WithMaxRetries"] = BackoffWrapper{Arg: 1, Context: -1, Bounds: true}
	BackoffWrappers[retry+".WithMaxDuration"] = BackoffWrapper{Arg: 1, Context: -1, Deadline: true}
	BackoffWrappers[retry+".WithJitter"] = BackoffWrapper{Arg: 1, Context: -1, Jitter: true}
	BackoffWrappers[retry+".WithJitterPercent"] = BackoffWrapper{Arg: 1, Context: -1, Jitter: true}
	BackoffWrappers[retry+".WithCappedDuration"] = BackoffWrapper{Arg: 1, Context: -1}
	ConstantBackoffs.Add(retry + ".NewConstant")
}

// RetryAttemptOptions set the number of attempts from their first
// argument; 0 means until it succeeds.
var RetryAttemptOptions = newTable(
	"github.com/avast/retry-go.Attempts", "github.com/avast/retry-go/v4.Attempts", "github.com/avast/retry-go/v5.Attempts",
)

// RetryForeverOptions retry until the function succeeds.
var RetryForeverOptions = newTable(
	"github.com/avast/retry-go.UntilSucceeded", "github.com/avast/retry-go/v4.UntilSucceeded", "github.com/avast/retry-go/v5.UntilSucceeded",
)

// RetryDelayTypeOptions choose how the delay between attempts is computed,
// from the function they are handed (or the call that makes it:
// grpc_retry.WithBackoff(grpc_retry.BackoffLinear(d))); RetryConstantDelays
// are those that wait the same time every round, with no growth and no
// jitter (the libraries' defaults add random jitter).
var (
	RetryDelayTypeOptions = newTable(
		"github.com/avast/retry-go.DelayType", "github.com/avast/retry-go/v4.DelayType", "github.com/avast/retry-go/v5.DelayType",
		grpcRetryV1+".WithBackoff", grpcRetryV2+".WithBackoff",
	)
	RetryConstantDelays = newTable(
		"github.com/avast/retry-go.FixedDelay", "github.com/avast/retry-go/v4.FixedDelay", "github.com/avast/retry-go/v5.FixedDelay",
		grpcRetryV1+".BackoffLinear", grpcRetryV2+".BackoffLinear",
	)
)
