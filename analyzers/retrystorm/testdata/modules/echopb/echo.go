// Package echopb has the shape of protoc-gen-go-grpc's output for a service
// with one unary and two streaming methods.
package echopb

import (
	"context"

	"google.golang.org/grpc"
)

type Req struct{ Key string }

type Resp struct{ Value string }

type EchoClient interface {
	Echo(ctx context.Context, in *Req, opts ...grpc.CallOption) (*Resp, error)
	Watch(ctx context.Context, in *Req, opts ...grpc.CallOption) (grpc.ServerStreamingClient[Resp], error)
}

type echoClient struct{ cc grpc.ClientConnInterface }

func NewEchoClient(cc grpc.ClientConnInterface) EchoClient { return &echoClient{cc} }

func (c *echoClient) Echo(ctx context.Context, in *Req, opts ...grpc.CallOption) (*Resp, error) {
	out := new(Resp)
	if err := c.cc.Invoke(ctx, "/echo.Echo/Echo", in, out, opts...); err != nil {
		return nil, err
	}
	return out, nil
}

func (c *echoClient) Watch(ctx context.Context, in *Req, opts ...grpc.CallOption) (grpc.ServerStreamingClient[Resp], error) {
	stream, err := c.cc.NewStream(ctx, &grpc.StreamDesc{ServerStreams: true}, "/echo.Echo/Watch", opts...)
	if err != nil {
		return nil, err
	}
	x := &grpc.GenericClientStream[Req, Resp]{ClientStream: stream}
	if err := x.ClientStream.SendMsg(in); err != nil {
		return nil, err
	}
	return x, nil
}

// EchoServer is the server side; Chat is a bidirectional stream.
type EchoServer interface {
	Chat(grpc.BidiStreamingServer[Req, Resp]) error
}
