// Package grpc_health_v1 is a stub of the gRPC health service's types.
package grpc_health_v1

import "context"

type HealthCheckRequest struct{ Service string }

type HealthCheckResponse_ServingStatus int32

const (
	HealthCheckResponse_SERVING     HealthCheckResponse_ServingStatus = 1
	HealthCheckResponse_NOT_SERVING HealthCheckResponse_ServingStatus = 2
)

type HealthCheckResponse struct {
	Status HealthCheckResponse_ServingStatus
}

type Health_WatchServer interface {
	Send(*HealthCheckResponse) error
	Context() context.Context
}

type HealthServer interface {
	Check(context.Context, *HealthCheckRequest) (*HealthCheckResponse, error)
	Watch(*HealthCheckRequest, Health_WatchServer) error
}
