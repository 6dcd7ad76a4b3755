// Package ldaplike is shaped as go-ldap's Conn, vendored into the program:
// every request hands its message to the connection's one loop through a
// channel of the connection's own.
package ldaplike

import "net"

type Conn struct {
	nc          net.Conn
	chanMessage chan string
}

func Dial(addr string) (*Conn, error) {
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		return nil, err
	}
	c := &Conn{nc: nc, chanMessage: make(chan string)}
	go c.processMessages()
	return c, nil
}

// Add sends the request to the connection's loop and waits for it to take
// it: a dependency's machinery.
func (c *Conn) Add(dn string) {
	c.chanMessage <- dn
}

func (c *Conn) processMessages() {
	for m := range c.chanMessage {
		_, _ = c.nc.Write([]byte(m))
	}
}
