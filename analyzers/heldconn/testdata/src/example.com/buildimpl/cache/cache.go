// Package cache declares the cache the controllers invalidate; its Redis
// implementation is in a sub-package they do not import.
package cache

import "context"

type BatchDeleter interface {
	ChainExecDel(ctx context.Context) error
}

type UserCache interface {
	BatchDeleter
	DelUser(id string) UserCache
	Name() string
}
