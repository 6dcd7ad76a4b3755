// Package sqlstore implements storage.Storage over database/sql: it runs // want package:`implements\(holds \(example.com/pendingcb/storage.Storage\).UpdateRefreshToken by \(\*sqlstore.conn\).UpdateRefreshToken\)`
// the updater inside a transaction.
package sqlstore

import (
	"database/sql"

	"example.com/pendingcb/storage"
)

// flavor is what differs between the databases; PostgreSQL runs each
// transaction at the serializable level (dex's flavorPostgres).
type flavor struct {
	executeTx func(db *sql.DB, fn func(*sql.Tx) error) error
}

var flavorPostgres = flavor{
	executeTx: func(db *sql.DB, fn func(*sql.Tx) error) error {
		tx, err := db.Begin()
		if err != nil {
			return err
		}
		defer tx.Rollback()
		if _, err := tx.Exec("SET TRANSACTION ISOLATION LEVEL SERIALIZABLE"); err != nil {
			return err
		}
		if err := fn(tx); err != nil {
			return err
		}
		return tx.Commit()
	},
}

type conn struct {
	db     *sql.DB
	flavor *flavor
	cached []storage.Token
}

type trans struct {
	tx *sql.Tx
	c  *conn
}

func Open(dsn string) (storage.Storage, error) {
	db, err := sql.Open("postgres", dsn)
	if err != nil {
		return nil, err
	}
	return &conn{db: db, flavor: &flavorPostgres}, nil
}

// ExecTx runs fn in a transaction: the flavor's, or a plain one. Either
// way fn runs while the transaction is held.
func (c *conn) ExecTx(fn func(tx *trans) error) error { // want ExecTx:`holdsDuringCallback\(\[1\]\)` ExecTx:`queriesPool\(sqlstore.conn.db\)`
	if c.flavor.executeTx != nil {
		return c.flavor.executeTx(c.db, func(sqlTx *sql.Tx) error {
			return fn(&trans{sqlTx, c})
		})
	}
	sqlTx, err := c.db.Begin()
	if err != nil {
		return err
	}
	if err := fn(&trans{sqlTx, c}); err != nil {
		sqlTx.Rollback()
		return err
	}
	return sqlTx.Commit()
}

func (c *conn) UpdateRefreshToken(id string, updater func(storage.Token) (storage.Token, error)) error { // want UpdateRefreshToken:`holdsDuringCallback\(\[2\]\)` UpdateRefreshToken:`queriesPool\(sqlstore.conn.db\)`
	return c.ExecTx(func(tx *trans) error {
		var old storage.Token
		if err := tx.tx.QueryRow("SELECT id, upstream FROM refresh_token WHERE id = $1", id).Scan(&old.ID, &old.Upstream); err != nil {
			return err
		}
		updated, err := updater(old)
		if err != nil {
			return err
		}
		_, err = tx.tx.Exec("UPDATE refresh_token SET upstream = $1 WHERE id = $2", updated.Upstream, id)
		return err
	})
}

func (c *conn) EachToken(fn func(storage.Token) error) error {
	for _, t := range c.cached {
		if err := fn(t); err != nil {
			return err
		}
	}
	return nil
}
