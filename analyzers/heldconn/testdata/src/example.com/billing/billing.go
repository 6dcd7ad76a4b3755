// Package billing begins a transaction through txstore's interfaces and
// calls out while it is open.
package billing

import (
	"context"
	"database/sql"
	"net/http"
	"strings"

	"example.com/txstore"
)

type Service struct {
	Store txstore.Store
	URL   string
}

// ---- positives ----

func (s *Service) chargeInsideInterfaceTx(ctx context.Context, id string) error {
	tx, err := s.Store.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := tx.Exec(ctx, "UPDATE invoices SET state = 'charging' WHERE id = $1", id); err != nil {
		return err
	}
	if _, err := http.Post(s.URL, "text/plain", strings.NewReader(id)); err != nil { // want `transaction from \(txstore.Store\).Begin is still held during http.Post`
		return err
	}
	return tx.Commit()
}

// ---- traps ----

func (s *Service) chargeAfterInterfaceCommit(ctx context.Context, id string) error {
	tx, err := s.Store.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := tx.Exec(ctx, "UPDATE invoices SET state = 'charged' WHERE id = $1", id); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	_, err = http.Post(s.URL, "text/plain", strings.NewReader(id))
	return err
}

// Begin failed: nothing is held on that branch.
func (s *Service) reportFailedBegin(ctx context.Context, id string) error {
	tx, err := s.Store.Begin(ctx)
	if err != nil {
		_, _ = http.Post(s.URL, "text/plain", strings.NewReader(err.Error()))
		return err
	}
	return tx.Commit()
}

// A journal held open across the call holds no connection.
func (s *Service) journalAcrossCall(id string) error {
	j, err := txstore.OpenJournal()
	if err != nil {
		return err
	}
	defer j.Close()
	j.Append(id)
	_, err = http.Post(s.URL, "text/plain", strings.NewReader(id))
	return err
}

// A mailbox whose interface embeds a one-method Closer holds no connection,
// though *sql.Conn, in sight here, is a Closer too.
func (s *Service) mailboxAcrossCall(id string, _ *sql.DB) error {
	box, err := txstore.OpenMailbox(id)
	if err != nil {
		return err
	}
	defer box.Close()
	_, err = http.Post(s.URL, "text/plain", strings.NewReader(box.Address()))
	return err
}
