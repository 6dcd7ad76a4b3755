// Package wsheartbeat pings websockets, after coder's httpapi.Heartbeat:
// a goroutine per connection that sends on the connection's own queue.
package wsheartbeat

import (
	"context"
	"net/http"
	"time"

	"example.com/wsconn"
)

// Heartbeat parks on the queue of the connection it is given.
func Heartbeat(ctx context.Context, conn *wsconn.Conn) { // want Heartbeat:`parksOnSend\(c.writeTimeout via \(\*wsconn.Conn\).Ping\)`
	ticker := time.NewTicker(15 * time.Second)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
		}
		_ = conn.Ping(ctx)
	}
}

type server struct{ conn *wsconn.Conn }

// Trap: the connection is the request's own, accepted here; its queue has
// the consumer the connection started, one per connection.
func (s *server) serve(w http.ResponseWriter, r *http.Request) {
	conn, err := wsconn.Accept(w, r)
	if err != nil {
		return
	}
	go Heartbeat(r.Context(), conn)
	<-r.Context().Done()
}

// One connection every request shares: each request leaves a goroutine
// waiting on its queue.
func (s *server) serveShared(w http.ResponseWriter, r *http.Request) {
	go Heartbeat(r.Context(), s.conn) // want `goroutine per request: this go statement leaves one goroutine per request waiting to send on c.writeTimeout`
}
