// Package monitor hands names to a consumer goroutine over unbuffered
// channels: one consumer only keeps a map (an actor's mailbox), the other
// posts each name upstream before it takes the next.
package monitor

import (
	"net/http"
	"time"
)

// After goalert's remote monitor: Finish reports a finished check on
// m.finishCh; its consumer, waitLoop, only moves names in and out of a map
// between receives, so it is back at its select at once and a sender waits
// for no one's I/O.
type Monitor struct {
	startCh  chan string
	finishCh chan string
	pending  map[string]time.Time
	countCh  chan int
}

func (m *Monitor) Finish(name string) {
	m.finishCh <- name
}

func (m *Monitor) waitLoop() {
	t := time.NewTicker(100 * time.Millisecond)
	for {
		select {
		case <-t.C:
			for k, v := range m.pending {
				if time.Since(v) > time.Minute {
					delete(m.pending, k)
				}
			}
		case name := <-m.startCh:
			m.pending[name] = time.Now()
		case name := <-m.finishCh:
			delete(m.pending, name)
		}
		select {
		case m.countCh <- len(m.pending):
		default:
		}
	}
}

// The same shape, but the consumer posts each name upstream before it
// takes the next: a slow upstream parks every sender.
type Relay struct {
	doneCh chan string
	client *http.Client
}

func (rl *Relay) Finish(name string) { // want Finish:"parksOnSend\\(rl.doneCh\\)"
	rl.doneCh <- name
}

func (rl *Relay) loop() { // want loop:"waitsOnNetwork"
	for {
		select {
		case name := <-rl.doneCh:
			resp, err := rl.client.Get("http://upstream.example/" + name)
			if err == nil {
				resp.Body.Close()
			}
		}
	}
}
