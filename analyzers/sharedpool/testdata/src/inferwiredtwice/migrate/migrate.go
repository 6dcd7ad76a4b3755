// Package migrate is the program's migrate command: it opens a pool of its
// own, in its own process.
package migrate

import "inferwiredtwice/store"

func Run() {
	db, _ := store.NewDB("migrate")
	db.Sweep()
}
