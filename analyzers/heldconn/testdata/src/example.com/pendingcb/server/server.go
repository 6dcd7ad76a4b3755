// Package server refreshes tokens through storage.Storage: its updater asks // want package:`pendingCallbacks\(2\)`
// the upstream provider. It imports no implementation of the storage.
package server

import (
	"net/http"

	"example.com/pendingcb/storage"
)

type Server struct {
	storage  storage.Storage
	upstream *http.Client
}

func New(s storage.Storage) *Server { return &Server{storage: s, upstream: &http.Client{}} }

func (s *Server) HandleRefresh(w http.ResponseWriter, r *http.Request) {
	_ = s.storage.UpdateRefreshToken(r.FormValue("id"), func(old storage.Token) (storage.Token, error) {
		resp, err := s.upstream.Get(old.Upstream) // want `the function passed to \(storage.Storage\).UpdateRefreshToken calls \(\*http.Client\).Get while the transaction it runs in is held \(by \(\*sqlstore.conn\).UpdateRefreshToken, in the program's build\)`
		if err != nil {
			return old, err
		}
		resp.Body.Close()
		return old, nil
	})
	// Trap: this updater makes no call that waits.
	_ = s.storage.UpdateRefreshToken(r.FormValue("id"), func(old storage.Token) (storage.Token, error) {
		old.Upstream = ""
		return old, nil
	})
	// Trap: EachToken's implementation holds nothing while it runs fn.
	_ = s.storage.EachToken(func(t storage.Token) error {
		resp, err := s.upstream.Get(t.Upstream)
		if err == nil {
			resp.Body.Close()
		}
		return err
	})
}
