// Package infergetterfunc wires the program: it opens the pool, puts it in // want package:`lanes\(\)`
// the context every part is handed, and starts the router. The finding is
// at the opening, not at a getter's call in the router.
package infergetterfunc

import (
	"database/sql"
	"net/http"

	"infergetterfunc/appctx"
	"infergetterfunc/router"
)

func Main() { // want Main:`creates\(appctx\.Context\.DB\)` Main:`reaches\(appctx\.Context\.DB\(no lane\)\)`
	db, _ := sql.Open("postgres", "dsn") // want `appctx.Context.DB, a database pool created once, serves both interactive and background work`
	rt := &router.Router{Ctx: appctx.New(db)}
	rt.Routes(http.DefaultServeMux)
	rt.Start()
}
