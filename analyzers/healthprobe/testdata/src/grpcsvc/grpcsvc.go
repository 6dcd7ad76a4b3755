// Package grpcsvc implements the gRPC health service. // want package:`impls: \(\*billingpb.billingClient\).Ping\)`
package grpcsvc

import (
	"context"

	"github.com/redis/go-redis/v9"
	"google.golang.org/grpc"
	"google.golang.org/grpc/health/grpc_health_v1"

	"billingpb"
)

type HealthServer struct {
	rdb *redis.Client
}

// Check pings the Redis client every request uses.
func (h *HealthServer) Check(ctx context.Context, req *grpc_health_v1.HealthCheckRequest) (*grpc_health_v1.HealthCheckResponse, error) { // want Check:"reachesShared\\(Redis client HealthServer.rdb"
	if err := h.rdb.Ping(ctx).Err(); err != nil { // want `health probe \(\*grpcsvc.HealthServer\).Check \(the gRPC health service's Check\) reaches the Redis client HealthServer.rdb .*\(\(\*grpcsvc.HealthServer\).Check → \(redis.cmdable\).Ping\)`
		return &grpc_health_v1.HealthCheckResponse{Status: grpc_health_v1.HealthCheckResponse_NOT_SERVING}, nil
	}
	return &grpc_health_v1.HealthCheckResponse{Status: grpc_health_v1.HealthCheckResponse_SERVING}, nil
}

// Watch answers from the process: clean.
func (h *HealthServer) Watch(req *grpc_health_v1.HealthCheckRequest, srv grpc_health_v1.Health_WatchServer) error {
	return srv.Send(&grpc_health_v1.HealthCheckResponse{Status: grpc_health_v1.HealthCheckResponse_SERVING})
}

// Get is request traffic on the same client.
func (h *HealthServer) Get(ctx context.Context, key string) (string, error) { // want Get:"reachesShared"
	return h.rdb.Get(ctx, key).Result()
}

// Checker has a Check method that is not the health service's.
type Checker struct{ rdb *redis.Client }

func (c *Checker) Check(ctx context.Context, key string) error { // want Check:"reachesShared"
	return c.rdb.Ping(ctx).Err()
}

// UpstreamHealth's Check calls another service through its generated
// client, on the connection request traffic uses.
type UpstreamHealth struct {
	billing billingpb.BillingClient
	conn    *grpc.ClientConn
}

func (u *UpstreamHealth) Check(ctx context.Context, req *grpc_health_v1.HealthCheckRequest) (*grpc_health_v1.HealthCheckResponse, error) { // want Check:"reachesShared\\(gRPC connection billingClient.cc"
	if _, err := u.billing.Ping(ctx, &billingpb.PingRequest{}); err != nil { // want `health probe \(\*grpcsvc.UpstreamHealth\).Check \(the gRPC health service's Check\) reaches the gRPC connection billingClient.cc .*\(\(\*grpcsvc.UpstreamHealth\).Check → \(\*billingpb.billingClient\).Ping → \(grpc.ClientConnInterface\).Invoke\)`
		return nil, err
	}
	return &grpc_health_v1.HealthCheckResponse{Status: grpc_health_v1.HealthCheckResponse_SERVING}, nil
}

// Watch reads the connection's state, in the process: clean.
func (u *UpstreamHealth) Watch(req *grpc_health_v1.HealthCheckRequest, srv grpc_health_v1.Health_WatchServer) error {
	if u.conn.GetState() != 2 {
		return srv.Send(&grpc_health_v1.HealthCheckResponse{Status: grpc_health_v1.HealthCheckResponse_NOT_SERVING})
	}
	return nil
}

// CacheHealth holds its Redis client behind go-redis' own interface.
type CacheHealth struct{ cache redis.Cmdable }

func (h *CacheHealth) Check(ctx context.Context, req *grpc_health_v1.HealthCheckRequest) (*grpc_health_v1.HealthCheckResponse, error) { // want Check:"reachesShared\\(Redis client CacheHealth.cache"
	if err := h.cache.Ping(ctx).Err(); err != nil { // want `health probe \(\*grpcsvc.CacheHealth\).Check \(the gRPC health service's Check\) reaches the Redis client CacheHealth.cache .*\(redis.Cmdable\).Ping`
		return nil, err
	}
	return &grpc_health_v1.HealthCheckResponse{Status: grpc_health_v1.HealthCheckResponse_SERVING}, nil
}
