// Package sqlcase holds database/sql positives and traps side by side.
package sqlcase

import (
	"context"
	"database/sql"
	"net/http"
	"strings"

	"txhelper"
	"vendors"
)

type Service struct {
	db    *sql.DB
	audit *sql.DB
	hc    *http.Client
}

// ---- positives ----

func callInsideTx(ctx context.Context, db *sql.DB, url string) error { // want callInsideTx:`queriesParam\(\[1\]\)`
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "INSERT INTO orders VALUES (1)"); err != nil {
		return err
	}
	resp, err := http.Get(url) // want `ERR_CONN_HELD_ACROSS_NETWORK_CALL: transaction from \(\*sql.DB\).BeginTx is still held during http.Get, which waits on the network; commit or roll back before the call`
	if err != nil {
		return err
	}
	resp.Body.Close()
	return tx.Commit()
}

func crossPackageHelper(ctx context.Context, db *sql.DB, card string) error { // want crossPackageHelper:`queriesParam\(\[1\]\)`
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := vendors.Score(card); err != nil { // want `held during vendors.Score \(→ httpx.Post → \(\*http.Client\).Do\)`
		return err
	}
	return tx.Commit()
}

func rowsOpenDuringCall(ctx context.Context, s *Service) error { // want rowsOpenDuringCall:`queriesPool\(sqlcase\.Service\.db\)`
	rows, err := s.db.QueryContext(ctx, "SELECT url FROM webhooks")
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var url string
		if err := rows.Scan(&url); err != nil {
			return err
		}
		if _, err := s.hc.Post(url, "text/plain", strings.NewReader("ping")); err != nil { // want `open rows from \(\*sql.DB\).QueryContext is still held during \(\*http.Client\).Post`
			return err
		}
	}
	return rows.Err()
}

func connHeldDuringCall(ctx context.Context, s *Service) error { // want connHeldDuringCall:`queriesPool\(sqlcase\.Service\.db\)`
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	req, _ := http.NewRequestWithContext(ctx, "GET", "https://tax.example/quote", nil)
	_, err = s.hc.Do(req) // want `connection from \(\*sql.DB\).Conn is still held during \(\*http.Client\).Do`
	return err
}

func otherPoolWhileHolding(ctx context.Context, s *Service) error { // want otherPoolWhileHolding:`queriesPool\(sqlcase\.Service\.db\)`
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := s.audit.ExecContext(ctx, "INSERT INTO audit VALUES (1)"); err != nil { // want `still held during \(\*sql.DB\).ExecContext on the pool handle sqlcase.Service.audit, which waits for a connection of its own`
		return err
	}
	return tx.Commit()
}

func callbackHelperAcrossPackages(ctx context.Context, store *txhelper.Store, card string) error { // want callbackHelperAcrossPackages:`queriesPool\(txhelper\.Store\.DB\)`
	return store.InTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, "UPDATE cards SET seen = now()"); err != nil {
			return err
		}
		_, err := vendors.Score(card) // want `the function passed to \(\*txhelper.Store\).InTx calls vendors.Score .* while the transaction it runs in is held`
		return err
	})
}

