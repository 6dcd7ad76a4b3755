// Package detached has goroutines started once per request outside any
// loop, after pocketbase's mail sends and temporal's DescribeSchedule, and
// look-alikes that are bounded, cancelled, joined or not per request.
package detached

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"asyncpost"
	"example.com/historypb"
	"example.com/hook"
	"example.com/integration"
	"example.com/mailer"
	"example.com/mails"

	"github.com/labstack/echo/v4"
	"golang.org/x/sync/semaphore"
	"golang.org/x/sync/singleflight"
)

// Event and RequestEvent are shaped as pocketbase's router.Event and
// core.RequestEvent: the handler's argument carries the request.
type Event struct {
	Response http.ResponseWriter
	Request  *http.Request
}

type RequestEvent struct {
	Event
	App *mails.App
}

type ResetEvent struct {
	*RequestEvent
	Email string
}

type App struct {
	mails   *mails.App
	OnReset *hook.Hook[*ResetEvent]
	history historypb.HistoryClient
	sem     chan struct{}
	weights *semaphore.Weighted
	once    sync.Once
	sending atomic.Bool
	flight  singleflight.Group
	last    time.Time
	backend *asyncpost.Backend
}

// After pocketbase's OTP request: one goroutine per unauthenticated request
// waiting on the SMTP server, with no timeout and no cap.
func (a *App) requestOTP(e *RequestEvent) error {
	asyncpost.FireAndForget(func() { // want `ERR_UNBOUNDED_QUEUE_DETECTED: goroutine per request: this asyncpost.FireAndForget call \(it starts a goroutine at asyncpost.go:\d+\) starts, on every request, a goroutine that waits on the network \(mails.SendOTP\) with no deadline and no cancellation`
		_ = mails.SendOTP(a.mails, e.Request.FormValue("email"))
	})
	return nil
}

// After yorkie's PushPull: the work goes to the service's own background
// runner (a WaitGroup's Go after a shutdown check), behind a forwarder.
func (a *App) pushPull(e *RequestEvent) error {
	a.backend.Go(func(ctx context.Context) { // want `goroutine per request: this .*Go call \(it starts a goroutine at asyncpost.go:\d+\) starts, on every request, a goroutine that waits on the network \(mails.SendOTP\)`
		_ = mails.SendOTP(a.mails, e.Request.FormValue("email"))
	})
	return nil
}

// Trap: the same send, with a slot taken before the goroutine starts.
func (a *App) requestOTPBounded(e *RequestEvent) error { // want requestOTPBounded:"takesSlot"
	select {
	case a.sem <- struct{}{}:
	default:
		return errors.New("too many mails in flight")
	}
	asyncpost.FireAndForget(func() {
		defer func() { <-a.sem }()
		_ = mails.SendOTP(a.mails, e.Request.FormValue("email"))
	})
	return nil
}

// Trap: the goroutine takes a slot of a weighted semaphore first.
func (a *App) requestOTPWeighted(e *RequestEvent) error {
	go func() {
		if !a.weights.TryAcquire(1) {
			return
		}
		defer a.weights.Release(1)
		_ = mails.SendOTP(a.mails, e.Request.FormValue("email"))
	}()
	return nil
}

// After sftpgo's event actions: the goroutine waits for a slot of the
// app's semaphore before its work. The slot bounds the mails being sent,
// not the goroutines: each request leaves one waiting.
func (a *App) inviteWaitsForSlot(c echo.Context) error { // want inviteWaitsForSlot:"startsGoroutine"
	go func() { // want `goroutine per request: this go statement .*\(mails.SendOTP\)`
		a.sem <- struct{}{}
		defer func() { <-a.sem }()
		_ = mails.SendOTP(a.mails, c.Request().FormValue("email"))
	}()
	return nil
}

