package testsvc

import (
	"io"
	"net"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
)

// Proxy is a TCP proxy between a client under test and a real server, on
// 127.0.0.1, that the test breaks on purpose:
//
//   - Cut closes every connection and refuses new ones (the listener is
//     closed): a partition the client sees at once.
//   - Hang stops forwarding on every open connection and accepts new ones
//     without ever forwarding them: a server or network that went silent.
//     A hung connection stays hung, even after Heal, until the client
//     closes it, as one whose packets a partition dropped would.
//   - Heal makes new connections reach the server again.
//
// Everything is closed at the end of the test.
type Proxy struct {
	t      testing.TB
	target string
	addr   string

	mu    sync.Mutex
	ln    net.Listener
	hung  bool
	conns map[*proxyConn]struct{}
	wg    sync.WaitGroup
}

// proxyConn is one client connection and, unless it was hung from the
// start, its connection to the server.
type proxyConn struct {
	client, server net.Conn
	hung           chan struct{} // closed when the connection stops forwarding
	hangOnce       sync.Once
	pipes          atomic.Int32 // goroutines still serving it
}

// NewProxy listens on a free port of 127.0.0.1 and forwards to target.
func NewProxy(t testing.TB, target string) *Proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{t: t, target: target, addr: ln.Addr().String(), conns: map[*proxyConn]struct{}{}}
	p.serve(ln)
	t.Cleanup(func() {
		p.Cut()
		p.wg.Wait()
	})
	return p
}

// Addr is the address clients connect to.
func (p *Proxy) Addr() string { return p.addr }

// Cut closes every connection and refuses new ones until Heal.
func (p *Proxy) Cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		p.ln.Close()
		p.ln = nil
	}
	for c := range p.conns {
		c.close()
	}
	clear(p.conns)
}

// Hang stops forwarding on every open connection, for good, and makes new
// connections be accepted but never forwarded, until Heal.
func (p *Proxy) Hang() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.hung = true
	for c := range p.conns {
		c.hang()
	}
}

// Heal ends a Cut or a Hang: new connections reach the server again.
// Connections that were hung stay hung.
func (p *Proxy) Heal() {
	p.mu.Lock()
	p.hung = false
	relisten := p.ln == nil
	p.mu.Unlock()
	if !relisten {
		return
	}
	ln, err := net.Listen("tcp", p.addr)
	if err != nil {
		p.t.Fatalf("proxy: listening on %s again: %v", p.addr, err)
	}
	p.serve(ln)
}

// Conns is the number of client connections open through the proxy.
func (p *Proxy) Conns() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.conns)
}

func (p *Proxy) serve(ln net.Listener) {
	p.mu.Lock()
	p.ln = ln
	p.mu.Unlock()
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			p.open(c)
		}
	}()
}

// open starts forwarding a new client connection, or holds it if the proxy
// is hung.
func (p *Proxy) open(client net.Conn) {
	p.mu.Lock()
	hung := p.hung
	p.mu.Unlock()
	c := &proxyConn{client: client, hung: make(chan struct{})}
	if !hung {
		server, err := net.Dial("tcp", p.target)
		if err != nil {
			client.Close()
			return
		}
		c.server = server
	}
	p.mu.Lock()
	if p.ln == nil { // cut while dialing
		p.mu.Unlock()
		c.close()
		return
	}
	p.conns[c] = struct{}{}
	if hung || p.hung {
		c.hang()
	}
	p.mu.Unlock()
	if c.server == nil {
		c.pipes.Store(1)
		p.wg.Add(1)
		go func() { // swallow what the client sends; answer nothing
			defer p.wg.Done()
			_, _ = io.Copy(io.Discard, client)
			p.forget(c)
		}()
		return
	}
	c.pipes.Store(2)
	p.wg.Add(2)
	go func() { defer p.wg.Done(); c.pipe(c.server, c.client); p.forget(c) }()
	go func() { defer p.wg.Done(); c.pipe(c.client, c.server); p.forget(c) }()
}

// pipe copies src to dst until either closes or the connection hangs; a
// hung connection reads on (so the sender is not pushed back) and forwards
// nothing.
func (c *proxyConn) pipe(dst, src net.Conn) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			select {
			case <-c.hung:
			default:
				if _, werr := dst.Write(buf[:n]); werr != nil {
					c.close()
					return
				}
			}
		}
		if err != nil {
			select {
			case <-c.hung: // a hung connection does not pass its close on either
				c.client.Close()
			default:
				c.close()
			}
			return
		}
	}
}

func (c *proxyConn) hang() { c.hangOnce.Do(func() { close(c.hung) }) }

func (c *proxyConn) close() {
	c.client.Close()
	if c.server != nil {
		c.server.Close()
	}
}

// forget drops c once its last goroutine is done: until then Cut must
// still be able to close it (a hung connection's server side outlives its
// client side).
func (p *Proxy) forget(c *proxyConn) {
	if c.pipes.Add(-1) > 0 {
		return
	}
	p.mu.Lock()
	delete(p.conns, c)
	p.mu.Unlock()
}

// PostgresProxy is a Proxy in front of the test PostgreSQL and the DSN that
// connects through it.
func PostgresProxy(t testing.TB) (dsn string, p *Proxy) {
	t.Helper()
	dsn = PostgresDSN(t)
	u, err := url.Parse(dsn)
	if err != nil || u.Host == "" {
		t.Fatalf("BHLINT_PG_DSN %q: a proxy needs a postgres:// URL with a host (%v)", dsn, err)
	}
	target := u.Host
	if u.Port() == "" {
		target = net.JoinHostPort(u.Hostname(), "5432")
	}
	p = NewProxy(t, target)
	u.Host = p.Addr()
	return u.String(), p
}
