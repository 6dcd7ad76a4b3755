// Package ctxless has waits for a pool slot through methods that take no // want package:"limitsPools" package:"noContextWaitsReported\\(8\\)"
// context, in functions that were handed one (a repository called from a
// handler, apache/answer's data.DB.Transaction), and look-alikes that
// give the wait the context or were never handed one, or that no request
// reaches (a worker's loop hands its own context down too). NewRepo gives
// the pool its maximum: a wait for a slot needs one.
package ctxless

import (
	"context"
	"database/sql"
	"net/http"
	"sync"
	"time"

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

func (r *Repo) Count(ctx context.Context) int { // want Count:"waitsOnNetwork" Count:"ignoresContext" Count:`waitsNoContext\(\(\*sql.DB\).QueryRow in \(Repo\).Count\)`
	var n int
	_ = r.db.QueryRow("SELECT count(*) FROM users").Scan(&n) // want `wait with no deadline: \(\*sql.DB\).QueryRow waits for a pool slot with no context, though \(Repo\).Count was handed one \(ctx\), and a request reaches it .* call QueryRowContext with it`
	return n
}

// Trap: the same count on the context it was handed.
func (r *Repo) CountCtx(ctx context.Context) int { // want CountCtx:"waitsOnNetwork" CountCtx:"forwardsSlotWait"
	var n int
	_ = r.db.QueryRowContext(ctx, "SELECT count(*) FROM users").Scan(&n)
	return n
}

func (r *Repo) Load(ctx context.Context, id int) User { // want Load:"waitsOnNetwork" Load:"ignoresContext" Load:`waitsNoContext\(\(\*gorm.DB\).First in \(Repo\).Load\)`
	var u User
	r.orm.Where("id = ?", id).First(&u) // want `wait with no deadline: \(\*gorm.DB\).First waits for a pool slot with no context, though \(Repo\).Load was handed one \(ctx\), and a request reaches it .* attach it to the handle first`
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
func (r *Repo) Add(ctx context.Context, u *User) error { // want Add:"waitsOnNetwork" Add:`waitsNoContext\(\(\*xorm.Engine\).Transaction in \(Repo\).Add\)`
	_, err := r.engine.Transaction(func(s *xorm.Session) (any, error) { // want `wait with no deadline: \(\*xorm.Engine\).Transaction waits for a pool slot with no context, though \(Repo\).Add was handed one \(ctx\), and a request reaches it`
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

// The routes: a request reaches Count, Load and Add.
func (r *Repo) Routes(mux *http.ServeMux) { // want Routes:"waitsOnNetwork"
	mux.HandleFunc("/count", func(w http.ResponseWriter, req *http.Request) { r.Count(req.Context()) })
	mux.HandleFunc("/user", func(w http.ResponseWriter, req *http.Request) { r.Load(req.Context(), 1) })
	mux.HandleFunc("/add", func(w http.ResponseWriter, req *http.Request) { r.Add(req.Context(), &User{}) })
	mux.HandleFunc("/refresh", func(w http.ResponseWriter, req *http.Request) { r.Refresh(req.Context()) })
	app := &AppCtx{DB: r.orm}
	mux.HandleFunc("/find", func(w http.ResponseWriter, req *http.Request) {
		r.Find(app, 1)
		r.FindScoped(req.Context(), app, 1)
		r.Unbind(app, []int{1})
	})
	mux.HandleFunc("/save", func(w http.ResponseWriter, req *http.Request) {
		SaveTrans(req.Context(), "dsn")
		SaveTransScoped(req.Context(), "dsn")
		SaveChain()
	})
}

// ---- handles cached by a getter that is handed no context ----

// Wrapped wraps the ORM's handle, as dtm's dtmutil.DB does: its round trips
// are the embedded handle's.
type Wrapped struct{ *gorm.DB }

var pools sync.Map

// CachedDB opens one pool per DSN and keeps it: what it returns is the
// shared pool, and it is handed no context to attach.
func CachedDB(dsn string) *Wrapped { // want CachedDB:"returnsSharedHandle"
	db, ok := pools.Load(dsn)
	if !ok {
		orm, _ := gorm.Open(nil)
		sqlDB, _ := orm.DB()
		sqlDB.SetMaxOpenConns(10)
		db = &Wrapped{DB: orm}
		pools.Store(dsn, db)
	}
	return db.(*Wrapped)
}

func SaveTrans(ctx context.Context, dsn string) error { // want SaveTrans:"waitsOnNetwork" SaveTrans:"ignoresContext" SaveTrans:`waitsNoContext\(\(\*gorm.DB\).Transaction in SaveTrans\)`
	return CachedDB(dsn).Transaction(func(tx *gorm.DB) error { // want `wait with no deadline: \(\*gorm.DB\).Transaction waits for a pool slot with no context`
		return tx.Where("id = ?", 1).Delete(&User{}).Error
	})
}

// ScopedDB is handed the caller's context and attaches it.
func ScopedDB(ctx context.Context, dsn string) *Wrapped {
	return &Wrapped{CachedDB(dsn).WithContext(ctx)}
}

// Trap: the handle carries the request's context.
func SaveTransScoped(ctx context.Context, dsn string) error { // want SaveTransScoped:"waitsOnNetwork"
	return ScopedDB(ctx, dsn).Transaction(func(tx *gorm.DB) error {
		return tx.Where("id = ?", 1).Delete(&User{}).Error
	})
}

// Node embeds a pointer to itself: no handle, however deep one looks.
type Node struct {
	*Node
	Name string
}

func (n *Node) Next() *Node { return n.Node }

// Trap: a chain of nodes is not a handle; Next's receiver is not one.
func SaveChain() string { return (&Node{}).Next().Name }

// ---- handles through getters ----

// AppCtx is what every part of the process is handed, as nightingale's
// ctx.Context: the pool, among other things.
type AppCtx struct{ DB *gorm.DB }

// DB returns the stored handle: the shared one, which carries no context.
func DB(c *AppCtx) *gorm.DB { return c.DB } // want DB:"returnsSharedHandle"

// Scoped hands back the handle with the caller's context attached.
func Scoped(ctx context.Context, c *AppCtx) *gorm.DB { return c.DB.WithContext(ctx) }

func (r *Repo) Find(c *AppCtx, id int) User { // want Find:"waitsOnNetwork" Find:`waitsNoContext\(\(\*gorm.DB\).First in \(Repo\).Find\)`
	var u User
	DB(c).Where("id = ?", id).First(&u) // want `wait with no deadline: \(\*gorm.DB\).First waits for a pool slot with no context`
	return u
}

// Trap: the getter attaches the caller's context.
func (r *Repo) FindScoped(ctx context.Context, c *AppCtx, id int) User { // want FindScoped:"waitsOnNetwork"
	var u User
	Scoped(ctx, c).Where("id = ?", id).First(&u)
	return u
}

// Refresh tallies in a goroutine it starts on every call: a request that
// reaches it starts one more goroutine that waits with no deadline (the go
// statement is a goroutine per request too, shape 7).
func (r *Repo) Refresh(ctx context.Context) { // want Refresh:`waitsNoContext\(\(\*sql.DB\).Exec in \(Repo\).Tally\)` Refresh:`detachesPerCall\(ctxless.go:195\)` Refresh:"startsGoroutine"
	go func() { // want `goroutine per request: this go statement starts a goroutine on every request that reaches it`
		r.Tally(ctx)
	}()
}

func (r *Repo) Tally(ctx context.Context) { // want Tally:"waitsOnNetwork" Tally:"ignoresContext" Tally:`waitsNoContext\(\(\*sql.DB\).Exec in \(Repo\).Tally\)`
	_, _ = r.db.Exec("UPDATE totals SET n = (SELECT count(*) FROM users)") // want `wait with no deadline: \(\*sql.DB\).Exec waits for a pool slot with no context, though \(Repo\).Tally was handed one \(ctx\), and a request reaches it`
}

// Trap: a worker's loop hands its own context down. No request reaches
// Sweep: its wait queues behind no request, however long the pool stays
// full.
func (r *Repo) Sweep(ctx context.Context) { // want Sweep:"waitsOnNetwork" Sweep:"ignoresContext" Sweep:`waitsNoContext\(\(\*sql.DB\).Exec in \(Repo\).Sweep\)`
	_, _ = r.db.Exec("DELETE FROM sessions WHERE expired")
}

func (r *Repo) RunSweeper(ctx context.Context) { // want RunSweeper:"waitsOnNetwork" RunSweeper:"ignoresContext" RunSweeper:`waitsNoContext\(\(\*sql.DB\).Exec in \(Repo\).Sweep\)`
	for {
		r.Sweep(ctx)
		time.Sleep(time.Minute)
	}
}

// The transaction's Begin waits for a connection with no context; the
// queries on the transaction run on the connection it holds.
func (r *Repo) Unbind(c *AppCtx, ids []int) error { // want Unbind:"waitsOnNetwork" Unbind:`waitsNoContext\(\(\*gorm.DB\).Begin in \(Repo\).Unbind\)`
	tx := DB(c).Begin() // want `wait with no deadline: \(\*gorm.DB\).Begin waits for a pool slot with no context`
	if err := tx.Where("id IN ?", ids).Delete(&User{}).Error; err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit().Error
}