func callOnErrorPathAfterCommitFailed(ctx context.Context, db *sql.DB) error { // want callOnErrorPathAfterCommitFailed:`queriesParam\(\[1\]\)`
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := notify(); err != nil { // want `held during sqlcase.notify \(→ http.Get\)`
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

func notify() error {
	_, err := http.Get("https://hooks.example/ping")
	return err
}

// ---- traps: must stay silent ----

func callAfterCommitWithDeferredRollback(ctx context.Context, db *sql.DB, url string) error { // want callAfterCommitWithDeferredRollback:`queriesParam\(\[1\]\)`
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "INSERT INTO orders VALUES (1)"); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	_, err = http.Get(url)
	return err
}

func callBeforeBegin(ctx context.Context, db *sql.DB, card string) error { // want callBeforeBegin:`queriesParam\(\[1\]\)`
	score, err := vendors.Score(card)
	if err != nil {
		return err
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "INSERT INTO scores VALUES ($1)", score); err != nil {
		return err
	}
	return tx.Commit()
}

func rowsDrainedThenCall(ctx context.Context, s *Service) error { // want rowsDrainedThenCall:`queriesPool\(sqlcase\.Service\.db\)`
	rows, err := s.db.QueryContext(ctx, "SELECT url FROM webhooks")
	if err != nil {
		return err
	}
	defer rows.Close()
	var urls []string
	for rows.Next() {
		var u string
		if err := rows.Scan(&u); err != nil {
			return err
		}
		urls = append(urls, u)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for _, u := range urls {
		if _, err := http.Get(u); err != nil {
			return err
		}
	}
	return nil
}

func rowsClosedBeforeWebhook(ctx context.Context, s *Service) error { // want rowsClosedBeforeWebhook:`queriesPool\(sqlcase\.Service\.db\)`
	rows, err := s.db.QueryContext(ctx, "SELECT 1")
	if err != nil {
		return err
	}
	rows.Close()
	_, err = http.Get("https://hooks.example")
	return err
}

func helperOnlyQueriesTx(ctx context.Context, db *sql.DB) error { // want helperOnlyQueriesTx:`queriesParam\(\[1\]\)`
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := insertLine(ctx, tx); err != nil {
		return err
	}
	return tx.Commit()
}

func insertLine(ctx context.Context, tx *sql.Tx) error { // want insertLine:`queriesParam\(\[1\]\)`
	_, err := tx.ExecContext(ctx, "INSERT INTO lines VALUES (1)")
	return err
}

func pureComputationInsideTx(ctx context.Context, db *sql.DB, card string) error { // want pureComputationInsideTx:`queriesParam\(\[1\]\)`
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "INSERT INTO cards VALUES ($1)", strings.ToUpper(vendors.Normalize(card))); err != nil {
		return err
	}
	return tx.Commit()
}

func readsURLsButMakesNoCall(ctx context.Context, db *sql.DB) ([]string, error) { // want readsURLsButMakesNoCall:`queriesParam\(\[1\]\)`
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	var url string
	if err := tx.QueryRowContext(ctx, "SELECT url FROM webhooks LIMIT 1").Scan(&url); err != nil {
		return nil, err
	}
	return []string{url}, tx.Commit()
}

func failedBeginNotifies(ctx context.Context, db *sql.DB) error { // want failedBeginNotifies:`queriesParam\(\[1\]\)`
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		notify() // nothing is held: BeginTx failed
		return err
	}
	return tx.Commit()
}

func releasedByHelper(ctx context.Context, db *sql.DB) error { // want releasedByHelper:`queriesParam\(\[1\]\)`
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := txhelper.Finish(tx); err != nil {
		return err
	}
	return notify()
}

// A query on the pool the transaction came from takes a second connection
// from it: at saturation every holder waits for a second one (a deadlock).
func samePoolSecondConnection(ctx context.Context, s *Service) error { // want samePoolSecondConnection:`queriesPool\(sqlcase\.Service\.db\)`
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var n int
	_ = s.db.QueryRowContext(ctx, "SELECT 1").Scan(&n) // want `QueryRowContext on sqlcase.Service.db, the pool it came from: a second connection from the same pool`
	return tx.Commit()
}

// The same query after the commit takes the connection the commit gave back.
func samePoolAfterCommit(ctx context.Context, s *Service) error { // want samePoolAfterCommit:`queriesPool\(sqlcase\.Service\.db\)`
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := tx.Commit(); err != nil {
		return err
	}
	var n int
	return s.db.QueryRowContext(ctx, "SELECT 1").Scan(&n)
}

// A pool passed as a parameter is the same pool on both calls.
func samePoolParameter(ctx context.Context, db *sql.DB) error { // want samePoolParameter:`queriesParam\(\[1\]\)`
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := db.ExecContext(ctx, "UPDATE t SET x = 1"); err != nil { // want `ExecContext on db, the pool it came from`
		return err
	}
	return tx.Commit()
}

func goroutineDoesNotHold(ctx context.Context, db *sql.DB) error { // want goroutineDoesNotHold:`queriesParam\(\[1\]\)`
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	go notify()
	return tx.Commit()
}

func callAfterStoreCallback(ctx context.Context, store *txhelper.Store) error { // want callAfterStoreCallback:`queriesPool\(txhelper\.Store\.DB\)`
	return store.AfterCommit(ctx, notify)
}

