// Package inferworker starts the background loop the wiring package
// reaches through facts.
package inferworker

import "inferstore"

type Worker struct{ Store *inferstore.Store }

func (w *Worker) Run(jobs <-chan int) {
	for range jobs {
		w.Store.Purge()
	}
}

// Pool starts the workers: this go statement is the background entry.
func Pool(st *inferstore.Store, jobs <-chan int) {
	for i := 0; i < 4; i++ {
		w := &Worker{Store: st}
		go w.Run(jobs)
	}
}
