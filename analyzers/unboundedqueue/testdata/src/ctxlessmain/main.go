// Package main opens the pool, gives it a maximum and hands it to the // want package:"limitsPools" package:"noContextWaitsReported\\(1\\)"
// store.
package main

import (
	"net/http"
	"strconv"

	"gorm.io/gorm"

	"ctxlessstore"
)

func main() { // want main:"waitsOnNetwork" main:"servesConns"
	db, err := gorm.Open(nil)
	if err != nil {
		panic(err)
	}
	sqlDB, _ := db.DB()
	sqlDB.SetMaxOpenConns(25)
	s := &ctxlessstore.Store{DB: db}
	http.HandleFunc("/job", func(w http.ResponseWriter, r *http.Request) {
		id, _ := strconv.Atoi(r.URL.Query().Get("id"))
		_ = s.Job(r.Context(), id)
	})
	_ = http.ListenAndServe(":8080", nil)
}
