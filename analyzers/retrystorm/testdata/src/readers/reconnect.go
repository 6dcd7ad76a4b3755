package readers

import (
	"context"
	"database/sql"
	"log"
	"math/rand/v2"
	"net/http"
	"time"
)

// ---- reconnect loops: a long-lived request re-sent after a pause taken
// only on failure ----

// listener holds a subscription that a request keeps open (centrifugo's
// LISTEN on PostgreSQL, a long poll): listen returns when it fails.
type listener struct {
	client *http.Client
	url    string
}

func (l *listener) listen(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, l.url, nil)
	if err != nil {
		return err
	}
	resp, err := l.client.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// After centrifugo's outbox consumer: a constant second between
// reconnects, on every instance at once when the server comes back.
func (l *listener) Run(ctx context.Context) error {
	for { // want `ERR_UNBOUNDED_RETRY_DETECTED: this loop retries \(\*readers.listener\).listen \(a network call: → \(\*http.Client\).Do\) when it fails waiting a constant time between attempts with no backoff or jitter`
		select {
		case <-ctx.Done():
			return ctx.Err()
		default:
		}
		if err := l.listen(ctx); err != nil {
			log.Print(err)
			select {
			case <-time.After(time.Second):
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
}

// Look-alikes: a backoff that grows (with jitter), and a poll that waits
// every round, failed or not.
func (l *listener) RunWithBackoff(ctx context.Context) error {
	wait := 100 * time.Millisecond
	for {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err := l.listen(ctx); err != nil {
			time.Sleep(wait + rand.N(wait))
			wait = min(2*wait, 30*time.Second)
			continue
		}
		wait = 100 * time.Millisecond
	}
}

func (l *listener) Poll(ctx context.Context) {
	for {
		if ctx.Err() != nil {
			return
		}
		if err := l.listen(ctx); err != nil {
			log.Print(err)
		}
		time.Sleep(5 * time.Second)
	}
}

// The same with a database session: a connection taken from the pool and
// held while it listens. A database round trip counts as a request.
type dbListener struct{ db *sql.DB }

func (d *dbListener) listen(ctx context.Context) error {
	conn, err := d.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	_, err = conn.ExecContext(ctx, "LISTEN outbox")
	return err
}

func (d *dbListener) Run(ctx context.Context) { // want Run:"sleeps\\(constant\\)"
	for { // want `this loop retries \(\*readers.dbListener\).listen \(a database call: → \(\*sql.DB\).Conn\) when it fails with no bound on attempts, waiting a constant 1s`
		if err := d.listen(ctx); err != nil {
			log.Print(err)
			time.Sleep(time.Second)
		}
	}
}

// ---- a pause on some successes only does not pace the failures ----

type queueClient struct{ url string }

func (q *queueClient) receive(ctx context.Context) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, q.url, nil)
	if err != nil {
		return 0, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	return 1, resp.Body.Close()
}

// After argo-events' queue listener: it sleeps when the queue came back
// empty, and a second after every failure; a full queue goes round at
// once, so the failures are paced by their constant second alone.
func (q *queueClient) Listen(ctx context.Context) { // want Listen:"sleeps\\(constant\\)"
	for { // want `this loop retries \(\*readers.queueClient\).receive \(a network call: → \(\*http.Client\).Do\) when it fails with no bound on attempts, waiting a constant 1s`
		n, err := q.receive(ctx)
		if err != nil {
			log.Print(err)
			time.Sleep(time.Second)
			continue
		}
		if n == 0 {
			time.Sleep(time.Second)
		}
	}
}

// Trap: every success waits its interval too: a poll, every round paced
// alike.
func (q *queueClient) PollEvery(ctx context.Context) { // want PollEvery:"sleeps\\(constant\\)"
	for {
		n, err := q.receive(ctx)
		if err != nil {
			log.Print(err)
			time.Sleep(time.Second)
			continue
		}
		if n == 0 {
			time.Sleep(time.Second)
			continue
		}
		time.Sleep(time.Second)
	}
}

// ---- the same dependency asked again through a client made each round ----

type session interface {
	Connect(ctx context.Context) error
}

type brokerSession struct{ addr string }

func (b *brokerSession) Connect(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, b.addr, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func dialSession(addr string) session { return &brokerSession{addr: addr} }

type backend struct {
	addr string
	sess session
}

// After chirpstack's MQTT back end: a client made again from the same
// address on every round, then connected, a constant 2s apart: the same
// broker asked again, not the next one.
func (b *backend) Connect(ctx context.Context) {
	for { // want `this loop retries \(readers.session\).Connect .* when it fails with no bound on attempts, waiting a constant 2s`
		b.sess = dialSession(b.addr)
		if err := b.sess.Connect(ctx); err != nil {
			log.Print(err)
			time.Sleep(2 * time.Second)
			continue
		}
		return
	}
}

// Trap: each round dials the next configured address: failover over a
// list, not a retry of one.
func Failover(ctx context.Context, addrs []string) error {
	for i := 0; ; i++ {
		sess := dialSession(addrs[i%len(addrs)])
		if err := sess.Connect(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
}
