// Package redis is a stub of github.com/go-redis/redis/v8: every command is
// a method of the cmdable func type the clients embed.
package redis

import "context"

type Options struct{ Addr string }

type StringCmd struct{ err error }

func (c *StringCmd) Err() error { return c.err }

type cmdable func(ctx context.Context, cmd any) error

func (c cmdable) Get(ctx context.Context, key string) *StringCmd {
	cmd := &StringCmd{}
	cmd.err = c(ctx, cmd)
	return cmd
}

type Client struct {
	cmdable
}

func NewClient(opt *Options) *Client { return &Client{} }
