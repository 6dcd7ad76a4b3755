// Package gc collects garbage in the background through storage.Writer.
package gc

import (
	"time"

	"inferstandin/storage"
)

func Run(w storage.Writer) {
	for {
		time.Sleep(time.Minute)
		w.Write("gc")
	}
}
