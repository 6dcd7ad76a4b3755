// Package store holds the one store of the program behind an interface;
// the SQL store fills it, and the package sees it: a call through the
// interface waits where the SQL store does.
package store

import (
	"context"

	"reqwaits/store/sqlstore"
)

// Store embeds the SQL store's Uptimer: its method is sqlstore's object,
// and carries sqlstore's fact, not this package's.
type Store interface {
	sqlstore.Uptimer
	Count(ctx context.Context) int
	OnPrune(ctx context.Context)
	Prune()
}

var current Store

func Initialize(dsn string) { current = sqlstore.New(dsn) }

func Get() Store { return current }
