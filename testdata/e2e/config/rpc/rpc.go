// Package rpc is an in-house RPC client. bhlint cannot see that Call goes
// over the network (it uses a transport bhlint does not know); the project's
// .bhlint.yml says so.
package rpc

import "context"

type Transport interface {
	RoundTrip(ctx context.Context, method string, body []byte) ([]byte, error)
}

type Client struct{ T Transport }

func (c *Client) Call(ctx context.Context, method string, body []byte) ([]byte, error) {
	return c.T.RoundTrip(ctx, method, body)
}
