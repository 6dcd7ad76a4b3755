// Package records answers requests through helpers. // want package:`pendingWaits\(2\)`
// Each runs its query on the handle it is handed (after tekton results'
// getRecord(txn, …)): the caller's argument decides whether the query has
// a context.
package records

import (
	"net/http"

	"gorm.io/gorm"
)

type Record struct{ Name string }

type Server struct{ db *gorm.DB }

func New(db *gorm.DB) *Server { return &Server{db: db} }

func getRecord(txn *gorm.DB, name string) (Record, error) { // want getRecord:"waitsNoContext" getRecord:"waitsOnNetwork"
	var r Record
	return r, txn.Where("name = ?", name).First(&r).Error
}

// listRecords hands its own handle on: its caller decides.
func listRecords(txn *gorm.DB, names []string) error { // want listRecords:"waitsNoContext" listRecords:"waitsOnNetwork"
	for _, n := range names {
		if _, err := getRecord(txn, n); err != nil {
			return err
		}
	}
	return nil
}

// Get hands the helper the shared handle: the query has no context.
func (s *Server) Get(w http.ResponseWriter, r *http.Request) { // want Get:"waitsNoContext" Get:"waitsOnNetwork"
	_, _ = getRecord(s.db, r.URL.Query().Get("name")) // want `wait with no deadline: records.getRecord \(\(\*gorm.DB\).First inside it, on the shared handle it is handed\) waits for a pool slot with no context, though Get was handed one \(r\)`
}

// List does the same two calls down.
func (s *Server) List(w http.ResponseWriter, r *http.Request) { // want List:"waitsNoContext" List:"waitsOnNetwork"
	_ = listRecords(s.db, r.URL.Query()["name"]) // want `wait with no deadline: records.listRecords \(\(\*gorm.DB\).First inside it, on the shared handle it is handed\)`
}

// Traps: the handle with the request's context attached, and a transaction
// taken with it.
func (s *Server) GetCtx(w http.ResponseWriter, r *http.Request) { // want GetCtx:"waitsOnNetwork"
	_, _ = getRecord(s.db.WithContext(r.Context()), r.URL.Query().Get("name"))
}

func (s *Server) Delete(w http.ResponseWriter, r *http.Request) { // want Delete:"waitsOnNetwork"
	_ = s.db.WithContext(r.Context()).Transaction(func(tx *gorm.DB) error {
		_, err := getRecord(tx, r.URL.Query().Get("name"))
		return err
	})
}

// Trap: the shared handle, but no request reaches the call (a start-up
// check).
func (s *Server) Warm() { // want Warm:"waitsNoContext" Warm:"waitsOnNetwork"
	_, _ = getRecord(s.db, "warm")
}
