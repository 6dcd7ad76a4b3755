package requestsend

import (
	"context"
	"net/http"
)

// A channel of one token used as a lock (after watchtower's update lock):
// the scheduler and the requests take it for a whole run.
var updateLock = make(chan bool, 1)

func init() { updateLock <- true } // want init:"parksOnSend\\(updateLock\\)"

func runUpdate() {}

// Positive: every request waits for the token with no deadline; the
// deferred give-back cannot wait (it fills the slot the take emptied).
func UpdateImages(w http.ResponseWriter, r *http.Request) {
	tok := <-updateLock // want `token taken with no deadline on every request: requestsend.UpdateImages waits here for a token of updateLock`
	defer func() { updateLock <- tok }()
	runUpdate()
}

type Limiter struct{ tokens chan int }

// Positive: the same through a field, the token given back without defer.
func (l *Limiter) Serve(w http.ResponseWriter, r *http.Request) {
	t := <-l.tokens // want `token taken with no deadline on every request: \(\*requestsend.Limiter\).Serve waits here for a token of tokens`
	runUpdate()
	l.tokens <- t
}

// Trap: the take skips the work when no token is free, and the give-back
// in the select's case returns the token it took.
func UpdateAllOrSkip(w http.ResponseWriter, r *http.Request) {
	select {
	case tok := <-updateLock:
		defer func() { updateLock <- tok }()
		runUpdate()
	default:
	}
}

// Trap: the take gives up with the request.
func UpdateUntilDone(w http.ResponseWriter, r *http.Request) {
	select {
	case tok := <-updateLock:
		defer func() { updateLock <- tok }()
		runUpdate()
	case <-r.Context().Done():
		w.WriteHeader(http.StatusServiceUnavailable)
	}
}

// Trap: the scheduler's run, not a request's.
func scheduledUpdate(ctx context.Context) {
	tok := <-updateLock
	defer func() { updateLock <- tok }()
	runUpdate()
}

// Positive still: a value received from one channel and sent on another
// is a hand-off, not a token given back (the send waits for a consumer).
func (c *Controller) Forward(w http.ResponseWriter, r *http.Request) { // want Forward:"parksOnSend\\(events2\\)"
	s := <-events
	events2 <- s // want `send with no deadline on every request: \(\*requestsend.Controller\).Forward waits here until a consumer takes its value from events2`
}

var events2 = make(chan string)
