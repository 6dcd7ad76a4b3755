// Package pb stands for protoc-gen-go-grpc's output.
package pb

import (
	"context"

	"google.golang.org/grpc"
)

type Req struct{}
type Resp struct{}

type FeedServiceServer interface {
	GetFeed(context.Context, *Req) (*Resp, error)
	ListFeeds(context.Context, *Req) (*Resp, error)
	mustEmbedUnimplementedFeedServiceServer()
}

type UnimplementedFeedServiceServer struct{}

func (UnimplementedFeedServiceServer) GetFeed(context.Context, *Req) (*Resp, error) { return nil, nil }
func (UnimplementedFeedServiceServer) ListFeeds(context.Context, *Req) (*Resp, error) {
	return nil, nil
}
func (UnimplementedFeedServiceServer) mustEmbedUnimplementedFeedServiceServer() {}

var desc = grpc.ServiceDesc{ServiceName: "pb.FeedService"}

func RegisterFeedServiceServer(s grpc.ServiceRegistrar, srv FeedServiceServer) {
	s.RegisterService(&desc, srv)
}
