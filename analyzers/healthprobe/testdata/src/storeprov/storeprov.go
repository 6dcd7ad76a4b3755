// Package storeprov picks the storage driver (trillian's
// cmd/internal/provider): main sees the driver only through it.
package storeprov

import (
	"database/sql"
	"net/http"

	"cloudstore"
	"sqlstore"
	"storeiface"
)

// Open picks the driver; the shortest chain to a pool names the one a
// probe reaches when the choice is made at run time.
func Open(db *sql.DB) storeiface.Provider {
	if db == nil {
		return cloudstore.Open(http.DefaultClient)
	}
	return sqlstore.Open(db)
}
