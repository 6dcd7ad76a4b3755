// Package wsconn stands in for a websocket library (nhooyr's v1.8): each
// connection has its own write-timeout channel, read at once by a
// goroutine the connection starts.
package wsconn

import (
	"context"
	"net/http"
)

type Conn struct{ writeTimeout chan context.Context }

func Accept(w http.ResponseWriter, r *http.Request) (*Conn, error) {
	c := &Conn{writeTimeout: make(chan context.Context)}
	go c.timeoutLoop()
	return c, nil
}

func (c *Conn) timeoutLoop() {
	for ctx := range c.writeTimeout {
		_ = ctx
	}
}

func (c *Conn) setWriteTimeout(ctx context.Context) { c.writeTimeout <- ctx }

func (c *Conn) Ping(ctx context.Context) error {
	c.setWriteTimeout(ctx)
	return nil
}
