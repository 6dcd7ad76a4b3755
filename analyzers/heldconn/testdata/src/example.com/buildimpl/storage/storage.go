// Package storage opens the stores: the only package that names the // want package:`implements\(holds \(example.com/buildimpl/txlib.Tx\).Transaction by \(\*mongoutil.mongoTx\).Transaction\)`
// implementations.
package storage

import (
	"io"

	"github.com/go-redis/redis/v8"
	"go.mongodb.org/mongo-driver/mongo"

	"example.com/buildimpl/cache"
	"example.com/buildimpl/cache/rediscache"
	"example.com/buildimpl/hooklog"
	"example.com/buildimpl/mongoutil"
	"example.com/buildimpl/txlib"
)

type Storage struct {
	Tx    txlib.Tx
	Cache cache.UserCache
	Log   io.Writer
}

func Open(client *mongo.Client, rdb *redis.Client) *Storage {
	return &Storage{Tx: mongoutil.NewMongoTx(client), Cache: rediscache.New(rdb), Log: hooklog.Writer{URL: "https://logs.example"}}
}
