// Command cmd wires the SQL storage into the server. // want package:`implements\(holds \(example.com/pendingcb/storage.Storage\).UpdateRefreshToken by \(\*sqlstore.conn\).UpdateRefreshToken\)` package:`callbacksReported\(1\)`
package main

import (
	"net/http"
	"os"

	"example.com/pendingcb/server"
	"example.com/pendingcb/sqlstore"
)

func main() {
	st, err := sqlstore.Open(os.Getenv("DSN"))
	if err != nil {
		panic(err)
	}
	http.HandleFunc("/token", server.New(st).HandleRefresh)
	_ = http.ListenAndServe(":5556", nil)
}
