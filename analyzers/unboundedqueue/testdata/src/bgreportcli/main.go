// Package main builds the API's router to print its routes and exits (a // want package:"limitsPools"
// documentation command): the handler reaches the report's wait with a
// context from Background(), but nothing serves the router, so no request
// ever runs it.
package main

import (
	"fmt"

	"github.com/jmoiron/sqlx"
	"github.com/zerodha/fastglue"

	"bgreport"
)

func main() { // want main:"waitsOnNetwork"
	db, err := sqlx.Connect("postgres", "")
	if err != nil {
		panic(err)
	}
	db.SetMaxOpenConns(2)
	report := bgreport.New(db)
	g := fastglue.NewGlue()
	g.GET("/counts", func(r *fastglue.Request) error {
		_, err := report.Counts()
		return err
	})
	fmt.Println(g)
}
