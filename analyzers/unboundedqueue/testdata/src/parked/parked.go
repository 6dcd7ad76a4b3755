package parked

import (
	"net/http"
	"time"
	"workerpool"

	"github.com/labstack/echo/v4"
)

type handler struct {
	pool        *workerpool.Pool
	lastRefresh time.Time
	interval    func() time.Duration
}

func (h *handler) jobs(r *http.Request) []workerpool.Job { return nil }

// After miniflux's refresh-all API: every request leaves a goroutine parked
// on the workers' unbuffered queue, with no cap and no rejection.
func (h *handler) refreshAll(w http.ResponseWriter, r *http.Request) { // want refreshAll:"startsGoroutine"
	go h.pool.Push(h.jobs(r)) // want `ERR_UNBOUNDED_QUEUE_DETECTED: goroutine per request: this go statement leaves one goroutine per request waiting to send on p.queue until a consumer takes it, with nothing capping how many wait`
	w.WriteHeader(http.StatusNoContent)
}

func (h *handler) refreshOne(w http.ResponseWriter, r *http.Request) { // want refreshOne:"startsGoroutine"
	go h.pool.Enqueue(workerpool.Job{FeedID: 1}) // want `goroutine per request`
}

// Trap, after miniflux's web UI: a minimum interval between refreshes.
func (h *handler) refreshAllFromUI(w http.ResponseWriter, r *http.Request) {
	if time.Since(h.lastRefresh) < h.interval() {
		http.Error(w, "too many refreshes", http.StatusTooManyRequests)
	} else {
		go h.pool.Push(h.jobs(r))
	}
}

// Traps: a push that gives up, and a push in the request's own goroutine
// on the request's context (one without is a send with no deadline on
// every request: queuesend).
func (h *handler) tryRefresh(w http.ResponseWriter, r *http.Request) { // want tryRefresh:"startsGoroutine"
	go h.pool.TryPush(workerpool.Job{})
	go h.pool.PushContext(r.Context(), workerpool.Job{})
	go h.pool.PushWithin(workerpool.Job{}, time.Second)
	go workerpool.Local(workerpool.Job{})
	for _, job := range h.jobs(r) {
		_ = h.pool.PushContext(r.Context(), job)
	}
}

// Trap: not a request handler (started once, at start-up).
func (h *handler) start() { // want start:"startsGoroutine" start:"detachesPerCall\\(parked.go:54\\)"
	go h.pool.Push(nil)
}

// Trap, after listmonk's import handler (an echo handler): the session is
// the request's own, made here, and its queue has the consumer the request
// starts; the pushes stream one file into it.
func (h *handler) importFile(c echo.Context) error { // want importFile:"startsGoroutine"
	sess := workerpool.New(1)
	go sess.Push(h.jobs(c.Request()))
	return nil
}

// An echo handler that parks on the shared pool is reported.
func (h *handler) refreshEcho(c echo.Context) error { // want refreshEcho:"startsGoroutine"
	go h.pool.Push(h.jobs(c.Request())) // want `goroutine per request: this go statement leaves one goroutine per request waiting`
	return nil
}
