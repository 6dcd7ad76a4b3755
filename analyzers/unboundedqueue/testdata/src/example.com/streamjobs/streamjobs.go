// Package streamjobs reads requests from a peer, a message at a time, and
// starts work for each: as many goroutines as the peer sends messages.
package streamjobs

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"strings"

	"github.com/gorilla/websocket"
	"google.golang.org/grpc"
)

type PollRequest struct{ URL string }

// PollStream is a generated client stream: Recv is its typed RecvMsg.
type PollStream interface {
	grpc.ClientStream
	Recv() (*PollRequest, error)
}

func poll(ctx context.Context, req *PollRequest) error { // want poll:"waitsOnNetwork"
	r, err := http.NewRequestWithContext(ctx, http.MethodGet, req.URL, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// listenForPolls: one goroutine per request the control plane sends.
func listenForPolls(ctx context.Context, stream grpc.ClientStream) {
	for {
		req := PollRequest{}
		if err := stream.RecvMsg(&req); err != nil {
			return
		}
		go func() { // want `goroutine per item: this go statement starts one goroutine for every message read by stream.RecvMsg`
			_ = poll(ctx, &req)
		}()
	}
}

// listenTyped: the same through the generated Recv.
func listenTyped(ctx context.Context, stream PollStream) {
	for {
		req, err := stream.Recv()
		if err != nil {
			return
		}
		go poll(ctx, req) // want `goroutine per item: this go statement starts one goroutine for every message read by stream.Recv`
	}
}

// readPump: one goroutine per WebSocket message the client sends.
func readPump(ctx context.Context, conn *websocket.Conn) {
	for {
		_, msg, err := conn.ReadMessage()
		if err != nil {
			return
		}
		go poll(ctx, &PollRequest{URL: string(msg)}) // want `goroutine per item: this go statement starts one goroutine for every message read by conn.ReadMessage`
	}
}

// client reads a connected CLI's messages.
type client struct {
	conn     *websocket.Conn
	watching bool
}

// readPump hands each message to processMessage, which starts a goroutine
// for every message of the kinds that ask for work: the message picks the
// goroutine, and nothing counts them.
func (c *client) readPump(ctx context.Context) {
	for {
		kind, msg, err := c.conn.ReadMessage()
		c.processMessage(ctx, kind, msg) // want `goroutine per item: this \(\*streamjobs.client\).processMessage call \(it starts a goroutine at streamjobs.go:99\) starts one goroutine for every message read by c.conn.ReadMessage`
		if err != nil {
			return
		}
	}
}

func (c *client) processMessage(ctx context.Context, kind int, msg []byte) { // want processMessage:"startsGoroutine"
	if kind != websocket.TextMessage {
		return
	}
	text := string(msg)
	if text == "disconnect" {
		return
	}
	if strings.HasPrefix(text, "since") {
		go poll(ctx, &PollRequest{URL: strings.TrimPrefix(text, "since|")})
		return
	}
	var req PollRequest
	if err := json.Unmarshal(msg, &req); err != nil {
		return
	}
	go poll(ctx, &req)
}

// notifyAll starts notify's goroutine for every user with an address.
func notifyAll(ctx context.Context, urls []string) {
	for _, u := range urls {
		notify(ctx, u) // want `goroutine per item: this streamjobs.notify call \(it starts a goroutine at streamjobs.go:121\) starts one goroutine for every element of urls`
	}
}

func notify(ctx context.Context, url string) { // want notify:"startsGoroutine"
	switch {
	case url == "":
		return
	case strings.HasPrefix(url, "https://"):
		go poll(ctx, &PollRequest{URL: url})
	}
}

// socketConn is the service's own interface around the WebSocket, kept
// so that tests can hand a fake: gorilla's Conn implements it, and its
// ReadMessage is the peer's next message.
type socketConn interface {
	ReadMessage() (messageType int, p []byte, err error)
	Close() error
}

type wrappedClient struct{ conn socketConn }

// readPump reads through the interface: one goroutine per message still.
func (w *wrappedClient) readPump(ctx context.Context) {
	for {
		_, msg, err := w.conn.ReadMessage()
		if err != nil {
			return
		}
		go poll(ctx, &PollRequest{URL: string(msg)}) // want `goroutine per item: this go statement starts one goroutine for every message read by w.conn.ReadMessage`
	}
}

// ---- traps: must stay silent ----

// inbox is read like a connection, but no connection type implements it
// (gorilla's Conn has no Ack): its messages come from this process.
type inbox interface {
	ReadMessage() (messageType int, p []byte, err error)
	Ack(id string) error
}

// drainInbox loops on a local inbox: its pace is the process's own.
func drainInbox(ctx context.Context, in inbox) {
	for {
		_, msg, err := in.ReadMessage()
		if err != nil {
			return
		}
		go poll(ctx, &PollRequest{URL: string(msg)})
	}
}

// watchPump hands each message to watchOnce, which starts its goroutine
// only while the client is not watching yet: state, not the message,
// decides, and it starts one in all.
func (c *client) watchPump(ctx context.Context) {
	for {
		_, msg, err := c.conn.ReadMessage()
		if err != nil {
			return
		}
		c.watchOnce(ctx, msg)
	}
}

func (c *client) watchOnce(ctx context.Context, msg []byte) {
	if c.watching {
		return
	}
	c.watching = true
	go poll(ctx, &PollRequest{URL: string(msg)})
}

// boundedBySlot takes a slot before each goroutine.
func boundedBySlot(ctx context.Context, stream PollStream) {
	slots := make(chan struct{}, 8)
	for {
		req, err := stream.Recv()
		if err != nil {
			return
		}
		slots <- struct{}{}
		go func() {
			defer func() { <-slots }()
			_ = poll(ctx, req)
		}()
	}
}

// handledInline handles each message before reading the next.
func handledInline(ctx context.Context, stream PollStream) { // want handledInline:"waitsOnNetwork"
	for {
		req, err := stream.Recv()
		if err != nil {
			return
		}
		_ = poll(ctx, req)
	}
}

// servesEachConnection: a listener's Accept yields connections, the
// server's sources, not messages.
func servesEachConnection(ln net.Listener, serve func(net.Conn)) { // want servesEachConnection:"servesConns"
	for {
		conn, err := ln.Accept()
		if err != nil {
			return
		}
		go serve(conn)
	}
}
