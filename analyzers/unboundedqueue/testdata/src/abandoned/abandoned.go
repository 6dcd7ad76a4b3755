// Package abandoned holds goroutines left blocked on their send when the
// function that started them gives up waiting, and the look-alikes whose
// send completes.
package abandoned

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"syscall"
	"time"
)

type Client interface {
	Notify(ctx context.Context, text string) error
}

// Notifier is crowdsec's plugin notifier: when the context ends first,
// Notify returns, and the goroutine's send on done waits for ever.
type Notifier struct{ client Client }

func (n *Notifier) Notify(ctx context.Context, text string) error {
	done := make(chan error)
	go func() { // want `goroutine abandoned on its send: when the select takes its other case, the function returns and nothing receives from done, an unbuffered channel`
		done <- n.client.Notify(ctx, text)
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return errors.New("timeout exceeded")
	}
}

// WithTimer gives up on a timer, with make(chan T, 0).
func (n *Notifier) WithTimer(text string) error {
	result := make(chan error, 0)
	go func() { // want `goroutine abandoned on its send: .* nothing receives from result`
		err := n.client.Notify(context.Background(), text)
		result <- err
	}()
	select {
	case err := <-result:
		return err
	case <-time.After(5 * time.Second):
		return errors.New("timed out")
	}
}

// Buffered: the send completes into the buffer whoever is left.
func (n *Notifier) Buffered(ctx context.Context, text string) error {
	done := make(chan error, 1)
	go func() {
		done <- n.client.Notify(ctx, text)
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// SelectingSender gives up too when nobody waits for it.
func (n *Notifier) SelectingSender(ctx context.Context, text string) error {
	done := make(chan error)
	go func() {
		err := n.client.Notify(ctx, text)
		select {
		case done <- err:
		case <-ctx.Done():
		}
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// KeepsWaiting logs on each tick and waits again: the send is received in
// the end.
func (n *Notifier) KeepsWaiting(ctx context.Context, text string) error {
	done := make(chan error)
	go func() {
		done <- n.client.Notify(ctx, text)
	}()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case err := <-done:
			return err
		case <-tick.C:
			println("still waiting")
		}
	}
}

// Handed: the channel goes to the caller, who may receive later.
func (n *Notifier) Handed(ctx context.Context, text string) (<-chan error, error) {
	done := make(chan error)
	go func() {
		done <- n.client.Notify(ctx, text)
	}()
	select {
	case err := <-done:
		return nil, err
	case <-ctx.Done():
		return done, ctx.Err() // the caller may still receive
	}
}

// Drained: the giving-up case receives before it returns.
func (n *Notifier) Drained(ctx context.Context, text string) error {
	done := make(chan error)
	go func() {
		done <- n.client.Notify(ctx, text)
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		<-done
		return ctx.Err()
	}
}

// ResultOrError: the goroutine answers on one of its two channels; the
// case on its error channel is its other answer, not the caller giving up.
func (n *Notifier) ResultOrError(ctx context.Context, text string) (string, error) {
	res, errc := make(chan string), make(chan error)
	go func() {
		if err := n.client.Notify(ctx, text); err != nil {
			errc <- err
			return
		}
		res <- text
	}()
	select {
	case v := <-res:
		return v, nil
	case err := <-errc:
		return "", err
	}
}

// ClosedWhenDone: the sender closes done after its last send.
func (n *Notifier) ClosedWhenDone(ctx context.Context, texts []string) int {
	out, done := make(chan string), make(chan struct{})
	go func() {
		for _, t := range texts {
			out <- t
		}
		close(done)
	}()
	count := 0
	for {
		select {
		case <-out:
			count++
		case <-done:
			return count
		}
	}
}

// Declared with var, started through parentheses: the same leak.
func (n *Notifier) Declared(ctx context.Context, text string) error {
	var done = make(chan error)
	go (func() { // want `goroutine abandoned on its send: .* nothing receives from done`
		done <- n.client.Notify(ctx, text)
	})()
	select {
	case err := <-(done):
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Validate is kratos's registration: the hash is computed in parallel, and
// a failed validation returns before the select, leaving the hasher on its
// send.
func (n *Notifier) Validate(ctx context.Context, text string, valid bool) error {
	hashed := make(chan string)
	errc := make(chan error)
	go func() { // want `goroutine abandoned on its send: the function can return after starting it and before receiving from hashed`
		defer close(errc)
		if err := n.client.Notify(ctx, text); err != nil {
			errc <- err
			return
		}
		hashed <- text
	}()
	if !valid {
		return errors.New("invalid")
	}
	select {
	case err := <-errc:
		return err
	case <-hashed:
		return nil
	}
}

// ReturnsBeforeStarting returns only before the goroutine starts.
func (n *Notifier) ReturnsBeforeStarting(ctx context.Context, text string, valid bool) error {
	if !valid {
		return errors.New("invalid")
	}
	done := make(chan error)
	go func() {
		done <- n.client.Notify(ctx, text)
	}()
	return <-done
}

type Server interface {
	Serve() error
	Shutdown(ctx context.Context) error
}

// Registry is distribution's registry: ListenAndServe waits for SIGTERM,
// so it runs once per process, and the one goroutine it leaves blocked on
// its send when the process stops is no queue.
type Registry struct {
	server Server
	quit   chan os.Signal
}

func (r *Registry) ListenAndServe() error {
	signal.Notify(r.quit, os.Interrupt, syscall.SIGTERM)
	serveErr := make(chan error)
	go func() {
		serveErr <- r.server.Serve()
	}()
	select {
	case err := <-serveErr:
		return err
	case <-r.quit:
		return r.server.Shutdown(context.Background())
	}
}

// HandlerFrom is run once per process too, but the handler it returns runs
// once per request: each that times out leaves one more goroutine.
func (r *Registry) HandlerFrom(n *Notifier) func(ctx context.Context, text string) error {
	signal.Notify(r.quit, os.Interrupt)
	return func(ctx context.Context, text string) error {
		done := make(chan error)
		go func() { // want `goroutine abandoned on its send: .* nothing receives from done`
			done <- n.client.Notify(ctx, text)
		}()
		select {
		case err := <-done:
			return err
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
