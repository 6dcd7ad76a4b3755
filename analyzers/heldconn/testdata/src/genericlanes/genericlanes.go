// Package genericlanes holds connections in methods of generic types whose
// type argument is a lane, as the bulkhead runtime's DB[L] and Executor[L].
package genericlanes

import (
	"context"
	"database/sql"
	"net/http"
)

// CardAuth and Tax are lanes: empty structs used as type arguments.
type (
	CardAuth struct{}
	Tax      struct{}
)

// DB is a lane-typed database handle.
type DB[L any] struct{ db *sql.DB }

// Keyed is a generic type with two type parameters.
type Keyed[L any, K comparable] struct{ byKey map[K]*DB[L] }

func (d *DB[L]) txAcrossHTTPInGenericMethod(ctx context.Context, client *http.Client, req *http.Request) error { // want txAcrossHTTPInGenericMethod:`queriesPool\(genericlanes\.DB\[L\]\.db\)`
	tx, err := d.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	resp, err := client.Do(req) // want `ERR_CONN_HELD_ACROSS_NETWORK_CALL: transaction from \(\*sql.DB\).BeginTx is still held during \(\*http.Client\).Do`
	if err != nil {
		return err
	}
	resp.Body.Close()
	return tx.Commit()
}

func (d *DB[L]) txCommittedBeforeHTTPInGenericMethod(ctx context.Context, client *http.Client, req *http.Request) error { // want txCommittedBeforeHTTPInGenericMethod:`queriesPool\(genericlanes\.DB\[L\]\.db\)`
	tx, err := d.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// lookup is a generic function over the key, instantiated with a lane.
func lookup[K comparable](k *Keyed[CardAuth, K], key K) *DB[CardAuth] { return k.byKey[key] }

func instantiatedWithLanes(ctx context.Context, k *Keyed[CardAuth, string], tax *DB[Tax], client *http.Client, req *http.Request) error { // want instantiatedWithLanes:`queriesPool\(genericlanes\.DB\[L\]\.db\)`
	if err := lookup(k, "main").txCommittedBeforeHTTPInGenericMethod(ctx, client, req); err != nil {
		return err
	}
	return tax.txAcrossHTTPInGenericMethod(ctx, client, req)
}

// sum has type parameters and no database: nothing to say.
func sum[N int | int64 | float64](xs ...N) N {
	var s N
	for _, x := range xs {
		s += x
	}
	return s
}
