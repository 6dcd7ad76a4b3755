// Package storeprov picks the storage driver (trillian's
// cmd/internal/provider): main sees the driver only through it.
package storeprov

import (
	"database/sql"

	"sqlstore"
	"storeiface"
)

func Open(db *sql.DB) storeiface.Provider { return sqlstore.Open(db) }
