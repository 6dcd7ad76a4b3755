// Package sql is a stub of entgo.io/ent/dialect/sql.
package sql

type Selector struct{}

type LockAction string

const (
	NoWait     LockAction = "NOWAIT"
	SkipLocked LockAction = "SKIP LOCKED"
)

type LockOptions struct{ Action LockAction }

type LockOption func(*LockOptions)

func WithLockAction(action LockAction) LockOption { return func(o *LockOptions) { o.Action = action } }

type OrderTermOption func()
