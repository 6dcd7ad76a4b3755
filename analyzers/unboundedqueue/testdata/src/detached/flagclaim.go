package detached

import (
	"errors"
	"net/http"
	"sync"

	"example.com/mails"
)

// After one-api's "test all channels": a shared flag, checked and set under
// a mutex before the start and cleared by the goroutine, refuses every other
// run while one works. At most one goroutine, however many requests ask.
var (
	digestMu      sync.Mutex
	digestRunning bool
)

func startDigest(app *mails.App) error {
	digestMu.Lock()
	if digestRunning {
		digestMu.Unlock()
		return errors.New("a digest is being sent")
	}
	digestRunning = true
	digestMu.Unlock()
	go func() {
		_ = mails.SendOTP(app, "admin@example.com")
		digestMu.Lock()
		digestRunning = false
		digestMu.Unlock()
	}()
	return nil
}

func (a *App) sendDigest(w http.ResponseWriter, r *http.Request) {
	if err := startDigest(a.mails); err != nil {
		http.Error(w, err.Error(), http.StatusConflict)
	}
}

// The same claim on a field.
type Exporter struct {
	mu      sync.Mutex
	running bool
	mails   *mails.App
}

func (e *Exporter) export(w http.ResponseWriter, r *http.Request) {
	e.mu.Lock()
	if e.running {
		e.mu.Unlock()
		return
	}
	e.running = true
	e.mu.Unlock()
	go func() {
		defer func() { e.mu.Lock(); e.running = false; e.mu.Unlock() }()
		_ = mails.SendOTP(e.mails, r.FormValue("email"))
	}()
}

// Look-alikes of the claim that refuse nothing: a flag that is only read
// (a feature switched off), and a local flag, new on every call.
type Notifier struct {
	disabled bool
	mails    *mails.App
}

func (n *Notifier) notify(w http.ResponseWriter, r *http.Request) {
	if n.disabled {
		return
	}
	go func() { _ = mails.SendOTP(n.mails, r.FormValue("email")) }() // want `ERR_UNBOUNDED_QUEUE_DETECTED: goroutine per request: this go statement starts`
}

func (n *Notifier) notifyOnce(w http.ResponseWriter, r *http.Request) { // want notifyOnce:"startsGoroutine"
	busy := false
	if busy {
		return
	}
	busy = true
	go func() { _ = mails.SendOTP(n.mails, r.FormValue("email")) }() // want `ERR_UNBOUNDED_QUEUE_DETECTED: goroutine per request: this go statement starts`
	_ = busy
}
