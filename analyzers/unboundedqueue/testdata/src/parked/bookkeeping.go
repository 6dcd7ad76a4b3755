package parked // want package:`servedElsewhere\(1\)`

import (
	"net/http"

	"example.com/monitor"
)

// After goalert's SMS webhook: each request starts a goroutine that sends
// on the monitor's channel, whose consumer only keeps a map (silent), or
// on the relay's, whose consumer waits upstream (reported).
type webhooks struct {
	monitor *monitor.Monitor
	relay   *monitor.Relay
}

func (h *webhooks) sms(w http.ResponseWriter, r *http.Request) { // want sms:"startsGoroutine"
	go h.monitor.Finish(r.FormValue("From"))
}

func (h *webhooks) relayed(w http.ResponseWriter, r *http.Request) { // want relayed:"startsGoroutine"
	go h.relay.Finish(r.FormValue("From")) // want `goroutine per request: this go statement leaves one goroutine per request waiting to send on rl.doneCh`
}
