// Package readers holds reader loops — loops that also go round after a
// success — that go round again at once on an error, and their look-alikes.
package readers

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"time"

	"github.com/cenkalti/backoff/v4"
)

func handle(c net.Conn) { c.Close() }

// ---- positives: the failure goes round again at once, for ever ----

// acceptForever: once the listener is closed, Accept fails at once every
// time and the loop spins, logging.
func acceptForever(l net.Listener) {
	for { // want `ERR_UNBOUNDED_RETRY_DETECTED: this loop calls \(net.Listener\).Accept again at once when it fails, with no pause and no way out on an error: once its listener, connection, stream or subscription is closed every call fails at once, and the loop spins and floods the log; return the error \(or leave on the errors that persist`
		c, err := l.Accept()
		if err != nil {
			log.Printf("accept: %v", err)
			continue
		}
		go handle(c)
	}
}

// readUDPForever: the same on a packet connection's reads (a network call).
func readUDPForever(conn *net.UDPConn, out chan<- []byte) {
	buf := make([]byte, 1500)
	for { // want `this loop calls \(\*net.UDPConn\).ReadFromUDP again at once when it fails`
		n, _, err := conn.ReadFromUDP(buf)
		if err != nil {
			log.Print(err)
			continue
		}
		out <- append([]byte(nil), buf[:n]...)
	}
}

// pollWithSleepOnSuccessOnly: the sleep is skipped by the continue, so a
// persistent error spins.
func pollWithSleepOnSuccessOnly(l net.Listener) { // want pollWithSleepOnSuccessOnly:"sleeps\\(constant\\)"
	for { // want `this loop calls \(net.Listener\).Accept again at once when it fails`
		c, err := l.Accept()
		if err != nil {
			continue
		}
		handle(c)
		time.Sleep(time.Second)
	}
}

// ---- traps: must stay silent ----

// acceptTemporary is net/http's Serve: it sleeps with a growing delay on a
// temporary error and returns on any other.
func acceptTemporary(l net.Listener) error {
	var delay time.Duration
	for {
		c, err := l.Accept()
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				if delay == 0 {
					delay = 5 * time.Millisecond
				} else {
					delay *= 2
				}
				time.Sleep(delay)
				continue
			}
			return err
		}
		delay = 0
		go handle(c)
	}
}

// acceptUntilClosed returns once the listener is closed: a way out on the
// error.
func acceptUntilClosed(l net.Listener) error {
	for {
		c, err := l.Accept()
		if errors.Is(err, net.ErrClosed) {
			return nil
		}
		if err != nil {
			log.Print(err)
			continue
		}
		go handle(c)
	}
}

// acceptWithPause waits a second after a failure.
func acceptWithPause(l net.Listener) { // want acceptWithPause:"sleeps\\(constant\\)"
	for {
		c, err := l.Accept()
		if err != nil {
			log.Print(err)
			time.Sleep(time.Second)
			continue
		}
		go handle(c)
	}
}

// acceptUntilDone checks its context every round (select with default).
func acceptUntilDone(ctx context.Context, l net.Listener) {
	for {
		select {
		case <-ctx.Done():
			return
		default:
		}
		c, err := l.Accept()
		if err != nil {
			continue
		}
		go handle(c)
	}
}

// acceptBounded gives up after ten failures in a row.
func acceptBounded(l net.Listener) error {
	failures := 0
	for {
		c, err := l.Accept()
		if err != nil {
			failures++
			if failures > 10 {
				return err
			}
			continue
		}
		failures = 0
		go handle(c)
	}
}

// refreshOnTick has the shape of temporal's certificate refresh: the
// ticker paces every round, the failed one included, and stop ends it.
func refreshOnTick(ticker *time.Ticker, stop <-chan struct{}, l net.Listener) { // want refreshOnTick:"sleeps\\(constant\\)"
	for {
		select {
		case <-stop:
			return
		case <-ticker.C:
		}
		c, err := l.Accept()
		if err != nil {
			log.Print(err)
			continue
		}
		handle(c)
	}
}

// recvToChannel is temporal's stream receiver: the error is handed to the
// consumer, which paces the loop, and io.EOF ends it.
func recvToChannel(conn *net.UDPConn, out chan<- error) {
	buf := make([]byte, 1500)
	for {
		_, _, err := conn.ReadFromUDP(buf)
		switch err {
		case nil:
		case io.EOF:
			return
		default:
			out <- err
		}
	}
}

// csvSkipBadLines is listmonk's importer: a record with the wrong number of
// fields is skipped and the reader moves on to the next; io.EOF ends.
func csvSkipBadLines(r *csv.Reader) ([][]string, error) {
	var out [][]string
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) && pe.Err == csv.ErrFieldCount {
				continue
			}
			return nil, err
		}
		out = append(out, rec)
	}
	return out, nil
}

// ---- a continue that skips an item: the next round has other input ----

type Tuple struct{ Key string }

type Iterator interface {
	Next(ctx context.Context) (*Tuple, error)
}

