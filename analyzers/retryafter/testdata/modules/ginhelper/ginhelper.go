// Package ginhelper: response helpers that take the framework's context as
// a context.Context and recover *gin.Context inside.
package ginhelper

import (
	"context"
	"errors"
	"net/http"

	"github.com/gin-gonic/gin"
)

// HandleError writes the status it is passed on the gin context recovered
// from c: each caller passing a shed status is reported.
func HandleError(c context.Context, status int, err error) { // want HandleError:"writesStatus\\(param 1\\)"
	msg := err.Error()
	switch ctx := c.(type) {
	case *gin.Context:
		ctx.AbortWithStatusJSON(status, gin.H{"error": msg})
	default:
		return
	}
}

// HandleErrorGuided sets Retry-After on the recovered context before
// writing: its callers are fine.
func HandleErrorGuided(c context.Context, status int, err error) { // want HandleErrorGuided:"setsRetryAfter"
	if ctx, ok := c.(*gin.Context); ok {
		ctx.Header("Retry-After", "5")
		ctx.AbortWithStatusJSON(status, gin.H{"error": err.Error()})
	}
}

// Busy writes a 503 of its own on the recovered context: reported where it
// writes it.
func Busy(c context.Context) {
	if ctx, ok := c.(*gin.Context); ok {
		ctx.AbortWithStatus(http.StatusServiceUnavailable) // want `handler Busy writes 503 Service Unavailable`
	}
}

// logStatus takes a context.Context and a status but writes nothing: it
// never recovers a framework context, so its callers are not reported.
func LogStatus(c context.Context, status int, err error) {
	_ = c.Value("request-id")
	_ = status
	_ = err
}

// QueueBuild decides the status and returns it as a value; the handlers of
// other packages that write it are reported at their write.
func QueueBuild(pending, limit int) (int, error) { // want QueueBuild:"returnsShedStatus\\(result 0: 429 Too Many Requests\\)"
	if pending >= limit {
		return http.StatusTooManyRequests, errors.New("build limit reached")
	}
	return http.StatusCreated, nil
}
