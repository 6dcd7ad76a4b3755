// Package viaiface has HTTP handlers that start a goroutine running a
// method of a background worker held as an interface.
package viaiface

import (
	"net/http"

	"example.com/campaigns"
	"example.com/mailer"
)

type Server struct {
	worker campaigns.Worker
}

// One goroutine per request waits for the mailer's consumer, uncapped.
func (s *Server) launchParksThroughInterface(w http.ResponseWriter, r *http.Request) { // want launchParksThroughInterface:"startsGoroutine"
	go s.worker.LaunchCampaign(campaigns.Campaign{ID: 1}) // want `ERR_UNBOUNDED_QUEUE_DETECTED: goroutine per request: this go statement leaves one goroutine per request waiting to send on mw.queue \(through \(mailqueue.Mailer\).Queue\) until a consumer takes it`
	w.WriteHeader(http.StatusCreated)
}

// Traps: a hand-over that gives up when the consumer is busy, a queue the
// call made itself, and a wait for a semaphore slot (the bound).
func (s *Server) launchRejectsWhenBusy(w http.ResponseWriter, r *http.Request) { // want launchRejectsWhenBusy:"startsGoroutine"
	go s.worker.LaunchOrReject(campaigns.Campaign{ID: 1})
}

func (s *Server) launchOnOwnQueue(w http.ResponseWriter, r *http.Request) { // want launchOnOwnQueue:"startsGoroutine"
	go s.worker.LaunchLocal(campaigns.Campaign{ID: 1})
}

func (s *Server) launchWaitsForSlot(w http.ResponseWriter, r *http.Request) { // want launchWaitsForSlot:"startsGoroutine"
	go s.worker.LaunchBounded(campaigns.Campaign{ID: 1})
}

type Mailing struct {
	mailer   mailer.Mailer
	renderer mailer.Renderer
}

// A goroutine per request runs an interface method whose implementation,
// in the interface's package, waits on the SMTP server.
func (m *Mailing) sendThroughInterface(w http.ResponseWriter, r *http.Request) { // want sendThroughInterface:"startsGoroutine"
	go m.mailer.Send(&mailer.Message{To: r.FormValue("to")}) // want `goroutine per request: this go statement starts, on every request, a goroutine that waits on the network \(\(mailer.Mailer\).Send\)`
}

// Trap: an interface whose implementations stay in memory.
func (m *Mailing) renderThroughInterface(w http.ResponseWriter, r *http.Request) { // want renderThroughInterface:"startsGoroutine"
	go m.renderer.Render(&mailer.Message{To: r.FormValue("to")})
}
