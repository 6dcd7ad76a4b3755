// Package healthiface declares probes that call through the module's // want package:`pendingProbes\(probes: \(\*healthiface.Checker\).Check: \(healthiface.TargetService\).IsReady, \(\*healthiface.CachedChecker\).Check: \(healthiface.StatusSource\).Healthy; resolved 0; impls: \)`
// interfaces. The implementations are in packages this one does not
// import (gormstore, service, memstatus): what the probes reach is decided
// where their values are built (wiring), or by the implementations a
// package that imports this one sees (wiredmain).
package healthiface

import (
	"context"

	"github.com/gin-gonic/gin"
	"google.golang.org/grpc/health/grpc_health_v1"
)

// Database is what the HTTP probe asks.
type Database interface{ Ping() error }

// API is a handler type another package registers.
type API struct{ DB Database }

func (a *API) Health(c *gin.Context) { // want Health:`callsThrough\(\(healthiface.Database\).Ping\)`
	if err := a.DB.Ping(); err != nil {
		c.String(500, "down")
		return
	}
	c.String(200, "ok")
}

// TargetService is what the gRPC health service asks.
type TargetService interface {
	IsReady(ctx context.Context) (bool, error)
}

// Checker is the gRPC health service of a server behind TargetService.
type Checker struct{ TargetService }

func (o *Checker) Check(ctx context.Context, req *grpc_health_v1.HealthCheckRequest) (*grpc_health_v1.HealthCheckResponse, error) { // want Check:`callsThrough\(\(healthiface.TargetService\).IsReady\)`
	ready, err := o.IsReady(ctx)
	if err != nil || !ready {
		return &grpc_health_v1.HealthCheckResponse{Status: grpc_health_v1.HealthCheckResponse_NOT_SERVING}, err
	}
	return &grpc_health_v1.HealthCheckResponse{Status: grpc_health_v1.HealthCheckResponse_SERVING}, nil
}

// StatusSource: every implementation in the module answers from memory.
type StatusSource interface{ Healthy() bool }

// CachedChecker's Check is bounded by its implementations, all in memory.
type CachedChecker struct{ Src StatusSource }

func (c *CachedChecker) Check(ctx context.Context, req *grpc_health_v1.HealthCheckRequest) (*grpc_health_v1.HealthCheckResponse, error) { // want Check:`callsThrough\(\(healthiface.StatusSource\).Healthy\)`
	if !c.Src.Healthy() {
		return &grpc_health_v1.HealthCheckResponse{Status: grpc_health_v1.HealthCheckResponse_NOT_SERVING}, nil
	}
	return &grpc_health_v1.HealthCheckResponse{Status: grpc_health_v1.HealthCheckResponse_SERVING}, nil
}
