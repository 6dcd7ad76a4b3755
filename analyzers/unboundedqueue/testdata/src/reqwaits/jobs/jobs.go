// Package jobs prunes the store in the background. // want package:"limitsPools"
package jobs

import (
	"time"

	"reqwaits/store"
)

func Run() { // want Run:"waitsNoContext"
	for range time.Tick(time.Hour) {
		store.Get().Prune()
	}
}