// After pocketbase's password reset: the goroutine is started in the hook's
// last handler, a function literal that runs during the request.
func (a *App) requestPasswordReset(e *RequestEvent) error {
	return a.OnReset.Trigger(&ResetEvent{RequestEvent: e}, func(r *ResetEvent) error {
		asyncpost.FireAndForget(func() { // want `goroutine per request: this asyncpost.FireAndForget call .* waits on the network \(mails.SendOTP\)`
			_ = mails.SendOTP(a.mails, r.Email)
		})
		return nil
	})
}

// After pocketbase's auth alert: the handler waits at most 15 s, through a
// channel a timer also feeds, and then leaves the goroutine running.
func (a *App) authAlert(e *RequestEvent) error {
	sent := make(chan error, 1)
	timer := time.AfterFunc(15*time.Second, func() {
		sent <- errors.New("auth alert mail send wait timeout reached")
	})
	asyncpost.FireAndForget(func() { // want `goroutine per request: .* waits on the network \(mails.SendOTP\)`
		err := mails.SendOTP(a.mails, "owner@example.com")
		timer.Stop()
		sent <- err
	})
	return <-sent
}

// Trap: the handler waits for the goroutine itself, on a channel only the
// goroutine sends on.
func (a *App) sendAndWait(e *RequestEvent) error {
	sent := make(chan error, 1)
	go func() {
		sent <- mails.SendOTP(a.mails, "owner@example.com")
	}()
	return <-sent
}

// Trap: fire-and-forget of work in memory, no network.
func (a *App) preview(w http.ResponseWriter, r *http.Request) { // want preview:"startsGoroutine"
	asyncpost.FireAndForget(func() {
		_ = mails.Preview(a.mails, r.FormValue("email"))
	})
	go (&mailer.Template{}).Render(&mailer.Message{})
}

// Trap: started once, at start-up, not per request.
func (a *App) Start() { // want Start:"startsGoroutine" Start:"detachesPerCall"
	go func() {
		_ = mails.SendOTP(a.mails, "admin@example.com")
	}()
}

// Traps: under a sync.Once, a singleflight, an in-flight flag, a minimum
// interval.
func (a *App) warmup(w http.ResponseWriter, r *http.Request) {
	a.once.Do(func() {
		go func() { _ = mails.SendOTP(a.mails, "admin@example.com") }()
	})
	a.flight.DoChan("digest", func() (any, error) {
		go func() { _ = mails.SendOTP(a.mails, "admin@example.com") }()
		return nil, nil
	})
}

func (a *App) digest(w http.ResponseWriter, r *http.Request) {
	if !a.sending.CompareAndSwap(false, true) {
		return
	}
	go func() {
		defer a.sending.Store(false)
		_ = mails.SendOTP(a.mails, "admin@example.com")
	}()
}

func (a *App) reminder(w http.ResponseWriter, r *http.Request) {
	if time.Since(a.last) > time.Minute {
		go func() { _ = mails.SendOTP(a.mails, "admin@example.com") }()
	}
}

// After temporal's DescribeSchedule: a gRPC method (a context and a
// generated request message) that pokes another service in a detached
// goroutine on context.Background(), through a wrapper that adds values.
func (a *App) Describe(ctx context.Context, req *historypb.SignalRequest) (*historypb.SignalResponse, error) { // want Describe:"startsGoroutine"
	go func() { // want `goroutine per request: this go statement starts, on every request, a goroutine that waits on the network \(\(historypb.HistoryClient\).Signal\)`
		detached := withCaller(context.Background(), "describe")
		_, _ = a.history.Signal(detached, &historypb.SignalRequest{Namespace: req.Namespace})
	}()
	return &historypb.SignalResponse{}, nil
}

func withCaller(ctx context.Context, who string) context.Context {
	return context.WithValue(ctx, callerKey{}, who)
}

type callerKey struct{}

