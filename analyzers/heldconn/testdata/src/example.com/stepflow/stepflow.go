// Package stepflow runs a join as a list of steps inside one transaction,
// as LoRaWAN network servers write their flows: the loop calls each step
// of the literal list in turn.
package stepflow

import (
	"context"
	"database/sql"
	"net/http"
)

type Store struct{ DB *sql.DB }

// Transaction begins, runs fn while the transaction is held, and commits.
func (s *Store) Transaction(ctx context.Context, fn func(tx *sql.Tx) error) error { // want Transaction:`queriesPool\(stepflow\.Store\.DB\)` Transaction:"holdsDuringCallback\\(\\[2\\]\\)"
	tx, err := s.DB.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return err
	}
	return tx.Commit()
}

type join struct {
	ctx       context.Context
	tx        *sql.Tx
	client    *http.Client
	joinURL   string
	deviceEUI string
}

func (j *join) lockDevice() error {
	_, err := j.tx.ExecContext(j.ctx, "SELECT 1 FROM device WHERE dev_eui = $1 FOR UPDATE", j.deviceEUI)
	return err
}

// askJoinServer calls the join server over HTTP.
func (j *join) askJoinServer() error {
	resp, err := j.client.Get(j.joinURL)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (j *join) saveSession() error {
	_, err := j.tx.ExecContext(j.ctx, "INSERT INTO device_session(dev_eui) VALUES ($1)", j.deviceEUI)
	return err
}

// Join runs every step with the device row locked: the join server's
// answer is awaited inside the transaction.
func Join(ctx context.Context, s *Store, client *http.Client, eui string) error { // want Join:`queriesPool\(stepflow\.Store\.DB\)`
	j := &join{ctx: ctx, client: client, joinURL: "http://js.example/join", deviceEUI: eui}
	return s.Transaction(ctx, func(tx *sql.Tx) error {
		j.tx = tx
		for _, step := range []func() error{j.lockDevice, j.askJoinServer, j.saveSession} {
			if err := step(); err != nil { // want `the function passed to \(\*stepflow.Store\).Transaction calls \(\*stepflow.join\).askJoinServer \(→ \(\*http.Client\).Get\) while the transaction it runs in is held`
				return err
			}
		}
		return nil
	})
}

// Trap: Rejoin's steps all run on the transaction.
func Rejoin(ctx context.Context, s *Store, eui string) error { // want Rejoin:`queriesPool\(stepflow\.Store\.DB\)`
	j := &join{ctx: ctx, deviceEUI: eui}
	return s.Transaction(ctx, func(tx *sql.Tx) error {
		j.tx = tx
		for _, step := range []func() error{j.lockDevice, j.saveSession} {
			if err := step(); err != nil {
				return err
			}
		}
		return nil
	})
}
