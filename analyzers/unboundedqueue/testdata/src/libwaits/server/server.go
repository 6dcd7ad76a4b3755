// Package server wires the bounded pool of libwaits/db to the handlers. // want package:"limitsPools" package:"noContextWaitsReported\\(1\\)"
package server

import (
	"net/http"

	"example.org/zestylike"
	"libwaits/db"
	"libwaits/handler"
)

func Routes(dsn string) (*http.ServeMux, error) {
	m, err := db.Open(dsn)
	if err != nil {
		return nil, err
	}
	t := &handler.Tasks{DBP: zestylike.NewDBProvider(m)}
	mux := http.NewServeMux()
	mux.HandleFunc("/resolve", t.Resolve)
	return mux, nil
}
