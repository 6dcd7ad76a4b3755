// Package unavail: codes.Unavailable is a shed only where the server refused
// the call for lack of capacity — the status is built on a path reached only
// when an admission check failed. Each positive has its look-alike trap
// beside it: the same Unavailable after a failure, a not-ready or ownership
// check, draining, or with retry guidance.
package unavail

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/failsafe-go/failsafe-go/bulkhead"
	"github.com/failsafe-go/failsafe-go/circuitbreaker"
	"github.com/failsafe-go/failsafe-go/ratelimiter"
	"golang.org/x/sync/semaphore"
	"golang.org/x/time/rate"
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

type Server struct {
	lim      *rate.Limiter
	sem      *semaphore.Weighted
	queue    chan *Req
	ready    chan struct{}
	inflight atomic.Int64
	active   int
	limit    int64
	calls    int64
	maxQueue int
	shardID  int64
	draining atomic.Bool
	db       *sql.DB
	bh       bulkhead.Bulkhead[any]
	next     func(context.Context, *Req) (*Resp, error)
}

// ---- a rate limiter's Allow ----

func (s *Server) Allow(ctx context.Context, _ *Req) (*Resp, error) {
	if !s.lim.Allow() {
		return nil, status.Error(codes.Unavailable, "rate limited") // want `\(\*unavail.Server\).Allow builds an error carrying gRPC Unavailable \(a refusal for lack of capacity: Limiter.Allow returned false\), returned without retry guidance`
	}
	return &Resp{}, nil
}

// Trap: the same shape after a database error is a failure, not a refusal.
func (s *Server) AllowTrapDB(ctx context.Context, _ *Req) (*Resp, error) {
	if err := s.db.PingContext(ctx); err != nil {
		return nil, status.Error(codes.Unavailable, "database unavailable")
	}
	return &Resp{}, nil
}

// AllowN, with the status built through status.New(…).Err().
func (s *Server) AllowN(ctx context.Context, _ *Req) (*Resp, error) {
	if s.lim.AllowN(time.Now(), 5) {
		return &Resp{}, nil
	}
	return nil, status.New(codes.Unavailable, "rate limited").Err() // want `AllowN builds an error carrying gRPC Unavailable \(a refusal for lack of capacity: Limiter.AllowN returned false\)`
}

// Trap: the limiter refused, but the answer carries a RetryInfo.
func (s *Server) AllowTrapRetryInfo(ctx context.Context, _ *Req) (*Resp, error) {
	if !s.lim.Allow() {
		st, err := status.New(codes.Unavailable, "rate limited").WithDetails(&errdetails.RetryInfo{RetryDelay: durationpb.New(1e9)})
		if err != nil {
			return nil, err
		}
		return nil, st.Err()
	}
	return &Resp{}, nil
}

// Trap: the limiter refused, and the pushback trailer says when to retry.
func (s *Server) AllowTrapPushback(ctx context.Context, _ *Req) (*Resp, error) {
	if !s.lim.Allow() {
		grpc.SetTrailer(ctx, metadata.Pairs("grpc-retry-pushback-ms", strconv.Itoa(1000)))
		return nil, status.Error(codes.Unavailable, "rate limited")
	}
	return &Resp{}, nil
}

// Trap: a refused admission answered with ResourceExhausted is reported once,
// as ResourceExhausted, whatever the check.
func (s *Server) AllowExhausted(ctx context.Context, _ *Req) (*Resp, error) {
	if !s.lim.Allow() {
		return nil, status.Error(codes.ResourceExhausted, "rate limited") // want `AllowExhausted builds an error carrying gRPC ResourceExhausted, returned`
	}
	return &Resp{}, nil
}

// ---- a rate limiter's Wait ----

func (s *Server) Wait(ctx context.Context, _ *Req) (*Resp, error) {
	if err := s.lim.Wait(ctx); err != nil {
		return nil, status.Errorf(codes.Unavailable, "rate limited: %v", err) // want `Wait builds an error carrying gRPC Unavailable \(a refusal for lack of capacity: Limiter.Wait failed\)`
	}
	return &Resp{}, nil
}

// Trap: a downstream call's Unavailable passed on is the downstream's
// failure; the limiter admitted this call.
func (s *Server) WaitTrapDownstream(ctx context.Context, req *Req) (*Resp, error) {
	if err := s.lim.Wait(ctx); err != nil {
		return nil, err
	}
	resp, err := s.next(ctx, req)
	if status.Code(err) == codes.Unavailable {
		return nil, status.Error(codes.Unavailable, "backend unavailable")
	}
	return resp, err
}

