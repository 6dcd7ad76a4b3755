// Package ormpool opens pools through ORMs and sqlx: each wraps a *sql.DB // want package:"limitsPools"
// whose pool has no maximum until SetMaxOpenConns is called on the wrapper
// or on the *sql.DB inside it.
package ormpool

import (
	"net/http"

	jgorm "github.com/jinzhu/gorm"
	"github.com/jmoiron/sqlx"
	"gorm.io/gorm"
	"xorm.io/xorm"
)

type Config struct{ MaxOpen int }

type Store struct {
	db     *gorm.DB
	engine *xorm.Engine
	x      *sqlx.DB
	legacy *jgorm.DB
}

var shared *gorm.DB

type dialect struct{}

func (dialect) Name() string { return "postgres" }

// gorm.Open stored in a package variable with no maximum anywhere.
func gormStoredUnbounded() {
	db, err := gorm.Open(dialect{}) // want `ERR_UNBOUNDED_QUEUE_DETECTED: pool without a maximum: the pool of \*gorm.DB from gorm.Open is stored in shared without SetMaxOpenConns`
	if err != nil {
		return
	}
	shared = db
}

// xorm's engine given SetMaxOpenConns(0): no maximum.
func (s *Store) xormZeroed() error {
	engine, err := xorm.NewEngine("mysql", "dsn") // want `pool without a maximum: the pool of \*xorm.Engine from xorm.NewEngine is given SetMaxOpenConns\(0\), which means no maximum`
	if err != nil {
		return err
	}
	engine.SetMaxOpenConns(0)
	s.engine = engine
	return nil
}

// A helper that returns the ORM's pool unbounded: its callers check.
func openGorm() (*gorm.DB, error) { // want openGorm:"opensUnboundedDB\\(0, gorm.Open\\)"
	return gorm.Open(dialect{})
}

func (s *Store) gormFromHelper() {
	db, _ := openGorm() // want `the pool of \*gorm.DB that ormpool.openGorm returns is stored in s.db without SetMaxOpenConns`
	s.db = db
}

// Trap: the maximum set on the *sql.DB inside, as gorm v2 hands it out.
func (s *Store) gormBoundedThroughInnerDB(cfg Config) error {
	db, err := gorm.Open(dialect{})
	if err != nil {
		return err
	}
	sqlDB, err := db.DB()
	if err != nil {
		return err
	}
	sqlDB.SetMaxOpenConns(cfg.MaxOpen)
	s.db = db
	return nil
}

// Trap: the maximum set by a helper the ORM handle is passed to, through
// the *sql.DB inside it, after the helper may have swapped the handle for
// a debug session on the same pool.
var primary *gorm.DB

func initPrimary(cfg Config, debug bool) {
	var err error
	primary, err = openGorm()
	if err != nil {
		return
	}
	setConns(primary, cfg, debug)
}

func setConns(db *gorm.DB, cfg Config, debug bool) { // want setConns:"boundsDBParam\\(\\[0\\]\\)"
	if debug {
		db = db.Debug()
	}
	sqlDB, err := db.DB()
	if err != nil {
		return
	}
	sqlDB.SetMaxOpenConns(cfg.MaxOpen)
}

// A helper that sets only the idle connections bounds nothing.
var replica *gorm.DB

func initReplica() {
	var err error
	replica, err = openGorm() // want `the pool of \*gorm.DB that ormpool.openGorm returns is stored in replica without SetMaxOpenConns`
	if err != nil {
		return
	}
	setIdle(replica)
}

func setIdle(db *gorm.DB) {
	sqlDB, _ := db.DB()
	sqlDB.SetMaxIdleConns(10)
}

// Trap: gorm v1's db.DB() bounded inline, as a single-connection store does.
func (s *Store) gormV1BoundedInline() error {
	db, err := jgorm.Open("sqlite3", "file.db")
	if err != nil {
		return err
	}
	db.DB().SetMaxOpenConns(1)
	s.legacy = db
	return nil
}

// Trap: xorm's engine bounded by its own SetMaxOpenConns.
func (s *Store) xormBoundedByEngine(cfg Config) error {
	engine, err := xorm.NewEngine("mysql", "dsn")
	if err != nil {
		return err
	}
	engine.SetMaxOpenConns(cfg.MaxOpen)
	s.engine = engine
	return nil
}

// Trap: sqlx's DB embeds the *sql.DB: its SetMaxOpenConns bounds it.
func (s *Store) sqlxBoundedEmbedded() error {
	db, err := sqlx.Connect("postgres", "dsn")
	if err != nil {
		return err
	}
	db.SetMaxOpenConns(20)
	s.x = db
	return nil
}

// The same with no maximum.
func (s *Store) sqlxUnbounded() error {
	db, err := sqlx.Open("postgres", "dsn") // want `pool without a maximum: the pool of \*sqlx.DB from sqlx.Open is stored in s.x without SetMaxOpenConns`
	if err != nil {
		return err
	}
	s.x = db
	return nil
}

func serve() { _ = http.ListenAndServe(":8080", nil) } // want serve:"servesConns"
