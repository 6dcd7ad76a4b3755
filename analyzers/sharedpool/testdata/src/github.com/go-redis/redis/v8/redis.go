// Package redis is a stub of github.com/go-redis/redis/v8.
package redis

import "context"

type Options struct{ Addr string }
type Client struct{}
type StringCmd struct{}
type IntCmd struct{}

func NewClient(opt *Options) *Client                              { return &Client{} }
func (c *Client) Get(ctx context.Context, key string) *StringCmd  { return nil }
func (c *Client) Del(ctx context.Context, keys ...string) *IntCmd { return nil }
func (c *Client) Incr(ctx context.Context, key string) *IntCmd    { return nil }

// Cmdable is the commands every client has.
type Cmdable interface {
	Get(ctx context.Context, key string) *StringCmd
	Del(ctx context.Context, keys ...string) *IntCmd
	Incr(ctx context.Context, key string) *IntCmd
}
