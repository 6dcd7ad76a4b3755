// Package generics holds connections across network calls in generic code:
// type parameters on functions, on methods' receivers, and lane types used
// as type arguments, as the bulkhead runtime does.
package generics

import (
	"context"
	"database/sql"
	"net/http"
)

// CardAuth is a lane.
type CardAuth struct{}

// DB is a lane-typed database handle.
type DB[L any] struct{ db *sql.DB }

// Pool hands out lane-typed handles.
type Pool[L any, T comparable] struct {
	items map[T]*DB[L]
}

// ChargeVia holds a transaction of a lane-typed DB across client.Do.
func (d *DB[L]) ChargeVia(ctx context.Context, client *http.Client, req *http.Request) error {
	tx, err := d.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	return tx.Commit()
}

// With runs f with a transaction held: a generic function over the result.
func With[R any](ctx context.Context, db *sql.DB, f func(*sql.Tx) (R, error)) (R, error) {
	var zero R
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return zero, err
	}
	defer tx.Rollback()
	r, err := f(tx)
	if err != nil {
		return zero, err
	}
	return r, tx.Commit()
}

// Lookup instantiates the generic types with the lane.
func Lookup[T comparable](p *Pool[CardAuth, T], key T) *DB[CardAuth] { return p.items[key] }

// Use instantiates ChargeVia with the lane type.
func Use(ctx context.Context, p *Pool[CardAuth, string], client *http.Client, req *http.Request) error {
	return Lookup(p, "main").ChargeVia(ctx, client, req)
}

// Sum is generic code with no database at all.
func Sum[N int | int64 | float64](xs ...N) N {
	var s N
	for _, x := range xs {
		s += x
	}
	return s
}
