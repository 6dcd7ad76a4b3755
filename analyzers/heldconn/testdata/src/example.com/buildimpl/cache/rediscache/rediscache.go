// Package rediscache implements the cache over Redis.
package rediscache

import (
	"context"

	"github.com/go-redis/redis/v8"

	"example.com/buildimpl/cache"
)

type UserCacheRedis struct {
	rdb  *redis.Client
	keys []string
}

func New(rdb *redis.Client) cache.UserCache { return &UserCacheRedis{rdb: rdb} }

func (u *UserCacheRedis) DelUser(id string) cache.UserCache {
	return &UserCacheRedis{rdb: u.rdb, keys: append(u.keys, "user:"+id)}
}

func (u *UserCacheRedis) ChainExecDel(ctx context.Context) error {
	for _, k := range u.keys {
		if err := u.rdb.Get(ctx, k).Err(); err != nil {
			return err
		}
	}
	return nil
}

func (u *UserCacheRedis) Name() string { return "redis" }
