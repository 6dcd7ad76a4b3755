// Package subproc holds a transaction while a subprocess runs.
package subproc

import (
	"context"
	"database/sql"
	"os/exec"

	"gitutil"
)

type Repo struct{ db *sql.DB }

// ---- positives ----

func gitInsideTx(ctx context.Context, r *Repo) error { // want gitInsideTx:"waitsOnSubprocess" gitInsideTx:`queriesPool\(subproc\.Repo\.db\)`
	tx, err := r.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "UPDATE repos SET pushed = now()"); err != nil {
		return err
	}
	if err := exec.CommandContext(ctx, "git", "push").Run(); err != nil { // want `transaction from \(\*sql.DB\).BeginTx is still held during \(\*exec.Cmd\).Run, which waits for a subprocess to finish`
		return err
	}
	return tx.Commit()
}

func gitHelperInsideTx(ctx context.Context, r *Repo) error { // want gitHelperInsideTx:"waitsOnSubprocess" gitHelperInsideTx:`queriesPool\(subproc\.Repo\.db\)`
	tx, err := r.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := gitutil.Commit(ctx, "update"); err != nil { // want `still held during gitutil.Commit \(→ \(\*exec.Cmd\).Run\), which waits for a subprocess to finish`
		return err
	}
	return tx.Commit()
}

func localHelper() ([]byte, error) { // want localHelper:"waitsOnSubprocess\\(\\(\\*exec.Cmd\\).CombinedOutput\\)"
	return exec.Command("convert", "in.png", "out.webp").CombinedOutput()
}

func convertInsideTx(ctx context.Context, r *Repo) error { // want convertInsideTx:"waitsOnSubprocess" convertInsideTx:`queriesPool\(subproc\.Repo\.db\)`
	tx, err := r.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := localHelper(); err != nil { // want `still held during subproc.localHelper \(→ \(\*exec.Cmd\).CombinedOutput\), which waits for a subprocess`
		return err
	}
	return tx.Commit()
}

// ---- traps ----

// Start without Wait does not wait for the process.
func startOnly(ctx context.Context, r *Repo) error { // want startOnly:`queriesPool\(subproc\.Repo\.db\)`
	tx, err := r.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := gitutil.StartFetch(); err != nil {
		return err
	}
	return tx.Commit()
}

// The subprocess after the commit holds nothing.
func gitAfterCommit(ctx context.Context, r *Repo) error { // want gitAfterCommit:"waitsOnSubprocess" gitAfterCommit:`queriesPool\(subproc\.Repo\.db\)`
	tx, err := r.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := tx.Commit(); err != nil {
		return err
	}
	_, err = gitutil.Version()
	return err
}

// A subprocess in a goroutine does not make the holder wait.
func gitInGoroutine(ctx context.Context, r *Repo) error { // want gitInGoroutine:`queriesPool\(subproc\.Repo\.db\)`
	tx, err := r.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	go gitutil.Commit(ctx, "async")
	return tx.Commit()
}
