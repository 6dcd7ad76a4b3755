// Package quota is shaped as one-api's model package: the billing queries
// run through gorm, some with the caller's context and some without.
package quota

import (
	"context"

	"gorm.io/gorm"
)

var DB *gorm.DB

type Token struct{ ID int }

// PostConsume waits on the database with no context: gorm's First is a
// round trip whatever builds the statement.
func PostConsume(id int) error { // want PostConsume:"waitsOnNetwork" PostConsume:"waitsNoContext"
	var t Token
	return DB.Where("id = ?", id).First(&t).Error
}

// PostConsumeCtx runs the same query on the caller's context.
func PostConsumeCtx(ctx context.Context, id int) error { // want PostConsumeCtx:"waitsOnNetwork"
	var t Token
	return DB.WithContext(ctx).Where("id = ?", id).First(&t).Error
}

// Scope only builds a statement: no round trip. It is handed no context
// and attaches none: what it returns is the shared handle.
func Scope(id int) *gorm.DB { return DB.Where("id = ?", id) } // want Scope:"returnsSharedHandle"

// ReturnQuota gives a failed request's quota back in a goroutine of its
// own, with no context on the query: every call leaves one more goroutine
// waiting on the database.
func ReturnQuota(ctx context.Context, id int) { // want ReturnQuota:"startsGoroutine" ReturnQuota:"detachesPerCall" ReturnQuota:"waitsNoContext"
	go func(ctx context.Context) { // want `goroutine per request: this go statement starts a goroutine on every request that reaches it \(through quota.ReturnQuota\), which waits on the network \(quota.PostConsume\)`
		if err := PostConsume(id); err != nil {
			_ = ctx
		}
	}(ctx)
}

// Trap: the caller's context reaches the query.
func ReturnQuotaCtx(ctx context.Context, id int) { // want ReturnQuotaCtx:"startsGoroutine"
	go func() { _ = PostConsumeCtx(ctx, id) }()
}

// CheckQuota is shaped as x/net/proxy's dial: it waits for its goroutine
// unless the caller's context ends first, so the goroutine outlives the
// call only when the caller cancels.
func CheckQuota(ctx context.Context, id int) error { // want CheckQuota:"waitsNoContext"
	done := make(chan error, 1)
	go func() { done <- PostConsume(id) }()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case err := <-done:
		return err
	}
}

// Notify is handed a context and ignores it: its query takes none.
func Notify(ctx context.Context, id int) { // want Notify:"waitsOnNetwork" Notify:"ignoresContext" Notify:"waitsNoContext"
	_ = PostConsume(id)
}

// NotifyCtx gives its query the context.
func NotifyCtx(ctx context.Context, id int) { // want NotifyCtx:"waitsOnNetwork"
	_ = PostConsumeCtx(ctx, id)
}

// Apply is shaped as etcd's runSTM: the goroutine sends its result from a
// deferred function of its own, and Apply waits for it.
func Apply(id int) error { // want Apply:"waitsNoContext"
	out := make(chan error, 1)
	go func() {
		var err error
		defer func() { out <- err }()
		err = PostConsume(id)
	}()
	return <-out
}