// Traps: the request's own context (it ends with the request), and a
// context with a timeout (each goroutine ends by itself).
func (a *App) Refresh(ctx context.Context, req *historypb.SignalRequest) (*historypb.SignalResponse, error) { // want Refresh:"startsGoroutine"
	go func() {
		_, _ = a.history.Signal(ctx, req)
	}()
	go func() {
		tctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_, _ = a.history.Signal(tctx, req)
	}()
	go a.signal(context.Background(), req) // want `goroutine per request: this go statement .*\(\(historypb.HistoryClient\).Signal\)`
	go a.signalWithin(req)
	return &historypb.SignalResponse{}, nil
}

// Detach hands its goroutine the request's context with the cancellation
// taken off (vela's go build.Enqueue(context.WithoutCancel(ctx), …)): the
// context is never done, so it bounds nothing, as Background would not.
// Trap: a timeout added to the detached context ends each goroutine.
func (a *App) Detach(ctx context.Context, req *historypb.SignalRequest) (*historypb.SignalResponse, error) { // want Detach:"startsGoroutine"
	go a.signal(context.WithoutCancel(ctx), req) // want `goroutine per request: this go statement .*\(\(historypb.HistoryClient\).Signal\)`
	go a.signalDetached(ctx, req)
	return &historypb.SignalResponse{}, nil
}

func (a *App) signalDetached(ctx context.Context, req *historypb.SignalRequest) {
	tctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer cancel()
	_, _ = a.history.Signal(tctx, req)
}

func (a *App) signal(ctx context.Context, req *historypb.SignalRequest) { // want signal:"waitsOnNetwork"
	_, _ = a.history.Signal(ctx, req)
}

func (a *App) signalWithin(req *historypb.SignalRequest) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_, _ = a.history.Signal(ctx, req)
}

// Trap: a method of the same shape with no generated request message is
// not a request handler.
type Options struct{ Namespace string }

func (a *App) Apply(ctx context.Context, opts *Options) (*historypb.SignalResponse, error) { // want Apply:"startsGoroutine" Apply:"detachesPerCall"
	go func() {
		_, _ = a.history.Signal(context.Background(), &historypb.SignalRequest{})
	}()
	return nil, nil
}

// Trap: a goroutine per recipient is a goroutine per item, reported by the
// fan-out check, not twice.
func (a *App) notifyAll(w http.ResponseWriter, r *http.Request) {
	for _, to := range r.Form["to"] {
		go func() { _ = mails.SendOTP(a.mails, to) }() // want `goroutine per item`
	}
}

// An echo handler: echo.Context carries the request and its response.
func (a *App) invite(c echo.Context) error { // want invite:"startsGoroutine"
	go func() { // want `goroutine per request: this go statement .*\(mails.SendOTP\)`
		_ = mails.SendOTP(a.mails, c.Request().FormValue("email"))
	}()
	return c.NoContent(http.StatusAccepted)
}

// Trap: an outbound request builder has a Request method but no response
// writer: a function that takes one is not a handler.
type Outbound interface {
	Request() *http.Request
}

func (a *App) forward(o Outbound) { // want forward:"startsGoroutine" forward:"detachesPerCall"
	go func() {
		_ = mails.SendOTP(a.mails, o.Request().Host)
	}()
}

// After miniflux's save-entry handler: the integration's client has a
// timeout, out of sight of the handler but in the function that waits.
func (a *App) saveEntry(w http.ResponseWriter, r *http.Request) { // want saveEntry:"startsGoroutine"
	go integration.SendEntry(&integration.Entry{URL: r.FormValue("url")})
	w.WriteHeader(http.StatusAccepted)
}

// The same with a client that has no timeout.
func (a *App) saveEntryPlain(w http.ResponseWriter, r *http.Request) { // want saveEntryPlain:"startsGoroutine"
	go integration.SendPlain(&integration.Entry{URL: r.FormValue("url")}) // want `goroutine per request: this go statement .*\(integration.SendPlain\)`
	w.WriteHeader(http.StatusAccepted)
}
