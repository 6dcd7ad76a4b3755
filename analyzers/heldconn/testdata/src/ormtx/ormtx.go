// Package ormtx holds ORM transactions (gorm, xorm, pop) whose handles are
// not held types by themselves: gorm's Begin returns a *gorm.DB, xorm's
// Session.Begin returns only an error and holds the session.
package ormtx

import (
	"net/http"
	"os/exec"
	"strings"

	"github.com/gobuffalo/pop/v6"
	"gorm.io/gorm"
	"ormstore"
	"xorm.io/xorm"
)

// ---- positives ----

func gormBeginHeldAcrossWebhook(db *gorm.DB, url string) error { // want gormBeginHeldAcrossWebhook:`queriesParam\(\[0\]\)`
	tx := db.Begin()
	tx.Create(url)
	if _, err := http.Post(url, "text/plain", strings.NewReader("created")); err != nil { // want `transaction from \(\*gorm.DB\).Begin is still held during http.Post`
		tx.Rollback()
		return err
	}
	return tx.Commit().Error
}

func gormTransactionCallbackCallsUpstream(db *gorm.DB, url string) error { // want gormTransactionCallbackCallsUpstream:`queriesParam\(\[0\]\)`
	return db.Transaction(func(tx *gorm.DB) error {
		tx.Create(url)
		_, err := http.Get(url) // want `the function passed to \(\*gorm.DB\).Transaction calls http.Get while the transaction it runs in is held`
		return err
	})
}

func xormSessionBeginHeldAcrossGit(engine *xorm.Engine) error { // want xormSessionBeginHeldAcrossGit:`waitsOnSubprocess` xormSessionBeginHeldAcrossGit:`queriesParam\(\[0\]\)`
	sess := engine.NewSession()
	defer sess.Close()
	if err := sess.Begin(); err != nil {
		return err
	}
	if _, err := sess.Insert("repo"); err != nil {
		return err
	}
	if err := exec.Command("git", "push").Run(); err != nil { // want `transaction from \(\*xorm.Session\).Begin is still held during \(\*exec.Cmd\).Run`
		return err
	}
	return sess.Commit()
}

func xormEngineTransactionCallsUpstream(engine *xorm.Engine, url string) error { // want xormEngineTransactionCallsUpstream:`queriesParam\(\[0\]\)`
	_, err := engine.Transaction(func(sess *xorm.Session) (any, error) {
		return http.Get(url) // want `the function passed to \(\*xorm.Engine\).Transaction calls http.Get while the transaction it runs in is held`
	})
	return err
}

func popTransactionCallsUpstream(c *pop.Connection, url string) error { // want popTransactionCallsUpstream:`queriesParam\(\[0\]\)`
	return c.Transaction(func(tx *pop.Connection) error {
		if err := tx.Create(url); err != nil {
			return err
		}
		_, err := http.Get(url) // want `the function passed to \(\*pop.Connection\).Transaction calls http.Get while the transaction it runs in is held`
		return err
	})
}

func sessionHelperInOtherPackage(db *ormstore.Database, url string) error { // want sessionHelperInOtherPackage:`queriesPool\(ormstore\.Database\.engine\)`
	return db.DoTransaction(func(sess *xorm.Session) error {
		_, err := http.Get(url) // want `the function passed to \(\*ormstore.Database\).DoTransaction calls http.Get while the transaction it runs in is held`
		return err
	})
}

// An association made from the pool, not the transaction: its statements
// take a connection of their own.
func gormAssociationOnPool(db *gorm.DB, tags []string) error {
	return db.Transaction(func(tx *gorm.DB) error {
		tx.Create(tags)
		return db.Model(tags).Association("Tags").Replace(tags) // want `the function passed to \(\*gorm.DB\).Transaction calls \(\*gorm.Association\).Replace`
	})
}

// ---- traps ----

func gormCommitBeforeWebhook(db *gorm.DB, url string) error { // want gormCommitBeforeWebhook:`queriesParam\(\[0\]\)`
	tx := db.Begin()
	tx.Create(url)
	if err := tx.Commit().Error; err != nil {
		return err
	}
	_, err := http.Post(url, "text/plain", strings.NewReader("created"))
	return err
}

func gormCallAfterTransactionCallback(db *gorm.DB, url string) error { // want gormCallAfterTransactionCallback:`queriesParam\(\[0\]\)`
	if err := db.Transaction(func(tx *gorm.DB) error { return tx.Create(url).Error }); err != nil {
		return err
	}
	_, err := http.Get(url)
	return err
}

// An association made from the transaction runs on it: its handle field is
// the transaction the callback was handed.
func gormAssociationOnTransaction(db *gorm.DB, tags []string) error { // want gormAssociationOnTransaction:`queriesParam\(\[0\]\)`
	return db.Transaction(func(tx *gorm.DB) error {
		return tx.Model(tags).Association("Tags").Replace(tags)
	})
}

// replaceTags is a helper handed the transaction, whose association is made
// from it.
func replaceTags(tx *gorm.DB, tags []string) error { // want replaceTags:`queriesParam\(\[0\]\)`
	return tx.Model(tags).Association("Tags").Replace(tags)
}

// The callback hands the helper its transaction: nothing else is queried.
func gormHelperAssociationOnTransaction(db *gorm.DB, tags []string) error { // want gormHelperAssociationOnTransaction:`queriesParam\(\[0\]\)`
	return db.Transaction(func(tx *gorm.DB) error {
		return replaceTags(tx, tags)
	})
}

// A session that never begins holds no transaction between its statements.
func xormSessionWithoutBegin(engine *xorm.Engine, url string) error { // want xormSessionWithoutBegin:`queriesParam\(\[0\]\)`
	sess := engine.NewSession()
	defer sess.Close()
	if _, err := sess.Insert(url); err != nil {
		return err
	}
	_, err := http.Get(url)
	return err
}

// On the branch where Begin failed nothing is held.
func xormBeginFailedBranchReports(engine *xorm.Engine, url string) error { // want xormBeginFailedBranchReports:`queriesParam\(\[0\]\)`
	sess := engine.NewSession()
	defer sess.Close()
	if err := sess.Begin(); err != nil {
		_, _ = http.Post(url, "text/plain", strings.NewReader(err.Error()))
		return err
	}
	if _, err := sess.Insert(url); err != nil {
		_ = sess.Rollback()
		_, _ = http.Post(url, "text/plain", strings.NewReader(err.Error()))
		return err
	}
	return sess.Commit()
}

func xormCommitBeforeGit(engine *xorm.Engine) error { // want xormCommitBeforeGit:`waitsOnSubprocess` xormCommitBeforeGit:`queriesParam\(\[0\]\)`
	sess := engine.NewSession()
	defer sess.Close()
	if err := sess.Begin(); err != nil {
		return err
	}
	if _, err := sess.Insert("repo"); err != nil {
		return err
	}
	if err := sess.Commit(); err != nil {
		return err
	}
	return exec.Command("git", "push").Run()
}

func sessionHelperWithoutTransaction(db *ormstore.Database, url string) error {
	return db.DoWithSession(func(sess *xorm.Session) error {
		_, err := http.Get(url)
		return err
	})
}

func networkBeforeSessionHelper(db *ormstore.Database, url string) error { // want networkBeforeSessionHelper:`queriesPool\(ormstore\.Database\.engine\)`
	if _, err := http.Get(url); err != nil {
		return err
	}
	return db.DoTransaction(func(sess *xorm.Session) error {
		_, err := sess.Insert(url)
		return err
	})
}
