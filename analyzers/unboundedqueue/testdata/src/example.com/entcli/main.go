// Package main is a one-shot command (a migration): it opens the client
// through the generated Open, uses it and ends; it serves nothing, so its
// pool ends with it.
package main

import (
	"context"

	"example.com/entapp/ent"
)

type migrator struct{ client *ent.Client }

func main() {
	client, err := ent.Open("postgres", "dsn")
	if err != nil {
		panic(err)
	}
	m := &migrator{client}
	_ = m.client.Ping(context.Background())
}
