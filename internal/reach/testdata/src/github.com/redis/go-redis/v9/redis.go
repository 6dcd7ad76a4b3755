// Package redis is a stub of go-redis v9: a client interface.
package redis

import "context"

type StringCmd struct{}

type UniversalClient interface {
	Get(ctx context.Context, key string) *StringCmd
}
