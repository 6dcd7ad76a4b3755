// Package repos holds transactions while calling through interfaces whose
// implementations (in example.com/gitsvc) wait on a subprocess or the
// network.
package repos

import (
	"context"
	"database/sql"
	"fmt"
	"io"

	"example.com/gitsvc"
)

type Service struct {
	DB      *sql.DB
	Git     gitsvc.Git
	Mirror  gitsvc.Mirror
	Counter gitsvc.Counter
}

// ---- positives ----

func (s *Service) gitBehindInterfaceInsideTx(ctx context.Context, dir string) error { // want gitBehindInterfaceInsideTx:`queriesPool\(repos\.Service\.DB\)`
	tx, err := s.DB.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "UPDATE repos SET pushed = now() WHERE dir = $1", dir); err != nil {
		return err
	}
	if err := s.Git.Push(dir); err != nil { // want `transaction from \(\*sql.DB\).BeginTx is still held during \(gitsvc.Git\).Push \[implemented by \(gitsvc.CLI\).Push\] \(→ \(\*exec.Cmd\).Run\), which waits for a subprocess`
		return err
	}
	return tx.Commit()
}

func (s *Service) mirrorBehindInterfaceInsideTx(ctx context.Context, repo string) error { // want mirrorBehindInterfaceInsideTx:`queriesPool\(repos\.Service\.DB\)`
	tx, err := s.DB.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := s.Mirror.Notify(repo); err != nil { // want `transaction from \(\*sql.DB\).BeginTx is still held during \(gitsvc.Mirror\).Notify \[implemented by \(gitsvc.HTTPMirror\).Notify\] \(→ http.Post\)`
		return err
	}
	return tx.Commit()
}

// ---- traps ----

func (s *Service) gitBehindInterfaceAfterCommit(ctx context.Context, dir string) error { // want gitBehindInterfaceAfterCommit:`queriesPool\(repos\.Service\.DB\)`
	tx, err := s.DB.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "UPDATE repos SET pushed = now() WHERE dir = $1", dir); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	return s.Git.Push(dir)
}

// Every implementation of Counter stays in memory.
func (s *Service) inMemoryInterfaceInsideTx(ctx context.Context, repo string) error { // want inMemoryInterfaceInsideTx:`queriesPool\(repos\.Service\.DB\)`
	tx, err := s.DB.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	s.Counter.Inc(repo)
	return tx.Commit()
}

// io.Writer is the standard library's: its implementations are not searched.
func (s *Service) writerInsideTx(ctx context.Context, w io.Writer, repo string) error { // want writerInsideTx:`queriesPool\(repos\.Service\.DB\)`
	tx, err := s.DB.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	fmt.Fprintln(w, repo)
	_, _ = w.Write([]byte(repo))
	return tx.Commit()
}
