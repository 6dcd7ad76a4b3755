// Package ctxless has waits for a pool slot through methods that take no // want package:"limitsPools"
// context, in functions that were handed one (a repository called from a
// handler, apache/answer's data.DB.Transaction), and look-alikes that
// give the wait the context or were never handed one. NewRepo gives the
// pool its maximum: a wait for a slot needs one.
package ctxless

import (
	"context"
	"database/sql"

	"github.com/gin-gonic/gin"
	"gorm.io/gorm"
	"xorm.io/xorm"
)

type User struct{ ID int }

func NewRepo(db *sql.DB, orm *gorm.DB, engine *xorm.Engine) *Repo { // want NewRepo:`boundsDBParam\(\[0\]\)`
	db.SetMaxOpenConns(20)
	return &Repo{db: db, orm: orm, engine: engine}
}

type Repo struct {
	db     *sql.DB
	orm    *gorm.DB
	engine *xorm.Engine
}

func (r *Repo) Count(ctx context.Context) int { // want Count:"waitsOnNetwork" Count:"ignoresContext"
	var n int
	_ = r.db.QueryRow("SELECT count(*) FROM users").Scan(&n) // want `wait with no deadline: \(\*sql.DB\).QueryRow waits for a pool slot with no context, though Count was handed one \(ctx\): .* call QueryRowContext with it`
	return n
}

// Trap: the same count on the context it was handed.
func (r *Repo) CountCtx(ctx context.Context) int { // want CountCtx:"waitsOnNetwork" CountCtx:"forwardsSlotWait"
	var n int
	_ = r.db.QueryRowContext(ctx, "SELECT count(*) FROM users").Scan(&n)
	return n
}

func (r *Repo) Load(ctx context.Context, id int) User { // want Load:"waitsOnNetwork" Load:"ignoresContext"
	var u User
	r.orm.Where("id = ?", id).First(&u) // want `wait with no deadline: \(\*gorm.DB\).First waits for a pool slot with no context, though Load was handed one \(ctx\): .* attach it to the handle first`
	return u
}

// Trap: the handle carries the context.
func (r *Repo) LoadCtx(ctx context.Context, id int) User { // want LoadCtx:"waitsOnNetwork"
	var u User
	r.orm.WithContext(ctx).Where("id = ?", id).First(&u)
	tx := r.orm.WithContext(ctx)
	tx.Where("id = ?", id).First(&u)
	return u
}

// Trap: a handle the caller passes may carry the caller's context.
func (r *Repo) LoadOn(ctx context.Context, db *gorm.DB, id int) User { // want LoadOn:"waitsOnNetwork"
	var u User
	db.Where("id = ?", id).First(&u)
	return u
}

// After apache/answer's AddUser: the session gets the context inside the
// callback, after Transaction has waited for its connection with none.
func (r *Repo) Add(ctx context.Context, u *User) error { // want Add:"waitsOnNetwork"
	_, err := r.engine.Transaction(func(s *xorm.Session) (any, error) { // want `wait with no deadline: \(\*xorm.Engine\).Transaction waits for a pool slot with no context, though Add was handed one \(ctx\)`
		s = s.Context(ctx)
		return s.Insert(u)
	})
	return err
}

// Trap: the engine's statement runs on the context.
func (r *Repo) AddCtx(ctx context.Context, u *User) error { // want AddCtx:"waitsOnNetwork"
	_, err := r.engine.Context(ctx).Insert(u)
	return err
}

// Trap: a function handed no context has none to give (start-up, a
// migration).
func (r *Repo) Migrate() { // want Migrate:"waitsOnNetwork"
	_, _ = r.db.Exec("CREATE TABLE users (id int)")
}

// A gin handler's context is a context.
func (r *Repo) Touch(c *gin.Context) { // want Touch:"waitsOnNetwork"
	_, _ = r.db.Exec("UPDATE users SET seen = now()") // want `wait with no deadline: \(\*sql.DB\).Exec waits for a pool slot with no context, though Touch was handed one \(c\)`
}
