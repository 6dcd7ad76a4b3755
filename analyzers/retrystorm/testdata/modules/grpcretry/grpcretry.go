// Package grpcretry retries gRPC calls by hand: through the generated
// client interface, whose implementation the analyzer does not see, and on
// streams.
package grpcretry

import (
	"context"
	"errors"
	"io"
	"log"
	"math/rand/v2"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"example.com/retrymod/echopb"
)

// ---- positives ----

// echoThreeTimes retries a unary call three times with nothing in between.
func echoThreeTimes(ctx context.Context, c echopb.EchoClient) (*echopb.Resp, error) {
	var err error
	for i := 0; i < 3; i++ { // want `this loop retries \(echopb.EchoClient\).Echo \(a network call: → \(\*echopb.echoClient\).Echo → \(grpc.ClientConnInterface\).Invoke\) when it fails with no pause between attempts`
		var resp *echopb.Resp
		resp, err = c.Echo(ctx, &echopb.Req{Key: "k"})
		if err == nil {
			return resp, nil
		}
	}
	return nil, err
}

// echoEvery100ms: bounded, but every client retries in step.
func echoEvery100ms(ctx context.Context, c echopb.EchoClient) (*echopb.Resp, error) {
	var err error
	for i := 0; i < 5; i++ { // want `this loop retries \(echopb.EchoClient\).Echo \(a network call: → \(\*echopb.echoClient\).Echo → \(grpc.ClientConnInterface\).Invoke\) when it fails waiting a constant 100ms between attempts with no backoff or jitter`
		var resp *echopb.Resp
		if resp, err = c.Echo(ctx, &echopb.Req{Key: "k"}); err == nil {
			return resp, nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return nil, err
}

// watchForever: once the stream is broken, Recv fails at once every time.
func watchForever(stream grpc.ServerStreamingClient[echopb.Resp], out chan<- *echopb.Resp) {
	for { // want `this loop calls \(grpc.ServerStreamingClient\[echopb.Resp\]\).Recv again at once when it fails, with no pause and no way out on an error`
		resp, err := stream.Recv()
		if err != nil {
			log.Printf("watch: %v", err)
			continue
		}
		out <- resp
	}
}

// chatForever: the server side of a bidirectional stream.
func chatForever(stream grpc.BidiStreamingServer[echopb.Req, echopb.Resp]) error {
	for { // want `this loop calls \(grpc.BidiStreamingServer\[echopb.Req, echopb.Resp\]\).Recv again at once when it fails`
		req, err := stream.Recv()
		if err != nil {
			log.Print(err)
			continue
		}
		if err := stream.Send(&echopb.Resp{Value: req.Key}); err != nil {
			return err
		}
	}
}

// echoWhileUnavailable retries on Unavailable, for ever, at once.
func echoWhileUnavailable(ctx context.Context, c echopb.EchoClient) (*echopb.Resp, error) {
	for { // want `this loop retries \(echopb.EchoClient\).Echo \(a network call: → \(\*echopb.echoClient\).Echo → \(grpc.ClientConnInterface\).Invoke\) when it fails with no bound on attempts, with no pause`
		resp, err := c.Echo(ctx, &echopb.Req{Key: "k"})
		if status.Code(err) == codes.Unavailable {
			continue
		}
		return resp, err
	}
}

// echoUntilOK: the same written against codes.OK, three times.
func echoUntilOK(ctx context.Context, c echopb.EchoClient) error {
	var err error
	for range 3 { // want `this loop retries \(echopb.EchoClient\).Echo \(a network call: → \(\*echopb.echoClient\).Echo → \(grpc.ClientConnInterface\).Invoke\) when it fails with no pause`
		_, err = c.Echo(ctx, &echopb.Req{Key: "k"})
		if status.Code(err) != codes.OK {
			continue
		}
		return nil
	}
	return err
}

// ---- traps ----

// echoUnavailableBackoff: bounded, exponential and jittered, on Unavailable.
func echoUnavailableBackoff(ctx context.Context, c echopb.EchoClient) (*echopb.Resp, error) {
	delay := 50 * time.Millisecond
	for i := 0; ; i++ {
		resp, err := c.Echo(ctx, &echopb.Req{Key: "k"})
		if status.Code(err) != codes.Unavailable || i == 4 {
			return resp, err
		}
		time.Sleep(delay/2 + rand.N(delay))
		delay *= 2
	}
}

// echoBackoff: bounded, exponential and jittered.
func echoBackoff(ctx context.Context, c echopb.EchoClient) (*echopb.Resp, error) {
	delay := 50 * time.Millisecond
	var err error
	for i := 0; i < 5; i++ {
		var resp *echopb.Resp
		if resp, err = c.Echo(ctx, &echopb.Req{Key: "k"}); err == nil {
			return resp, nil
		}
		time.Sleep(delay/2 + rand.N(delay))
		delay *= 2
	}
	return nil, err
}

// watchUntilEOF is temporal's stream sender: any error leaves.
func watchUntilEOF(stream grpc.ServerStreamingClient[echopb.Resp], out chan<- *echopb.Resp) error {
	for {
		resp, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		out <- resp
	}
}

// watchHandsOver is temporal's BiDirectionStream.recvLoop: io.EOF ends the
// loop and other errors go to the consumer, which paces it.
func watchHandsOver(stream grpc.ServerStreamingClient[echopb.Resp], out chan<- error) {
	for {
		_, err := stream.Recv()
		switch err {
		case nil:
		case io.EOF:
			return
		default:
			out <- err
		}
	}
}

// echoEach sends each key once; a failed one is skipped, not retried.
func echoEach(ctx context.Context, c echopb.EchoClient, keys <-chan string) {
	for {
		k := <-keys
		if _, err := c.Echo(ctx, &echopb.Req{Key: k}); err != nil {
			continue
		}
	}
}
