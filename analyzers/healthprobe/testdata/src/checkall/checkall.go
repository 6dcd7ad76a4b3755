// Package checkall is a gRPC health server that asks each of its checkers
// in turn. The checkers are in packages this one does not import: the
// package that wires them (checkall/cmd) resolves the probe.
package checkall

import (
	"context"

	"google.golang.org/grpc/health/grpc_health_v1"
)

// Checker is a service's own health check.
type Checker interface {
	Check(ctx context.Context) error
}

// HealthServer asks every checker on each probe.
type HealthServer struct{ checkers map[string]Checker }

func New(checkers map[string]Checker) *HealthServer { return &HealthServer{checkers: checkers} }

func (h *HealthServer) Check(ctx context.Context, req *grpc_health_v1.HealthCheckRequest) (*grpc_health_v1.HealthCheckResponse, error) {
	for _, c := range h.checkers {
		if err := c.Check(ctx); err != nil {
			return &grpc_health_v1.HealthCheckResponse{Status: grpc_health_v1.HealthCheckResponse_NOT_SERVING}, err
		}
	}
	return &grpc_health_v1.HealthCheckResponse{Status: grpc_health_v1.HealthCheckResponse_SERVING}, nil
}
