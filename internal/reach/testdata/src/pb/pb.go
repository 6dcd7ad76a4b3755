// Package pb is a generated gRPC client's interface.
package pb

import (
	"context"

	"google.golang.org/grpc"
)

type ChargeRequest struct{}
type ChargeReply struct{}

type BillingClient interface {
	Charge(ctx context.Context, in *ChargeRequest, opts ...grpc.CallOption) (*ChargeReply, error)
}
