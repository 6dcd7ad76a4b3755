// Package webctx has gin handlers that take the project's own context type
// (a struct embedding *gin.Context) and send mail over SMTP, through a
// gomail-style dialer, from a goroutine started per request.
package webctx

import (
	"context"
	"errors"

	"example.com/accounts"

	"github.com/gin-gonic/gin"
)

// WebContext wraps the framework's context, as many projects do: it
// carries the request through the embedded *gin.Context.
type WebContext struct {
	*gin.Context
}

// JobContext is a project context that carries no request: a cron job's.
type JobContext struct {
	context.Context
}

type UsersAPI struct {
	users *accounts.Service
	sem   chan struct{}
}

// One goroutine per registration waits on the SMTP server, uncapped.
func (a *UsersAPI) registerSendsMailPerRequest(c *WebContext) (any, error) { // want registerSendsMailPerRequest:"startsGoroutine"
	email := c.PostForm("email")
	go func() { // want `ERR_UNBOUNDED_QUEUE_DETECTED: goroutine per request: this go statement starts, on every request, a goroutine that waits on the network \(\(\*accounts.Service\).SendVerifyEmail\) with no deadline and no cancellation`
		_ = a.users.SendVerifyEmail(email)
	}()
	return true, nil
}

// The same, the goroutine running the service method directly.
func (a *UsersAPI) resendSendsMailPerRequest(c *WebContext) (any, error) { // want resendSendsMailPerRequest:"startsGoroutine"
	go a.users.SendVerifyEmail(c.PostForm("email")) // want `goroutine per request: this go statement starts, on every request, a goroutine that waits on the network \(\(\*accounts.Service\).SendVerifyEmail\)`
	return true, nil
}

// Trap: the goroutine only builds the link; nothing waits on the network.
func (a *UsersAPI) linkBuiltInGoroutine(c *WebContext) (any, error) { // want linkBuiltInGoroutine:"startsGoroutine"
	go func() { _ = a.users.VerifyLink(c.PostForm("email")) }()
	return true, nil
}

// Trap: a slot is taken before the goroutine starts, and refused when none
// is free.
func (a *UsersAPI) mailBoundedBySemaphore(c *WebContext) (any, error) { // want mailBoundedBySemaphore:"takesSlot"
	select {
	case a.sem <- struct{}{}:
	default:
		return nil, errors.New("too many mails in flight")
	}
	email := c.PostForm("email")
	go func() {
		defer func() { <-a.sem }()
		_ = a.users.SendVerifyEmail(email)
	}()
	return true, nil
}

// Trap: a project context that carries no request (a job's) does not run
// once per request.
func (a *UsersAPI) mailFromJobContext(c *JobContext, email string) { // want mailFromJobContext:"startsGoroutine" mailFromJobContext:"detachesPerCall"
	go func() { _ = a.users.SendVerifyEmail(email) }()
}
