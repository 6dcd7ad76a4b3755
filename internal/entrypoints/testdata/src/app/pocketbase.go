package app

import (
	"github.com/pocketbase/pocketbase/tools/cron"
	"github.com/pocketbase/pocketbase/tools/router"
)

// requestEvent stands for pocketbase's *core.RequestEvent.
type requestEvent struct{}

func (*requestEvent) Next() error { return nil }

func recordView(e *requestEvent) error   { return nil }
func recordCreate(e *requestEvent) error { return nil }
func rateLimit(e *requestEvent) error    { return e.Next() }
func fallback(e *requestEvent) error     { return nil }

// pocketbase's router keeps the routes as func values and runs them from
// the mux it builds: the registration is the only place they are seen.
func pocketbaseRoutes(r *router.Router[*requestEvent]) {
	r.GET("/api/records", recordView) // want `interactive: pocketbase handler registered with RouterGroup.GET: app.recordView`
	sub := r.Group("/api/collections")
	sub.POST("/records", recordCreate).BindFunc(rateLimit)                     // want `interactive: pocketbase handler registered with RouterGroup.POST: app.recordCreate` `interactive: pocketbase handler registered with Route.BindFunc: app.rateLimit`
	sub.BindFunc(rateLimit)                                                    // want `interactive: pocketbase handler registered with RouterGroup.BindFunc: app.rateLimit`
	r.Route("PUT", "/api/records", func(e *requestEvent) error { return nil }) // want `interactive: pocketbase handler registered with RouterGroup.Route: func literal in app.pocketbaseRoutes`
	// Traps: a lookup and a mux build register nothing.
	_ = r.HasRoute("GET", "/api/records")
	_, _ = r.BuildMux()
	_ = fallback
}

func pocketbaseJobs(c *cron.Cron, s *Server) {
	c.MustAdd("cleanup", "0 * * * *", s.refresh) // want `background: job scheduled with Cron.MustAdd: \(\*app.Server\).refresh`
	c.Remove("cleanup")                          // trap: not a scheduling call
}
