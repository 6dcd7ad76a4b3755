// Package lifetime holds a command's Run, which waits for the process's
// stop signal and so runs once per process, and its look-alikes.
package lifetime

import (
	"context"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"

	"golang.org/x/sync/errgroup"
)

type Module interface {
	Start() error
	Stop(ctx context.Context) error
}

var registered []Module

// Register is called from the modules' init functions.
func Register(m Module) { registered = append(registered, m) }

// Modules returns the modules compiled in.
func Modules() []Module { return append([]Module(nil), registered...) }

func post(ctx context.Context, url string) error { // want post:"waitsOnNetwork"
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Run starts every module, waits for SIGTERM and stops them: it runs for
// the life of the process, so the fan-outs start as many goroutines as
// modules are compiled in, once. Silent.
func Run() {
	apps := Modules()
	for _, a := range apps {
		go func(m Module) { _ = m.Start() }(a)
	}
	quit := make(chan os.Signal, 1)
	signal.Notify(quit, syscall.SIGINT, syscall.SIGTERM)
	<-quit
	for _, a := range apps {
		go func(m Module) { _ = m.Stop(context.Background()) }(a)
	}
}

// Serve takes its stop signal from signal.NotifyContext. Silent.
func Serve(urls []string) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	for _, u := range urls {
		go post(ctx, u)
	}
	<-ctx.Done()
}

// ---- still reported ----

// Broadcast is handed its list by whoever calls it, any number of times.
func Broadcast(ctx context.Context, urls []string) {
	for _, u := range urls {
		go post(ctx, u) // want `goroutine per item: this go statement starts one goroutine for every element of urls`
	}
}

// WatchAndBroadcast subscribes to signals only inside the goroutine it
// starts; it can be called again and again.
func WatchAndBroadcast(ctx context.Context, urls []string) {
	go func() {
		c := make(chan os.Signal, 1)
		signal.Notify(c, syscall.SIGHUP)
		<-c
	}()
	for _, u := range urls {
		go post(ctx, u) // want `goroutine per item: this go statement starts one goroutine for every element of urls`
	}
}

// ---- one server per listening socket ----

// ServeAll serves every address the configuration names, one goroutine
// per listener the process opened: its own ports, not requests. Silent.
func ServeAll(srv *http.Server, addrs []string) error {
	var listeners []net.Listener
	for _, a := range addrs {
		ln, err := net.Listen("tcp", a)
		if err != nil {
			return err
		}
		listeners = append(listeners, ln)
	}
	for _, ln := range listeners {
		go srv.Serve(ln)
	}
	g := &errgroup.Group{}
	for _, ln := range listeners {
		g.Go(func() error { return srv.Serve(ln) })
	}
	return g.Wait()
}

// HandleAll starts a goroutine per accepted connection handed in: clients,
// not the process's own sockets.
func HandleAll(ctx context.Context, conns []net.Conn, url string) {
	for _, c := range conns {
		go func(c net.Conn) { // want `goroutine per item: this go statement starts one goroutine for every element of conns`
			defer c.Close()
			_ = post(ctx, url)
		}(c)
	}
}
