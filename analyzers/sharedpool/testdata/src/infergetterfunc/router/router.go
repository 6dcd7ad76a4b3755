// Package router serves the handlers and runs a sync loop on the pool the // want package:`lanes\(\(\*router\.Router\)\.users@interactive, \(\*router\.Router\)\.sync@background\)`
// context holds. It sees both classes, but the getter's call is no opening
// of the pool: the finding is left to the package that opens it.
package router

import (
	"net/http"
	"time"

	"infergetterfunc/appctx"
	"infergetterfunc/models"
)

type Router struct{ Ctx *appctx.Context }

// Trap: the first call in the package that returns the pool's type is the
// getter's, which hands back what rt.Ctx holds.
func (rt *Router) users(w http.ResponseWriter, r *http.Request) {
	models.DB(rt.Ctx).Query("SELECT name FROM users")
	models.CountUsers(rt.Ctx)
}

func (rt *Router) Routes(mux *http.ServeMux) { mux.HandleFunc("/users", rt.users) }

func (rt *Router) sync() {
	for range time.Tick(time.Minute) {
		models.DB(rt.Ctx).Exec("UPDATE targets SET seen = now()")
	}
}

func (rt *Router) Start() { go rt.sync() } // want Start:`reaches\(appctx\.Context\.DB\(no lane\)\)`
