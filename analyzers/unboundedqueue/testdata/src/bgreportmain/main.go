// Package main opens the pool with a maximum and serves the report through // want package:"limitsPools" package:"noContextWaitsReported\\(1\\)"
// fastglue, whose ListenAndServe makes it a server as net/http's would: a
// request reaches the report's wait with a context from Background().
package main

import (
	"github.com/jmoiron/sqlx"
	"github.com/zerodha/fastglue"

	"bgreport"
)

type App struct{ report *bgreport.Manager }

func handleCounts(r *fastglue.Request) error { // want handleCounts:"waitsOnNetwork" handleCounts:"waitsNoContext\\(\\(\\*sqlx.DB\\).BeginTxx in \\(Manager\\).Counts\\)"
	app := r.Context.(*App)
	_, err := app.report.Counts()
	return err
}

func perm(h fastglue.FastRequestHandler, name string) fastglue.FastRequestHandler {
	return func(r *fastglue.Request) error { return h(r) }
}

func main() { // want main:"waitsOnNetwork" main:"servesConns"
	db, err := sqlx.Connect("postgres", "")
	if err != nil {
		panic(err)
	}
	db.SetMaxOpenConns(10)
	app := &App{report: bgreport.New(db)}
	g := fastglue.NewGlue()
	g.GET("/counts", perm(handleCounts, "reports"))
	_ = app
	_ = g.ListenAndServe(":9000", "", nil)
}
