// Package server opens the pool and gives it a maximum. // want package:"limitsPools" package:`noContextWaitsReported\(2\)`
package server

import (
	"net/http"

	"example.com/paramwait/records"
	"gorm.io/gorm"
)

func Run(d gorm.Dialector) error { // want Run:"servesConns" Run:"waitsOnNetwork" Run:"waitsNoContext"
	db, err := gorm.Open(d)
	if err != nil {
		return err
	}
	sqlDB, _ := db.DB()
	sqlDB.SetMaxOpenConns(10)
	s := records.New(db)
	s.Warm()
	mux := http.NewServeMux()
	mux.HandleFunc("/get", s.Get)
	mux.HandleFunc("/list", s.List)
	mux.HandleFunc("/getctx", s.GetCtx)
	mux.HandleFunc("/delete", s.Delete)
	return http.ListenAndServe(":8080", mux)
}
