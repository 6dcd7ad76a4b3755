// Package main opens the pool with no maximum and hands it to the store; // want package:"pendingWaits\\(1\\)"
// its handler reaches the store's wait, which stays pending: nothing in the
// program gives the pool a maximum, so nothing waits for a slot.
package main

import (
	"net/http"

	"gorm.io/gorm"

	"ctxlessnomax"
)

func main() { // want main:"waitsOnNetwork" main:"servesConns"
	db, err := gorm.Open(nil) // want `pool without a maximum: the pool of \*gorm.DB from gorm.Open is passed to ctxlessnomax.New without SetMaxOpenConns`
	if err != nil {
		panic(err)
	}
	s := ctxlessnomax.New(db)
	http.HandleFunc("/runner", func(w http.ResponseWriter, r *http.Request) {
		_ = s.Runner(r.Context(), 1)
	})
	_ = http.ListenAndServe(":8080", nil)
}
