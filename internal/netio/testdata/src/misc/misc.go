package misc

import (
	"context"
	"net"
	"net/http"
)

// even and odd are mutually recursive; only odd dials.
func even(n int) error { // want even:`mayNetwork\(misc.odd → net.Dial\)`
	if n == 0 {
		return nil
	}
	return odd(n - 1)
}

func odd(n int) error { // want odd:`mayNetwork\(net.Dial\)`
	if n == 0 {
		_, err := net.Dial("tcp", "127.0.0.1:1")
		return err
	}
	return even(n - 1)
}

// fireAndForget starts a goroutine: it does not wait on the network itself.
func fireAndForget() {
	go http.Get("https://hooks.example")
}

// viaLiteral calls a function literal that calls out.
func viaLiteral() { // want viaLiteral:`mayNetwork\(func literal in misc.viaLiteral → http.Get\)`
	func() { http.Get("https://hooks.example") }()
}

// deferred calls run before the function returns: they count.
func deferred(ctx context.Context, d *net.Dialer) { // want deferred:`mayNetwork\(\(\*net.Dialer\).DialContext\)`
	defer d.DialContext(ctx, "tcp", "127.0.0.1:1")
}

type Fetcher[T any] struct{ URL string }

func (f Fetcher[T]) Fetch() (*http.Response, error) { // want Fetch:`mayNetwork\(http.Get\)`
	return http.Get(f.URL)
}

func useGeneric() { // want useGeneric:`mayNetwork\(\(misc.Fetcher\[T\]\).Fetch → http.Get\)`
	Fetcher[int]{URL: "https://x.example"}.Fetch()
}

// An interface shaped as (*http.Client).Do is how a library takes the
// caller's client (sling's Doer, an SDK's HTTPClient): whatever implements
// it sends the request and waits for the response.
type Doer interface {
	Do(*http.Request) (*http.Response, error)
}

func throughInterface(d Doer, r *http.Request) { d.Do(r) } // want throughInterface:`mayNetwork\(\(misc.Doer\).Do\)`

type receiver struct{ client Doer }

func (c *receiver) Receive(r *http.Request) error { // want Receive:`mayNetwork\(\(misc.Doer\).Do\)`
	_, err := c.client.Do(r)
	return err
}

func login(c *receiver, r *http.Request) error { // want login:`mayNetwork\(\(\*misc.receiver\).Receive → \(misc.Doer\).Do\)`
	return c.Receive(r)
}

// Traps: other interfaces are not followed, whatever their method's name:
// an implementation may be anything.
type Job interface {
	Do(ctx context.Context) error
}

func runJob(ctx context.Context, j Job) error { return j.Do(ctx) }

type Handler interface {
	Do(*http.Request) error
}

func handle(h Handler, r *http.Request) error { return h.Do(r) }

// resolver's one implementation dials: a call through it reaches the
// network, found a round after the static calls.
type resolver interface {
	Resolve(name string) error // want Resolve:`mayNetwork\(\(misc.dialResolver\).Resolve → net.Dial\)`
}

type dialResolver struct{}

func (dialResolver) Resolve(name string) error { // want Resolve:`mayNetwork\(net.Dial\)`
	_, err := net.Dial("tcp", name)
	return err
}

// resolveThenFetch waits first on the resolver, then on http.Get: its fact
// names the first in the source, the line a reader meets first.
func resolveThenFetch(r resolver, url string) error { // want resolveThenFetch:`mayNetwork\(\(misc.resolver\).Resolve → \(misc.dialResolver\).Resolve → net.Dial\)`
	if err := r.Resolve(url); err != nil {
		return err
	}
	_, err := http.Get(url)
	return err
}
