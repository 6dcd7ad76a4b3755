package abandoned

import (
	"context"
	"fmt"
	"net"
	"net/http"
)

// serveUntilDone runs a server in a goroutine that reports its end on an
// unbuffered channel, and gives up on the context: the send comes only when
// the server stops, once per server the process runs. Silent.
func serveUntilDone(ctx context.Context, srv *http.Server, lis net.Listener) error {
	errch := make(chan error)
	go func() {
		if err := srv.Serve(lis); err != nil {
			errch <- fmt.Errorf("failed to serve: %w", err)
		}
	}()
	select {
	case err := <-errch:
		return err
	case <-ctx.Done():
		return srv.Shutdown(context.Background())
	}
}

// dialOrGiveUp: the same shape around a dial, once per call: when the
// context ends first, the dial's goroutine blocks on its send for ever.
func dialOrGiveUp(ctx context.Context, addr string) (net.Conn, error) {
	type result struct {
		conn net.Conn
		err  error
	}
	ch := make(chan result)
	go func() { // want `goroutine abandoned on its send`
		conn, err := net.Dial("tcp", addr)
		ch <- result{conn, err}
	}()
	select {
	case r := <-ch:
		return r.conn, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
