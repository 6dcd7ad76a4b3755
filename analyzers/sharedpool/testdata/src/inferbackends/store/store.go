// Package store chooses a backend for its blobs and rotates a key in the
// background through whichever it chose. Its interface's implementations
// disagree (memstore reaches no pool): the background's call is resolved
// here, where the backends are visible, to the database one.
package store

import (
	"database/sql"
	"time"

	"inferbackends/store/memstore"
	"inferbackends/store/sqlstore"
)

type Blobs interface{ Read(k string) string }

func New(db *sql.DB) Blobs {
	if db == nil {
		return &memstore.Blobs{}
	}
	return &sqlstore.Blobs{DB: db}
}

// Encrypted wraps another backend, as a decorator does.
type Encrypted struct{ inner Blobs }

func NewEncrypted(b Blobs) *Encrypted { return &Encrypted{inner: b} }

func (e *Encrypted) Read(k string) string { return e.inner.Read(k) }

type Rotater struct{ blobs Blobs }

func NewRotater(b Blobs) *Rotater { return &Rotater{blobs: b} }

// Maintain rotates the key every hour for the life of the process.
func (r *Rotater) Maintain() {
	go func() {
		for range time.Tick(time.Hour) {
			r.blobs.Read("key")
		}
	}()
}
