// Package eventsend has event senders after versitygw's: a method handed // want package:`noContextWaitsReported\(2\)`
// the fiber request's context starts the delivery in a goroutine of its
// own, on every request whose handler calls it through the sender
// interface; and look-alikes handed no request.
package eventsend

import (
	"context"
	"net/http"
	"strings"

	"github.com/gofiber/fiber/v3"
	"github.com/valyala/fasthttp"
)

type Meta struct{ Name string }

// Sender is what the controllers call after each S3 action.
type Sender interface {
	SendEvent(ctx fiber.Ctx, meta Meta)
}

type Webhook struct{ url string }

// SendEvent is handed the request's fiber context: it runs once per
// request, and each call leaves a goroutine posting with no deadline.
func (w *Webhook) SendEvent(ctx fiber.Ctx, meta Meta) { // want SendEvent:"startsGoroutine"
	go w.send(meta) // want `goroutine per request: this go statement starts, on every request, a goroutine that waits on the network`
}

func (w *Webhook) send(meta Meta) { // want send:"waitsOnNetwork"
	resp, err := http.Post(w.url, "application/json", strings.NewReader(meta.Name))
	if err == nil {
		resp.Body.Close()
	}
}

// Raw takes fasthttp's own request context: per request too.
func (w *Webhook) Raw(rc *fasthttp.RequestCtx) { // want Raw:"startsGoroutine"
	go w.send(Meta{Name: string(rc.Request.Body)}) // want `goroutine per request: this go statement starts, on every request`
}

// ---- traps: must stay silent ----

// Forward builds an outgoing request and its response for fasthttp's
// client: the client's side, handed no incoming request. Its goroutine is
// started once per call of whatever calls it, not per request.
func (w *Webhook) Forward(req *fasthttp.Request, resp *fasthttp.Response) { // want Forward:"startsGoroutine" Forward:"detachesPerCall"
	go w.send(Meta{Name: string(req.Body)})
}

// SendWithin gives its goroutine a deadline: each one ends by itself.
func (w *Webhook) SendWithin(ctx fiber.Ctx, meta Meta) { // want SendWithin:"startsGoroutine"
	go func() {
		tctx, cancel := context.WithTimeout(context.Background(), 5e9)
		defer cancel()
		req, _ := http.NewRequestWithContext(tctx, http.MethodPost, w.url, strings.NewReader(meta.Name))
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
}

// After exposure-notifications' ClaimToken: a stats update on the
// failure's way and another after success, each a goroutine of its own,
// in a function a request's handler calls. Both go statements are
// reported.
func (w *Webhook) claim(ok bool) { // want claim:"detachesPerCall\\(eventsend.go:\\d+\\)"
	if !ok {
		go w.send(Meta{Name: "invalid"}) // want `goroutine per request: this go statement starts a goroutine on every request that reaches it \(through \(\*eventsend.Webhook\).claim\)`
		return
	}
	go w.send(Meta{Name: "claimed"}) // want `goroutine per request: this go statement starts a goroutine on every request that reaches it \(through \(\*eventsend.Webhook\).claim\)`
}

// Claim is handed the request's fiber context.
func (w *Webhook) Claim(ctx fiber.Ctx, ok bool) {
	w.claim(ok)
}