//bhlint:ignore ERR_CONN_HELD_ACROSS_NETWORK_CALL the webhook is on loopback and bounded by a 50 ms timeout
func suppressedOnFunction(ctx context.Context, db *sql.DB) error { // want suppressedOnFunction:`queriesParam\(\[1\]\)`
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	notify()
	return tx.Commit()
}

func suppressedOnLine(ctx context.Context, db *sql.DB) error { // want suppressedOnLine:`queriesParam\(\[1\]\)`
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	notify() //bhlint:ignore ERR_CONN_HELD_ACROSS_NETWORK_CALL loopback sidecar, bounded
	return tx.Commit()
}

func unusedIgnore(ctx context.Context, db *sql.DB) error {
	//bhlint:ignore ERR_CONN_HELD_ACROSS_NETWORK_CALL nothing here to suppress // want `this //bhlint:ignore suppresses nothing`
	return nil
}

// ---- batch loops: a counter says whether the transaction is open ----

// A transaction begun when the counter is zero and committed when it
// reaches the batch size (the counter reset) is committed whenever the
// counter is zero again: the call after the loop holds nothing (listmonk's
// importer).
func batchCommittedWhenCounterZero(ctx context.Context, db *sql.DB, items <-chan string) error { // want batchCommittedWhenCounterZero:`queriesParam\(\[1\]\)`
	var (
		tx  *sql.Tx
		err error
		cur int
	)
	for item := range items {
		if cur == 0 {
			tx, err = db.BeginTx(ctx, nil)
			if err != nil {
				continue
			}
		}
		if _, err := tx.ExecContext(ctx, "INSERT INTO t VALUES ($1)", item); err != nil {
			tx.Rollback()
			return err
		}
		cur++
		if cur%100 == 0 {
			if err := tx.Commit(); err != nil {
				return err
			}
			cur = 0
		}
	}
	if cur == 0 {
		return notify()
	}
	return tx.Commit()
}

// The same loop: with the counter above zero the last batch is still open.
func batchTailStillOpen(ctx context.Context, db *sql.DB, items <-chan string) error { // want batchTailStillOpen:`queriesParam\(\[1\]\)`
	var (
		tx  *sql.Tx
		err error
		cur int
	)
	for item := range items {
		if cur == 0 {
			tx, err = db.BeginTx(ctx, nil)
			if err != nil {
				continue
			}
		}
		if _, err := tx.ExecContext(ctx, "INSERT INTO t VALUES ($1)", item); err != nil {
			tx.Rollback()
			return err
		}
		cur++
		if cur%100 == 0 {
			if err := tx.Commit(); err != nil {
				return err
			}
			cur = 0
		}
	}
	if cur > 0 {
		if err := notify(); err != nil { // want `transaction from \(\*sql.DB\).BeginTx is still held during sqlcase.notify`
			return err
		}
		return tx.Commit()
	}
	return nil
}

// Trap: rows closed by a deferred closure (so captured, kept in a heap
// cell) are still released when the loop over Next runs out: a second
// connection taken after it waits for nothing this function holds.
func rowsDrainedClosureClose(ctx context.Context, s *Service) error { // want rowsDrainedClosureClose:`queriesPool\(sqlcase\.Service\.db\)`
	rows, err := s.db.QueryContext(ctx, "SELECT id FROM mailbox")
	if err != nil {
		return err
	}
	defer func() { _ = rows.Close() }()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return err
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	return tx.Commit()
}

// The same deferred closure, but the loop leaves early: the rows stay open.
func rowsBreakClosureClose(ctx context.Context, s *Service) error { // want rowsBreakClosureClose:`queriesPool\(sqlcase\.Service\.db\)`
	rows, err := s.db.QueryContext(ctx, "SELECT id FROM mailbox")
	if err != nil {
		return err
	}
	defer func() { _ = rows.Close() }()
	for rows.Next() {
		break
	}
	tx, err := s.db.BeginTx(ctx, nil) // want `open rows from \(\*sql.DB\).QueryContext is still held during \(\*sql.DB\).BeginTx`
	if err != nil {
		return err
	}
	return tx.Commit()
}
