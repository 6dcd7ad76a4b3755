// Command agent serves the same router and sync loop as the main program, // want package:`lanes\(\)`
// but reports to it over HTTP: it hands the context no pool (appctx.New(nil)).
// Trap: no package of this program opens the pool the router's getters read,
// so there is no shared pool here and no line to change.
package main

import (
	"net/http"

	"infergetterfunc/appctx"
	"infergetterfunc/router"
)

func main() {
	rt := &router.Router{Ctx: appctx.New(nil)}
	rt.Routes(http.DefaultServeMux)
	rt.Start()
}
