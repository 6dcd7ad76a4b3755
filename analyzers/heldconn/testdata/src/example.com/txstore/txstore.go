// Package txstore hides its transaction behind two interfaces: Store.Begin
// returns a Tx interface, implemented by a struct wrapping *sql.Tx.
package txstore

import (
	"context"
	"database/sql"
)

type Tx interface {
	Exec(ctx context.Context, query string, args ...any) error
	Commit() error
	Rollback() error
}

type Store interface {
	Begin(ctx context.Context) (Tx, error)
}

type sqlTx struct{ tx *sql.Tx }

func (t *sqlTx) Exec(ctx context.Context, query string, args ...any) error {
	_, err := t.tx.ExecContext(ctx, query, args...)
	return err
}
func (t *sqlTx) Commit() error   { return t.tx.Commit() }   // want Commit:`releasesParam\(\[0\]\)` Commit:`endsHanded\(transaction\)`
func (t *sqlTx) Rollback() error { return t.tx.Rollback() } // want Rollback:`releasesParam\(\[0\]\)` Rollback:`endsHanded\(transaction\)`

type SQLStore struct{ DB *sql.DB }

func (s *SQLStore) Begin(ctx context.Context) (Tx, error) { // want Begin:`queriesPool\(txstore\.SQLStore\.DB\)`
	tx, err := s.DB.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	return &sqlTx{tx}, nil
}

// Journal's only implementation is in memory: its values hold nothing,
// though Journal has a Close.
type Journal interface {
	Append(entry string)
	Close() error
}

type memJournal struct{ entries []string }

func (j *memJournal) Append(entry string) { j.entries = append(j.entries, entry) }
func (j *memJournal) Close() error        { return nil }

func OpenJournal() (Journal, error) { return &memJournal{}, nil }

// Closer has one method, which *sql.Conn and *sql.Rows implement too.
type Closer interface{ Close() error }

// Mailbox embeds it; its only implementation holds a mail server's
// address, no connection: a *sql.Conn is a Closer, not a Mailbox.
type Mailbox interface {
	Closer
	Address() string
}

type smtpBox struct{ addr string }

func (b *smtpBox) Close() error    { return nil }
func (b *smtpBox) Address() string { return b.addr }

func OpenMailbox(addr string) (Mailbox, error) { return &smtpBox{addr}, nil }
