// Package streamjobs reads requests from a peer, a message at a time, and
// starts work for each: as many goroutines as the peer sends messages.
package streamjobs

import (
	"context"
	"net"
	"net/http"

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

// ---- traps: must stay silent ----

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