// ---- a semaphore's TryAcquire ----

func (s *Server) Acquire(ctx context.Context, _ *Req) (*Resp, error) {
	if !s.sem.TryAcquire(1) {
		return nil, status.Error(codes.Unavailable, "too many concurrent requests") // want `Acquire builds an error carrying gRPC Unavailable \(a refusal for lack of capacity: Weighted.TryAcquire returned false\)`
	}
	defer s.sem.Release(1)
	return &Resp{}, nil
}

// Trap: a shard-ownership check refuses for routing, not capacity.
func (s *Server) AcquireTrapShard(ctx context.Context, _ *Req) (*Resp, error) {
	if !s.ownsShard(s.shardID) {
		return nil, status.Error(codes.Unavailable, "shard moved, please retry")
	}
	return &Resp{}, nil
}

func (s *Server) ownsShard(id int64) bool { return id%2 == 0 }

// ---- a bounded channel's send in a select with default ----

func (s *Server) Enqueue(ctx context.Context, req *Req) (*Resp, error) {
	select {
	case s.queue <- req:
		return &Resp{}, nil
	default:
		return nil, status.Error(codes.Unavailable, "queue full") // want `Enqueue builds an error carrying gRPC Unavailable \(a refusal for lack of capacity: the select's default branch: the channel send would block\)`
	}
}

// Trap: a select that receives with a default is a readiness check: the
// server is not ready yet, not full.
func (s *Server) EnqueueTrapReady(ctx context.Context, req *Req) (*Resp, error) {
	select {
	case <-s.ready:
	default:
		return nil, status.Error(codes.Unavailable, "not ready")
	}
	return &Resp{}, nil
}

// ---- an in-flight counter compared with a limit ----

func (s *Server) Inflight(ctx context.Context, _ *Req) (*Resp, error) {
	if n := s.inflight.Add(1); n > s.limit {
		s.inflight.Add(-1)
		return nil, status.Error(codes.Unavailable, "overloaded") // want `Inflight builds an error carrying gRPC Unavailable \(a refusal for lack of capacity: inflight is at its limit\)`
	}
	defer s.inflight.Add(-1)
	return &Resp{}, nil
}

// The sync/atomic function form: the counter added to, whatever its name.
func (s *Server) AddCounter(ctx context.Context, _ *Req) (*Resp, error) {
	defer atomic.AddInt64(&s.calls, -1)
	if atomic.AddInt64(&s.calls, 1) > s.limit {
		return nil, status.Error(codes.Unavailable, "overloaded") // want `AddCounter builds an error carrying gRPC Unavailable \(a refusal for lack of capacity: calls is at its limit\)`
	}
	return &Resp{}, nil
}

// Trap: a load of the same counter compared with a limit, under a name that
// does not say it counts work under way, is not taken for one.
func (s *Server) AddCounterTrapLoad(ctx context.Context, _ *Req) (*Resp, error) {
	if atomic.LoadInt64(&s.calls) > s.limit {
		return nil, status.Error(codes.Unavailable, "too many calls today")
	}
	return &Resp{}, nil
}

// A plain counter named for work under way, compared with its maximum.
func (s *Server) Active(ctx context.Context, _ *Req) (*Resp, error) {
	if s.active >= s.maxQueue {
		return nil, status.Error(codes.Unavailable, "overloaded") // want `Active builds an error carrying gRPC Unavailable \(a refusal for lack of capacity: active is at its limit\)`
	}
	return &Resp{}, nil
}

// Trap: draining, tested on an atomic flag, is shutting down, not a lack of
// capacity.
func (s *Server) InflightTrapDraining(ctx context.Context, _ *Req) (*Resp, error) {
	if s.draining.Load() {
		return nil, status.Error(codes.Unavailable, "server is shutting down")
	}
	return &Resp{}, nil
}

// Trap: an integer compared with a limit that counts no work under way (a
// shard's generation) is not an admission check.
func (s *Server) InflightTrapGeneration(ctx context.Context, _ *Req) (*Resp, error) {
	if s.shardID > s.limit {
		return nil, status.Error(codes.Unavailable, "shard not loaded")
	}
	return &Resp{}, nil
}

// ---- a bulkhead's rejection ----

func (s *Server) Bulkhead(ctx context.Context, _ *Req) (*Resp, error) {
	if err := s.bh.AcquirePermit(ctx); err != nil {
		if errors.Is(err, bulkhead.ErrFull) {
			return nil, status.Error(codes.Unavailable, "bulkhead full") // want `Bulkhead builds an error carrying gRPC Unavailable \(a refusal for lack of capacity: the error is bulkhead.ErrFull\)`
		}
		return nil, status.Error(codes.Unavailable, "cancelled while waiting")
	}
	defer s.bh.ReleasePermit()
	return &Resp{}, nil
}

