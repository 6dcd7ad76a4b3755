// Package limiterpush: an admission method that sends the pushback trailer
// on the call's context before refusing.
package limiterpush

import (
	"context"
	"errors"
	"strconv"

	"golang.org/x/time/rate"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
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
