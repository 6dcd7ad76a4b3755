// Package billingpb is a generated client of another service.
package billingpb

import (
	"context"

	"google.golang.org/grpc"
)

type PingRequest struct{}
type PingReply struct{}

type BillingClient interface {
	Ping(ctx context.Context, in *PingRequest, opts ...grpc.CallOption) (*PingReply, error)
}

type billingClient struct{ cc grpc.ClientConnInterface }

func NewBillingClient(cc grpc.ClientConnInterface) BillingClient { return &billingClient{cc} }

func (c *billingClient) Ping(ctx context.Context, in *PingRequest, opts ...grpc.CallOption) (*PingReply, error) { // want Ping:"reachesShared\\(gRPC connection billingClient.cc"
	out := new(PingReply)
	err := c.cc.Invoke(ctx, "/billing.Billing/Ping", in, out, opts...)
	return out, err
}
