// Package shed: gRPC servers and interceptors that shed load, with and
// without retry guidance.
package shed

import (
	"context"
	"errors"
	"log"
	"strconv"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"
)

type Req struct{}
type Resp struct{}

type Server struct{ full bool }

// ErrBusy is a sentinel: it is reported where a function returns it.
var ErrBusy = status.Error(codes.ResourceExhausted, "busy") // want ErrBusy:"shedError\\(gRPC ResourceExhausted\\)"

// ErrGuided carries a RetryInfo: not a shed without guidance.
var ErrGuided = guided()

var errPlain = errors.New("plain")

func guided() error {
	st, _ := status.New(codes.ResourceExhausted, "busy").WithDetails(&errdetails.RetryInfo{RetryDelay: durationpb.New(5e9)})
	return st.Err()
}

// ---- positives ----

func (s *Server) Get(ctx context.Context, _ *Req) (*Resp, error) {
	if s.full {
		return nil, status.Error(codes.ResourceExhausted, "too many requests") // want `ERR_MISSING_RETRY_AFTER: \(\*shed.Server\).Get builds an error carrying gRPC ResourceExhausted, returned without retry guidance`
	}
	return &Resp{}, nil
}

func (s *Server) Put(ctx context.Context, _ *Req) (*Resp, error) {
	if s.full {
		return nil, status.Errorf(codes.ResourceExhausted, "%d in flight", 1) // want `Put builds an error carrying gRPC ResourceExhausted`
	}
	return &Resp{}, nil
}

func (s *Server) Del(ctx context.Context, _ *Req) (*Resp, error) {
	if s.full {
		return nil, status.New(codes.ResourceExhausted, "queue full").Err() // want `Del builds an error carrying gRPC ResourceExhausted`
	}
	return &Resp{}, nil
}

// allow is a limiter check, not a constructor: it also returns nil.
func (s *Server) allow(ctx context.Context) error {
	if s.full {
		return ErrBusy // want `\(\*shed.Server\).allow returns ErrBusy, which holds an error carrying gRPC ResourceExhausted`
	}
	return nil
}

// Unary is an interceptor: the limiter's error is reported in allow, not
// again here.
func (s *Server) Unary(ctx context.Context, req any, _ *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
	if err := s.allow(ctx); err != nil {
		return nil, err
	}
	return h(ctx, req)
}

// A status with details that are not RetryInfo gives no retry guidance.
func (s *Server) Quota(ctx context.Context, _ *Req) (*Resp, error) {
	st := status.New(codes.ResourceExhausted, "quota") // want `Quota builds an error carrying gRPC ResourceExhausted`
	st, err := st.WithDetails(&errdetails.QuotaFailure{})
	if err != nil {
		return nil, err // the details' error, not the status
	}
	return nil, st.Err()
}

// tooBusy is a constructor: it is not reported, its callers are.
func tooBusy(what string) error { // want tooBusy:"shedError\\(gRPC ResourceExhausted\\)"
	return status.Error(codes.ResourceExhausted, what+" is busy")
}

// withCode builds whatever code it is passed: callers passing a shed code
// are reported.
func withCode(code codes.Code, msg string) error { // want withCode:"shedError\\(code param 0\\)"
	return status.Error(code, msg)
}

func (s *Server) List(ctx context.Context, _ *Req) (*Resp, error) {
	if s.full {
		return nil, tooBusy("list") // want `List builds an error carrying gRPC ResourceExhausted`
	}
	if s == nil {
		return nil, withCode(codes.ResourceExhausted, "nil") // want `List builds an error carrying gRPC ResourceExhausted`
	}
	return nil, withCode(codes.NotFound, "none")
}

// ---- traps ----

// With a RetryInfo detail the client knows when to come back.
func (s *Server) GetGuided(ctx context.Context, _ *Req) (*Resp, error) {
	if s.full {
		st, err := status.New(codes.ResourceExhausted, "busy").WithDetails(&errdetails.RetryInfo{RetryDelay: durationpb.New(5e9)})
		if err != nil {
			return nil, err
		}
		return nil, st.Err()
	}
	return nil, ErrGuided
}

// The pushback trailer is retry guidance too.
func (s *Server) GetPushback(ctx context.Context, _ *Req) (*Resp, error) {
	if s.full {
		grpc.SetTrailer(ctx, metadata.Pairs("grpc-retry-pushback-ms", strconv.Itoa(5000)))
		return nil, status.Error(codes.ResourceExhausted, "busy")
	}
	return &Resp{}, nil
}

// A health service's refusal tells the balancer to stop sending, whatever the
// code: not reported.
type healthServer struct {
	grpc_health_v1.UnimplementedHealthServer
	down bool
}

func (h *healthServer) Check(ctx context.Context, _ *grpc_health_v1.HealthCheckRequest) (*grpc_health_v1.HealthCheckResponse, error) {
	if h.down {
		return nil, status.Error(codes.ResourceExhausted, "down")
	}
	return &grpc_health_v1.HealthCheckResponse{Status: grpc_health_v1.HealthCheckResponse_SERVING}, nil
}

// A client reading the code of an outbound call builds nothing.
func (s *Server) Forward(ctx context.Context, call func() error) (*Resp, error) {
	if err := call(); status.Code(err) == codes.ResourceExhausted {
		return nil, err
	}
	return nil, nil
}

// An error logged, not returned, sheds nothing.
func (s *Server) Log(ctx context.Context, _ *Req) (*Resp, error) {
	err := status.Error(codes.ResourceExhausted, "noted")
	log.Print(err)
	return nil, errPlain
}

// Other codes are not shedding.
func (s *Server) Missing(ctx context.Context, _ *Req) (*Resp, error) {
	return nil, status.Error(codes.NotFound, "missing")
}

// Busy is an exported constructor for other packages.
func Busy(what string) error { // want Busy:"shedError\\(gRPC ResourceExhausted\\)"
	return tooBusy(what)
}

// Unavailable reports failures as often as refusals: it is a shed only after
// an admission check of the catalogue failed (package unavail). A check of
// the server's own (allow) or a flag is not one: not reported.
func (s *Server) Query(ctx context.Context, _ *Req) (*Resp, error) {
	if err := s.allow(ctx); err != nil {
		return nil, status.Errorf(codes.Unavailable, "query failed: %v", err)
	}
	if s.full {
		return nil, status.Error(codes.Unavailable, "draining")
	}
	return nil, nil
}

// But a ResourceExhausted is a refusal whatever its message says.
func (s *Server) Exhausted(ctx context.Context, _ *Req) (*Resp, error) {
	if err := s.allow(ctx); err != nil {
		return nil, status.Errorf(codes.ResourceExhausted, "limited: %v", err) // want `Exhausted builds an error carrying gRPC ResourceExhausted`
	}
	return nil, nil
}

// A named result returned through a deferred call is followed to what was
// stored in it.
func (s *Server) Batch(ctx context.Context, _ *Req) (_ *Resp, retErr error) {
	defer func() { log.Print(retErr) }()
	if s.full {
		return nil, status.Error(codes.ResourceExhausted, "too many batches") // want `Batch builds an error carrying gRPC ResourceExhausted`
	}
	return &Resp{}, nil
}
