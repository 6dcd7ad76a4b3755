// Package store holds the one store of the program behind an interface;
// the SQL store fills it, and the package sees it: a call through the
// interface waits where the SQL store does.
package store

import (
	"context"

	"reqwaits/store/sqlstore"
)

type Store interface {
	Uptime(key string) int
	Count(ctx context.Context) int
	Prune()
}

var current Store

func Initialize(dsn string) { current = sqlstore.New(dsn) }

func Get() Store { return current }
