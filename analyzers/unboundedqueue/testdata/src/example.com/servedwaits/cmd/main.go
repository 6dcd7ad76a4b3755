// Command cmd wires the storage the configuration names into the server. // want package:"limitsPools" package:"noContextWaitsReported\\(2\\)"
package main

import (
	"net/http"
	"os"

	"example.com/servedwaits/memstore"
	"example.com/servedwaits/server"
	"example.com/servedwaits/sqlstore"
	"example.com/servedwaits/storage"
)

func main() { // want main:"servesConns" main:"startsGoroutine"
	var s storage.Storage = memstore.New()
	if dsn := os.Getenv("DSN"); dsn != "" {
		s, _ = sqlstore.Open(dsn)
	}
	srv := server.New(s)
	go srv.GC()
	mux := http.NewServeMux()
	srv.Routes(mux)
	_ = http.ListenAndServe(":5556", mux)
}
