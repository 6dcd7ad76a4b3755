// Package wire is shaped as an LDAP client library (go-ldap's Conn): Dial
// makes a connection and starts its reader, which hands each packet to the
// connection's own channel; the caller that made the connection reads it.
package wire

import (
	"io"
	"net"
)

type Conn struct {
	r       io.Reader
	packets chan []byte
}

func NewConn(r io.Reader) *Conn { return &Conn{r: r, packets: make(chan []byte)} }

// Start starts the connection's reader: its machinery, one per connection.
func (c *Conn) Start() { // want Start:"startsGoroutine" Start:"detachesPerCall\\(wire.go:20\\)"
	go c.reader()
}

func (c *Conn) reader() { // want reader:"parksOnSend\\(c.packets\\)"
	buf := make([]byte, 512)
	for {
		n, err := c.r.Read(buf)
		if err != nil {
			return
		}
		c.packets <- buf[:n]
	}
}

// Dial makes the connection it starts: the reader parks on that
// connection's own channel, which its caller drains.
func Dial(addr string) (*Conn, error) { // want Dial:"waitsOnNetwork"
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		return nil, err
	}
	c := NewConn(nc)
	c.Start()
	return c, nil
}
