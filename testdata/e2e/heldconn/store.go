// Package heldconn is an end-to-end case for bhlint: it imports the real
// pgx v5 and database/sql.
package heldconn

import (
	"context"
	"database/sql"
	"net/http"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

type Store struct {
	DB   *sql.DB
	Pool *pgxpool.Pool
	HC   *http.Client
}

func (s *Store) QuoteInsideTx(ctx context.Context, url string) error {
	tx, err := s.DB.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := s.HC.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	return tx.Commit()
}

func (s *Store) CallAfterCommit(ctx context.Context, url string) error {
	tx, err := s.DB.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := tx.Commit(); err != nil {
		return err
	}
	_, err = http.Get(url)
	return err
}

func (s *Store) BeginFuncCallsOut(ctx context.Context, url string) error {
	return pgx.BeginFunc(ctx, s.Pool, func(tx pgx.Tx) error {
		_, err := http.Get(url)
		return err
	})
}

func (s *Store) CollectThenCall(ctx context.Context) error {
	rows, err := s.Pool.Query(ctx, "SELECT url FROM hooks")
	if err != nil {
		return err
	}
	urls, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return err
	}
	for _, u := range urls {
		if _, err := http.Get(u); err != nil {
			return err
		}
	}
	return nil
}

func (s *Store) RowsOpenDuringCall(ctx context.Context) error {
	rows, err := s.Pool.Query(ctx, "SELECT url FROM hooks")
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var u string
		if err := rows.Scan(&u); err != nil {
			return err
		}
		if _, err := http.Get(u); err != nil {
			return err
		}
	}
	return rows.Err()
}
