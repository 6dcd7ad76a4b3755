// Package wsconn stands in for a websocket library (nhooyr's v1.8): each
// connection has its own write-timeout channel, read by a goroutine the
// connection starts, which writes a close frame when a write overruns
// before it takes the next deadline.
package wsconn

import (
	"context"
	"net"
	"net/http"
)

type Conn struct {
	writeTimeout chan context.Context
	nc           net.Conn
}

func Accept(w http.ResponseWriter, r *http.Request) (*Conn, error) {
	c := &Conn{writeTimeout: make(chan context.Context)}
	go c.timeoutLoop()
	return c, nil
}

func (c *Conn) timeoutLoop() {
	for ctx := range c.writeTimeout {
		<-ctx.Done()
		_, _ = c.nc.Write([]byte{0x88, 0})
	}
}

func (c *Conn) setWriteTimeout(ctx context.Context) { c.writeTimeout <- ctx }

func (c *Conn) Ping(ctx context.Context) error {
	c.setWriteTimeout(ctx)
	return nil
}