// filteredNext has the shape of openfga's
// ConditionsFilteredTupleKeyIterator.Next: a tuple whose check fails is
// skipped, and Next's own error leaves.
func filteredNext(ctx context.Context, it Iterator) (*Tuple, error) {
	for {
		t, err := it.Next(ctx)
		if err != nil {
			return nil, err
		}
		addrs, err := net.LookupHost(t.Key)
		if err != nil {
			continue
		}
		if len(addrs) > 0 {
			return t, nil
		}
	}
}

// acceptOrDie ends the program on an error: log.Fatal does not return.
func acceptOrDie(l net.Listener) {
	for {
		c, err := l.Accept()
		if err != nil {
			log.Fatalf("accept: %v", err)
		}
		go handle(c)
	}
}

// acceptFallThrough logs the error and goes on with a nil connection: the
// failure still goes round at once.
func acceptFallThrough(l net.Listener) {
	for { // want `this loop calls \(net.Listener\).Accept again at once when it fails`
		c, err := l.Accept()
		if err != nil {
			log.Print(err)
		}
		if c != nil {
			go handle(c)
		}
	}
}

// acceptBackoff waits for the policy's next delay after a failure.
func acceptBackoff(l net.Listener) { // want acceptBackoff:"sleeps\\(growing\\)"
	b := backoff.NewExponentialBackOff()
	for {
		c, err := l.Accept()
		if err != nil {
			time.Sleep(b.NextBackOff())
			continue
		}
		b.Reset()
		go handle(c)
	}
}

// acceptTimer waits on a re-armed timer after a failure.
func acceptTimer(l net.Listener) { // want acceptTimer:"sleeps\\(constant\\)"
	t := time.NewTimer(0)
	<-t.C
	for {
		c, err := l.Accept()
		if err != nil {
			t.Reset(100 * time.Millisecond)
			<-t.C
			continue
		}
		go handle(c)
	}
}

// ---- requests polled in a loop: a shutdown check is no way out ----

// longPoller is crowdsec's long-poll client: each round sends a new
// request, and the events it fetched go to a consumer.
type longPoller struct {
	client *http.Client
	url    string
	events chan string
	errs   chan error
	dying  chan struct{}
}

// poll sends the request and hands each event to the consumer: the send
// paces the rounds that succeed; a failed request returns before it.
func (p *longPoller) poll() error {
	resp, err := p.client.Get(p.url)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var evs []string
	if err := json.NewDecoder(resp.Body).Decode(&evs); err != nil {
		return err
	}
	for _, e := range evs {
		p.events <- e
	}
	return nil
}

// pollEvents checks for shutdown without waiting, then polls: while the
// server is down every request fails at once and the loop goes round
// again, until the process stops.
func (p *longPoller) pollEvents() error {
	for { // want `this loop calls \(\*readers.longPoller\).poll \(a network call: → \(\*http.Client\).Get\) again at once when it fails, with no pause and no way out on an error: while its server is down every request fails at once`
		select {
		case <-p.dying:
			return nil
		default:
			if err := p.poll(); err != nil {
				log.Printf("poll: %v", err)
				continue
			}
		}
	}
}

var errUnauthorized = errors.New("unauthorized")

// pollUntilUnauthorized leaves on one answer of the server; while the
// server is down no request gets that answer, and each failure goes round
// at once.
func (p *longPoller) pollUntilUnauthorized() error {
	for { // want `this loop calls \(\*readers.longPoller\).poll \(a network call: → \(\*http.Client\).Get\) again at once when it fails`
		err := p.poll()
		if err != nil {
			if errors.Is(err, errUnauthorized) {
				return err
			}
			continue
		}
		log.Print("polled")
	}
}

var errRetryable = errors.New("retryable")

// pollWhileRetryable leaves on every error but one: a server that is down
// answers with another error, and the loop returns it.
func (p *longPoller) pollWhileRetryable() error {
	for {
		err := p.poll()
		if err != nil {
			if !errors.Is(err, errRetryable) {
				return err
			}
			continue
		}
		log.Print("polled")
	}
}

// PollUntilCancelled: the same with ctx.Err() of a context that ends at
// shutdown.
func (p *longPoller) PollUntilCancelled(ctx context.Context) {
	for { // want `this loop calls \(\*readers.longPoller\).poll \(a network call: → \(\*http.Client\).Get\) again at once when it fails, with no pause and no way out on an error: while its server is down every request fails at once`
		if ctx.Err() != nil {
			return
		}
		if err := p.poll(); err != nil {
			continue
		}
		log.Print("polled")
	}
}

// pollReported hands every failure to a consumer before returning it: the
// consumer paces the failing rounds.
func (p *longPoller) pollReported() error {
	resp, err := p.client.Get(p.url)
	if err != nil {
		p.errs <- err
		return err
	}
	resp.Body.Close()
	return nil
}

func (p *longPoller) pollEventsReported() {
	for {
		select {
		case <-p.dying:
			return
		default:
		}
		if err := p.pollReported(); err != nil {
			continue
		}
		log.Print("polled")
	}
}

// pollWithinDeadline: the context has a deadline, which ends the loop
// whatever the server does.
func (p *longPoller) pollWithinDeadline(parent context.Context) {
	ctx, cancel := context.WithTimeout(parent, 30*time.Second)
	defer cancel()
	for {
		select {
		case <-ctx.Done():
			return
		default:
		}
		if err := p.poll(); err != nil {
			continue
		}
		log.Print("polled")
	}
}
