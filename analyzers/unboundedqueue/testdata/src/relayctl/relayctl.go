// Package relayctl is shaped as one-api's relay controller: after a failed // want package:`noContextWaitsReported\(1\)` package:`pendingWaits\(5\)`
// relay, a goroutine per request writes to the database. The request's
// context, handed to the goroutine, bounds it only where it reaches the
// wait.
package relayctl

import (
	"context"
	"log"
	"net/http"

	"example.com/quota"

	"github.com/gin-gonic/gin"
)

func logf(ctx context.Context, format string, args ...any) { log.Printf(format, args...) }

// processError logs with the request's context and bills without it: the
// context cancels nothing the goroutine waits on.
func processError(ctx context.Context, id int) { // want processError:"waitsOnNetwork" processError:"ignoresContext" processError:"waitsNoContext"
	logf(ctx, "relay failed for %d", id)
	_ = quota.PostConsume(id)
}

// processErrorCtx bills on the request's context.
func processErrorCtx(ctx context.Context, id int) { // want processErrorCtx:"waitsOnNetwork"
	logf(ctx, "relay failed for %d", id)
	_ = quota.PostConsumeCtx(ctx, id)
}

func Relay(c *gin.Context) { // want Relay:"startsGoroutine" Relay:"waitsNoContext"
	ctx := c.Request.Context()
	go processError(ctx, 1) // want `goroutine per request: this go statement starts, on every request, a goroutine that waits on the network \(quota.PostConsume\) with no deadline and no cancellation`
	go func() {             // want `goroutine per request: .*\(quota.PostConsume\)`
		logf(ctx, "refund")
		_ = quota.PostConsume(2)
	}()
}

// Trap: the request's context reaches the query; the goroutine ends with
// the request.
func RelayCtx(c *gin.Context) { // want RelayCtx:"startsGoroutine"
	ctx := c.Request.Context()
	go processErrorCtx(ctx, 1)
	go func() {
		_ = quota.PostConsumeCtx(ctx, 2)
	}()
}

// Trap: the context reaches the wait inside the request it built.
func Notify(c *gin.Context) { // want Notify:"startsGoroutine"
	ctx := c.Request.Context()
	go func() {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "http://hooks.internal/notify", nil)
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
	}()
}

// Trap: building a statement waits on nothing.
func Prepare(c *gin.Context) { // want Prepare:"startsGoroutine"
	go func() { _ = quota.Scope(3) }()
}

// refund reaches ReturnQuota's goroutine one call down.
func refund(ctx context.Context, id int) { // want refund:"detachesPerCall" refund:"waitsNoContext"
	quota.ReturnQuota(ctx, id)
}

// A handler that reaches a goroutine started in another package, directly
// and through refund: per-request is whatever a request reaches.
func Text(c *gin.Context) { // want Text:"waitsNoContext"
	ctx := c.Request.Context()
	quota.ReturnQuota(ctx, 1) // reported at the go statement, in quota.go
	refund(ctx, 2)            // the same go statement: reported once
}

// Trap: the goroutine it reaches is bounded by the request's context.
func TextCtx(c *gin.Context) {
	quota.ReturnQuotaCtx(c.Request.Context(), 1)
}

// Trap: start-up code reaches the same goroutine once, not per request.
func Start() { // want Start:"detachesPerCall" Start:"waitsNoContext"
	refund(context.Background(), 0)
}

func lookup(ctx context.Context) int { return 1 }

// A value computed by a call that took the request's context carries none:
// the goroutine's query has no context (shiori's archive goroutine saving
// with context.Background()).
func Archive(c *gin.Context) { // want Archive:"startsGoroutine" Archive:"waitsNoContext"
	ctx := c.Request.Context()
	id := lookup(ctx)
	go func() { // want `goroutine per request: .*\(quota.PostConsume\)`
		_ = quota.PostConsume(id)
	}()
}

func forward(r *http.Request) { // want forward:"waitsOnNetwork"
	resp, err := http.DefaultClient.Do(r.Clone(r.Context()))
	if err == nil {
		resp.Body.Close()
	}
}

// Trap: the request itself, handed to the wait, carries its context.
func Forward(c *gin.Context) { // want Forward:"startsGoroutine"
	r := c.Request
	go func() { forward(r) }()
}

// Trap: the goroutine CheckQuota starts is waited for.
func Check(c *gin.Context) { // want Check:"waitsNoContext"
	_ = quota.CheckQuota(context.Background(), 1)
}

// A goroutine running a function of another package that is handed the
// request's context: cancelled by it only if that function's waits get it.
func Notice(c *gin.Context) { // want Notice:"startsGoroutine" Notice:"waitsNoContext"
	ctx := c.Request.Context()
	go quota.Notify(ctx, 1) // want `goroutine per request: this go statement starts, on every request, a goroutine that waits on the network \(quota.Notify\)`
	go quota.NotifyCtx(ctx, 1)
}

// Trap: the goroutine Apply starts is waited for.
func ApplyQuota(c *gin.Context) { // want ApplyQuota:"waitsNoContext"
	_ = quota.Apply(1)
}
