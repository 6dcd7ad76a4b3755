// Package limiterpush: admission methods that send the pushback trailer on
// the call's context before refusing, or fail with a status of their own.
package limiterpush

import (
	"context"
	"errors"
	"strconv"

	"golang.org/x/time/rate"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

// GuidedBucket says when to come back: not reported.
type GuidedBucket struct{ rl *rate.Limiter }

func (l *GuidedBucket) Limit(ctx context.Context) error {
	if !l.rl.Allow() {
		grpc.SetTrailer(ctx, metadata.Pairs("grpc-retry-pushback-ms", strconv.Itoa(1000)))
		return errors.New("rate limited")
	}
	return nil
}

// TenantLimiter refuses a call over its tenant's rate with no guidance
// (reported), and fails otherwise with a status that names what went
// wrong: a missing service name is Internal, a missing token
// Unauthenticated. The middleware wraps those in ResourceExhausted too,
// but no wait helps them: not reported (after hatchet's limiter).
type TenantLimiter struct{ rl *rate.Limiter }

func (l *TenantLimiter) Limit(ctx context.Context) error {
	service, _ := ctx.Value(serviceKey{}).(string)
	if service == "" {
		return status.Errorf(codes.Internal, "no server in context")
	}
	if ctx.Value(tokenKey{}) == nil {
		return status.New(codes.Unauthenticated, "no rate limit token found").Err()
	}
	if !l.rl.Allow() {
		return status.Error(codes.ResourceExhausted, "rate limit exceeded") // want `\(\*limiterpush.TenantLimiter\).Limit refuses the call with an error` `\(\*limiterpush.TenantLimiter\).Limit builds an error carrying gRPC ResourceExhausted`
	}
	return nil
}

type serviceKey struct{}

type tokenKey struct{}
