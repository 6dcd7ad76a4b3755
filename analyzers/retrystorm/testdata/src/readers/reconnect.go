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
