package fanout

import (
	"context"
	"database/sql"

	"gorm.io/gorm"
)

// After goalert's stuck-message check: a batch read with a constant LIMIT
// has at most that many rows, so a goroutine per row is at most LIMIT
// goroutines, whatever the table holds.
type Store struct {
	stuck   *sql.Stmt
	pending *sql.Stmt
	db      *sql.DB
}

func prepare(db *sql.DB) *Store { // want prepare:"waitsOnNetwork" prepare:"waitsNoContext"
	stuck, _ := db.Prepare(`
		with sel as (
			select id from outgoing_messages
			where last_status = 'queued_remotely'
			order by last_status_at
			limit 10
			for update
		)
		update outgoing_messages msg set last_status_at = now()
		from sel where msg.id = sel.id
		returning msg.id`)
	pending, _ := db.Prepare(`select id from outgoing_messages where sent_at is null`)
	return &Store{stuck: stuck, pending: pending, db: db}
}

func (s *Store) checkStuck(ctx context.Context, tx *sql.Tx) error { // want checkStuck:"waitsOnNetwork" checkStuck:"ignoresContext"
	rows, err := tx.Stmt(s.stuck).QueryContext(ctx)
	if err != nil {
		return err
	}
	defer rows.Close()
	var toCheck []Order
	for rows.Next() {
		var o Order
		if err := rows.Scan(&o.ID); err != nil {
			return err
		}
		toCheck = append(toCheck, o)
	}
	done := make(chan error, len(toCheck))
	for _, o := range toCheck {
		go func() { done <- notify(ctx, o) }()
	}
	for range toCheck {
		<-done
	}
	return nil
}

func (s *Store) retryBatch(ctx context.Context) error { // want retryBatch:"waitsOnNetwork" retryBatch:"forwardsSlotWait"
	rows, err := s.db.QueryContext(ctx, "SELECT id FROM orders WHERE state = 'failed' ORDER BY id LIMIT 50")
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var o Order
		_ = rows.Scan(&o.ID)
		go notify(ctx, o)
	}
	return nil
}

// Look-alikes that are not capped: a statement with no LIMIT, and a LIMIT
// the caller chooses (a placeholder), prepared or written at the call.
func (s *Store) sendPending(ctx context.Context) error { // want sendPending:"waitsOnNetwork"
	rows, err := s.pending.QueryContext(ctx)
	if err != nil {
		return err
	}
	defer rows.Close()
	var batch []Order
	for rows.Next() {
		var o Order
		_ = rows.Scan(&o.ID)
		batch = append(batch, o)
	}
	for _, o := range batch {
		go notify(ctx, o) // want `goroutine per item: this go statement starts one goroutine for every element of batch`
	}
	return nil
}

func (s *Store) retryPage(ctx context.Context, n int) error { // want retryPage:"waitsOnNetwork" retryPage:"forwardsSlotWait"
	rows, err := s.db.QueryContext(ctx, "SELECT id FROM orders WHERE state = 'failed' LIMIT $1", n)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var o Order
		_ = rows.Scan(&o.ID)
		go notify(ctx, o) // want `goroutine per item: .* every row of rows`
	}
	return nil
}

// A slice that a limited batch fills and then something else appends to
// is not capped by the LIMIT.
func (s *Store) retryBatchAndMore(ctx context.Context, more []Order) error { // want retryBatchAndMore:"waitsOnNetwork" retryBatchAndMore:"forwardsSlotWait"
	rows, err := s.db.QueryContext(ctx, "SELECT id FROM orders LIMIT 10")
	if err != nil {
		return err
	}
	defer rows.Close()
	var all []Order
	for rows.Next() {
		var o Order
		_ = rows.Scan(&o.ID)
		all = append(all, o)
	}
	all = append(all, more...)
	for _, o := range all {
		go notify(ctx, o) // want `goroutine per item: this go statement starts one goroutine for every element of all`
	}
	return nil
}

// An ORM's builder: Limit(20) with a constant caps the batch Find fills;
// the same Find without it does not.
func retryORM(ctx context.Context, db *gorm.DB) { // want retryORM:"waitsOnNetwork"
	var failed []Order
	db.WithContext(ctx).Where("state = ?", "failed").Limit(20).Find(&failed)
	for _, o := range failed {
		go notify(ctx, o)
	}
	var all []Order
	db.WithContext(ctx).Where("state = ?", "failed").Find(&all)
	for _, o := range all {
		go notify(ctx, o) // want `goroutine per item: this go statement starts one goroutine for every element of all`
	}
}

// WithTx binds the store's statements to a transaction: each field is also
// made from itself, which keeps what it holds (a walk that followed it went
// round until the stack overflowed). checkStuck's fan-out stays bounded.
func (s *Store) WithTx(tx *sql.Tx) *Store { // want WithTx:"waitsOnNetwork"
	return &Store{stuck: tx.Stmt(s.stuck), pending: tx.Stmt(s.pending), db: s.db}
}
