// Package huge has functions over the budget the test sets (-budget=40):
// one that acquires a connection is reported as skipped, visibly; one that
// touches no connection is not worth a word.
package huge

import (
	"context"
	"database/sql"
	"net/http"
)

func txAcrossHTTPInHugeFunction(ctx context.Context, db *sql.DB, client *http.Client, req *http.Request, xs []int) error { // want `skipped: function txAcrossHTTPInHugeFunction too large \(\d+ instructions > budget 40\)` txAcrossHTTPInHugeFunction:`queriesParam\(\[1\]\)`
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	total := 0
	for i := range xs {
		total += xs[i] * 2
		total -= xs[i] / 3
		total ^= xs[i] << 1
		total |= xs[i] >> 2
		if total > 1000 {
			total %= 997
		}
	}
	if total < 0 {
		total = -total
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	return tx.Commit()
}

func hugeWithoutConnections(xs []int) int {
	total := 0
	for i := range xs {
		total += xs[i] * 2
		total -= xs[i] / 3
		total ^= xs[i] << 1
		total |= xs[i] >> 2
		if total > 1000 {
			total %= 997
		}
		total += xs[i] * 2
		total -= xs[i] / 3
		total ^= xs[i] << 1
		total |= xs[i] >> 2
		if total > 1000 {
			total %= 997
		}
	}
	return total
}

func txAcrossHTTPInSmallFunction(ctx context.Context, db *sql.DB, client *http.Client, req *http.Request) error { // want txAcrossHTTPInSmallFunction:`queriesParam\(\[1\]\)`
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	resp, err := client.Do(req) // want `ERR_CONN_HELD_ACROSS_NETWORK_CALL: transaction from`
	if err != nil {
		return err
	}
	resp.Body.Close()
	return tx.Commit()
}
