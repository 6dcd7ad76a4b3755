// Package ormstore has transaction helpers over ORM sessions, for callers in
// another package (facts).
package ormstore

import "xorm.io/xorm"

type Database struct{ engine *xorm.Engine }

// DoTransaction begins on a session, runs fn, commits: a holder.
func (db *Database) DoTransaction(fn func(sess *xorm.Session) error) (err error) { // want DoTransaction:"holdsDuringCallback\\(\\[1\\]\\)" DoTransaction:`queriesPool\(ormstore\.Database\.engine\)`
	sess := db.engine.NewSession()
	defer sess.Close()
	if err = sess.Begin(); err != nil {
		return err
	}
	if err = fn(sess); err != nil {
		_ = sess.Rollback()
		return err
	}
	return sess.Commit()
}

// DoWithSession runs fn on a session that never begins a transaction: each
// statement takes and returns its connection, nothing is held across fn.
func (db *Database) DoWithSession(fn func(sess *xorm.Session) error) error {
	sess := db.engine.NewSession()
	defer sess.Close()
	return fn(sess)
}
