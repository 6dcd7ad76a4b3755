// Package native implements schemes.Scheme. No handler of this package
// calls it: the API reaches it through the interface, so the context a
// method is handed is the evidence of the request that runs it.
package native

import (
	"context"
	"net"
	"net/smtp"

	"example.com/schemes"
)

type Native struct{}

func init() { schemes.Active = Native{} }

// One goroutine per reset request, sending mail with no deadline.
func (Native) StartReset(ctx context.Context, email string) error { // want StartReset:"startsGoroutine"
	go send(email) // want `goroutine per request: this go statement starts, on every request, a goroutine that waits on the network`
	return nil
}

// Trap: the goroutine's work ends with the context it is handed.
func (Native) Rotate(ctx context.Context) error { // want Rotate:"startsGoroutine"
	go sendWithin(ctx, "ops@example.com")
	return nil
}

// Trap: handed no context, nothing says a request runs it (a start-up
// warm-up): left to whoever calls it.
func (Native) Warm() { // want Warm:"startsGoroutine" Warm:`detachesPerCall`
	go send("ops@example.com")
}

func send(to string) { // want send:"waitsOnNetwork"
	smtp.SendMail("mail:25", nil, "noreply@example.com", []string{to}, nil)
}

func sendWithin(ctx context.Context, to string) { // want sendWithin:"waitsOnNetwork"
	var d net.Dialer
	d.DialContext(ctx, "tcp", "mail:25")
}
