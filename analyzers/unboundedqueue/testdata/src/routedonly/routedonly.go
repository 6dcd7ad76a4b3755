// Package routedonly has handlers known only by their registration with a
// router: their context type (this fiber stand-in's Ctx carries no
// request bhlint can see) does not say they answer requests, the route
// does. Per request is whatever an entry point reaches.
package routedonly

import (
	"net/http"
	"strings"

	"github.com/gofiber/fiber/v2"
)

type Service struct{ hook string }

func (s *Service) post() { // want post:"waitsOnNetwork"
	resp, err := http.Post(s.hook, "text/plain", strings.NewReader("event"))
	if err == nil {
		resp.Body.Close()
	}
}

func Register(app *fiber.App, s *Service) {
	app.Get("/notify", s.notify)
}

// notify is registered: each request leaves a goroutine posting with no
// deadline.
func (s *Service) notify(c *fiber.Ctx) error { // want notify:"startsGoroutine"
	go s.post() // want `goroutine per request: this go statement starts, on every request, a goroutine that waits on the network \(http.Post\)`
	return c.SendString("queued")
}

// ---- trap: must stay silent ----

// Warm has the same body and is registered nowhere: main calls it once.
func (s *Service) Warm(c *fiber.Ctx) error { // want Warm:"startsGoroutine" Warm:"detachesPerCall"
	go s.post()
	return nil
}
