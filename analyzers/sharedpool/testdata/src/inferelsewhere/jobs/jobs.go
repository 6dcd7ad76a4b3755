// Package jobs writes to the store in the background.
package jobs

import (
	"time"

	"inferelsewhere/provider"
)

func Run() {
	for {
		time.Sleep(time.Minute)
		provider.Put("tick")
		provider.Audit("tick")
	}
}
