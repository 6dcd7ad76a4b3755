// Package redis is a stub of go-redis v9: commands return a Cmd whose
// Result or Err reports the command's failure.
package redis

import "context"

type StringCmd struct {
	val string
	err error
}

func (c *StringCmd) Result() (string, error) { return c.val, c.err }
func (c *StringCmd) Err() error              { return c.err }

// baseCmd carries the error of every command type that embeds it: Err
// is a promoted method (StatusCmd's, as in go-redis).
type baseCmd struct{ err error }

func (c *baseCmd) Err() error { return c.err }

type StatusCmd struct{ baseCmd }

type cmdable func(ctx context.Context, cmd any) error

func (c cmdable) Get(ctx context.Context, key string) *StringCmd {
	cmd := &StringCmd{}
	cmd.err = c(ctx, cmd)
	return cmd
}

func (c cmdable) Ping(ctx context.Context) *StatusCmd {
	cmd := &StatusCmd{}
	cmd.err = c(ctx, cmd)
	return cmd
}

type Client struct{ cmdable }

func NewClient() *Client { return &Client{} }

// Cmdable is the interface of every client's commands.
type Cmdable interface {
	Ping(ctx context.Context) *StatusCmd
	Get(ctx context.Context, key string) *StringCmd
}
