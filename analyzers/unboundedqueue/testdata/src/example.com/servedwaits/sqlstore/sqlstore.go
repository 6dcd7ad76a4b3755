// Package sqlstore implements storage.Storage over a pool with a maximum; // want package:"limitsPools"
// its methods take no context.
package sqlstore

import (
	"database/sql"

	"example.com/servedwaits/storage"
)

type conn struct{ db *sql.DB }

func Open(dsn string) (storage.Storage, error) {
	db, err := sql.Open("postgres", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(5)
	return &conn{db: db}, nil
}

func (c *conn) GetClient(id string) (storage.Client, error) { // want GetClient:`waitsNoContext\(\(\*sql.DB\).QueryRow in \(conn\).GetClient\)` GetClient:"waitsOnNetwork"
	var cl storage.Client
	err := c.db.QueryRow("SELECT id, secret FROM client WHERE id = $1", id).Scan(&cl.ID, &cl.Secret) // want `wait with no deadline: \(\*sql.DB\).QueryRow waits for a pool slot with no context in \(conn\).GetClient, which is handed none, and a request reaches it \(\(\*server.Server\).handleToken\)`
	return cl, err
}

func (c *conn) UpdateClient(id string, update func(storage.Client) (storage.Client, error)) error { // want UpdateClient:`waitsNoContext\(\(\*sql.DB\).Begin in \(conn\).UpdateClient\)` UpdateClient:"waitsOnNetwork"
	tx, err := c.db.Begin() // want `wait with no deadline: \(\*sql.DB\).Begin waits for a pool slot with no context in \(conn\).UpdateClient`
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var cl storage.Client
	if err := tx.QueryRow("SELECT id, secret FROM client WHERE id = $1 FOR UPDATE", id).Scan(&cl.ID, &cl.Secret); err != nil {
		return err
	}
	if cl, err = update(cl); err != nil {
		return err
	}
	if _, err := tx.Exec("UPDATE client SET secret = $1 WHERE id = $2", cl.Secret, id); err != nil {
		return err
	}
	return tx.Commit()
}

// GarbageCollect waits with no context too; only the background loop
// calls it. Trap.
func (c *conn) GarbageCollect() (int64, error) { // want GarbageCollect:`waitsNoContext` GarbageCollect:"waitsOnNetwork"
	res, err := c.db.Exec("DELETE FROM auth_request WHERE expiry < now()")
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

func (c *conn) Close() error { return c.db.Close() }