// A rate limiter's rejection compared with ==.
func (s *Server) Exceeded(ctx context.Context, run func() error) (*Resp, error) {
	if err := run(); err == ratelimiter.ErrExceeded {
		return nil, status.Error(codes.Unavailable, "rate limit exceeded") // want `Exceeded builds an error carrying gRPC Unavailable \(a refusal for lack of capacity: the error is ratelimiter.ErrExceeded\)`
	}
	return &Resp{}, nil
}

// Trap: an open circuit breaker reports a failing dependency, not a lack of
// capacity.
func (s *Server) ExceededTrapBreaker(ctx context.Context, run func() error) (*Resp, error) {
	if err := run(); errors.Is(err, circuitbreaker.ErrOpen) {
		return nil, status.Error(codes.Unavailable, "dependency failing")
	}
	return &Resp{}, nil
}

// A bulkhead's non-blocking permit.
func (s *Server) TryPermit(ctx context.Context, _ *Req) (*Resp, error) {
	if !s.bh.TryAcquirePermit() {
		return nil, status.Error(codes.Unavailable, "bulkhead full") // want `TryPermit builds an error carrying gRPC Unavailable \(a refusal for lack of capacity: Bulkhead.TryAcquirePermit returned false\)`
	}
	defer s.bh.ReleasePermit()
	return &Resp{}, nil
}

// Trap: the driver error after an admitted call is a failure.
func (s *Server) BulkheadTrapDriver(ctx context.Context, _ *Req) (*Resp, error) {
	if !s.bh.TryAcquirePermit() {
		return nil, status.Error(codes.ResourceExhausted, "bulkhead full") // want `BulkheadTrapDriver builds an error carrying gRPC ResourceExhausted`
	}
	defer s.bh.ReleasePermit()
	if _, err := s.db.ExecContext(ctx, "UPDATE t SET n = n + 1"); err != nil {
		return nil, status.Error(codes.Unavailable, "write failed")
	}
	return &Resp{}, nil
}

// ---- sentinels and constructors ----

// ErrOverloaded is an Unavailable sentinel: reported where it is returned
// after a failed admission check, in this package or another.
var ErrOverloaded = status.Error(codes.Unavailable, "overloaded") // want ErrOverloaded:"shedError\\(gRPC Unavailable\\)"

// ErrShuttingDown is one too, returned while draining.
var ErrShuttingDown = status.Error(codes.Unavailable, "shutting down") // want ErrShuttingDown:"shedError\\(gRPC Unavailable\\)"

// Overloaded is a constructor: its callers are judged.
func Overloaded(what string) error { // want Overloaded:"shedError\\(gRPC Unavailable\\)"
	return status.Error(codes.Unavailable, what+" overloaded")
}

func (s *Server) Sentinel(ctx context.Context, _ *Req) (*Resp, error) {
	if !s.lim.Allow() {
		return nil, ErrOverloaded // want `Sentinel returns ErrOverloaded, which holds an error carrying gRPC Unavailable \(a refusal for lack of capacity: Limiter.Allow returned false\)`
	}
	if s.draining.Load() {
		return nil, ErrShuttingDown // trap: draining
	}
	return &Resp{}, nil
}

func (s *Server) Ctor(ctx context.Context, _ *Req) (*Resp, error) {
	if !s.sem.TryAcquire(1) {
		return nil, Overloaded("ctor") // want `Ctor builds an error carrying gRPC Unavailable \(a refusal for lack of capacity: Weighted.TryAcquire returned false\)`
	}
	defer s.sem.Release(1)
	if err := s.db.PingContext(ctx); err != nil {
		return nil, Overloaded("db") // trap: after a database error
	}
	return &Resp{}, nil
}

// ---- health ----

// Trap: the health service's NOT_SERVING as Unavailable tells a balancer to
// stop sending, even behind a limiter.
type healthServer struct {
	grpc_health_v1.UnimplementedHealthServer
	lim *rate.Limiter
}

func (h *healthServer) Check(ctx context.Context, _ *grpc_health_v1.HealthCheckRequest) (*grpc_health_v1.HealthCheckResponse, error) {
	if !h.lim.Allow() {
		return nil, status.Error(codes.Unavailable, "NOT_SERVING")
	}
	return &grpc_health_v1.HealthCheckResponse{Status: grpc_health_v1.HealthCheckResponse_SERVING}, nil
}
