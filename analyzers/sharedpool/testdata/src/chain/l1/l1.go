// Package l1 is a link of the chain: a handler that reaches the pool, an
// implementation of store.Store that reaches nothing, and a function that
// calls through the interface.
package l1

import (
	"net/http"

	"chain/store"
)

type Cache struct{}

func (Cache) Get(k string) string { return k }

func Lookup(s store.Store, k string) string { return s.Get(k) }

func handle(w http.ResponseWriter, r *http.Request) { store.DB.Exec("SELECT 1") }

func init() { http.HandleFunc("/l1", handle) }
