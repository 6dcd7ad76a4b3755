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

// throughInterface is not followed: a Doer may be anything.
type Doer interface {
	Do(*http.Request) (*http.Response, error)
}

func throughInterface(d Doer, r *http.Request) { d.Do(r) }
