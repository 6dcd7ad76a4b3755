// Package controller runs its writes through txlib.Tx and invalidates // want package:`implements\(holds \(example.com/buildimpl/txlib.Tx\).Transaction by \(\*mongoutil.mongoTx\).Transaction\)`
// through cache.UserCache; it imports neither implementation, but both are
// in its build (through storage): a call through either resolves to them.
package controller

import (
	"context"
	"io"

	"example.com/buildimpl/cache"
	"example.com/buildimpl/storage"
	"example.com/buildimpl/txlib"
)

type userDatabase struct {
	tx    txlib.Tx
	cache cache.UserCache
	log   io.Writer
}

func New(s *storage.Storage) *userDatabase {
	return &userDatabase{tx: s.Tx, cache: s.Cache, log: s.Log}
}

// Create invalidates the cache over Redis inside the Mongo transaction.
func (u *userDatabase) Create(ctx context.Context, id string) error {
	return u.tx.Transaction(ctx, func(ctx context.Context) error {
		return u.cache.DelUser(id).ChainExecDel(ctx) // want `the function passed to \(txlib.Tx\).Transaction calls \(cache.BatchDeleter\).ChainExecDel \[implemented by \(\*rediscache.UserCacheRedis\).ChainExecDel\]`
	})
}

// ---- traps: must stay silent ----

// Rename reads the cache's name, which waits on nothing, inside the
// transaction.
func (u *userDatabase) Rename(ctx context.Context, id string) error {
	return u.tx.Transaction(ctx, func(ctx context.Context) error {
		_ = u.cache.Name()
		return nil
	})
}

// Audit writes a log line inside the transaction through io.Writer: an
// interface of the standard library is not resolved to the build's
// implementations (the webhook writer storage wires in), as io.Writer is
// not anywhere.
func (u *userDatabase) Audit(ctx context.Context, id string) error {
	return u.tx.Transaction(ctx, func(ctx context.Context) error {
		_, err := u.log.Write([]byte("created " + id))
		return err
	})
}

// CreateThenInvalidate invalidates after the transaction ends.
func (u *userDatabase) CreateThenInvalidate(ctx context.Context, id string) error {
	if err := u.tx.Transaction(ctx, func(ctx context.Context) error { return nil }); err != nil {
		return err
	}
	return u.cache.DelUser(id).ChainExecDel(ctx)
}
