// Package sqlstore is a storage provider behind the module's interfaces,
// as trillian's storage/mysql is: only main imports it.
package sqlstore

import (
	"context"
	"database/sql"

	"storeiface"
)

type provider struct{ db *sql.DB }

func Open(db *sql.DB) storeiface.Provider { return &provider{db: db} }

func (p *provider) AdminStorage() storeiface.AdminStorage { return &adminStorage{db: p.db} }

type adminStorage struct{ db *sql.DB }

func (s *adminStorage) CheckDatabaseAccessible(ctx context.Context) error { // want CheckDatabaseAccessible:`reachesShared\(database pool adminStorage.db via \(\*sql.DB\).PingContext\)`
	return s.db.PingContext(ctx)
}
