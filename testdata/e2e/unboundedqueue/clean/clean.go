// Package clean holds look-alikes of every shape that bound their queue:
// unboundedqueue must stay silent on all of them.
package clean

import (
	"context"
	"database/sql"
	"errors"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	_ "github.com/jackc/pgx/v5/stdlib"
	"golang.org/x/sync/errgroup"
	"golang.org/x/sync/semaphore"
)

type Webhook struct{ URL, Body string }

func send(ctx context.Context, w Webhook) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.URL, strings.NewReader(w.Body))
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// SendAll limits the group to eight webhooks in flight.
func SendAll(ctx context.Context, hooks []Webhook) error {
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(8)
	for _, h := range hooks {
		g.Go(func() error { return send(ctx, h) })
	}
	return g.Wait()
}

// Three fixed calls are countable.
func Three(ctx context.Context, a, b, c Webhook) error {
	g, ctx := errgroup.WithContext(ctx)
	g.Go(func() error { return send(ctx, a) })
	g.Go(func() error { return send(ctx, b) })
	g.Go(func() error { return send(ctx, c) })
	return g.Wait()
}

// Workers is a pool started by a counted loop.
func Workers(ctx context.Context, jobs <-chan Webhook, n int) {
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for h := range jobs {
				_ = send(ctx, h)
			}
		}()
	}
	wg.Wait()
}

// Semaphored takes a weighted slot before every goroutine.
func Semaphored(ctx context.Context, hooks []Webhook, sem *semaphore.Weighted) {
	for _, h := range hooks {
		if err := sem.Acquire(ctx, 1); err != nil {
			return
		}
		go func() {
			defer sem.Release(1)
			_ = send(ctx, h)
		}()
	}
}

// Tokens tries for a channel slot inside the goroutine, before the call,
// and drops the webhook when none is free: no goroutine waits for one.
func Tokens(ctx context.Context, hooks []Webhook) {
	tokens := make(chan struct{}, 4)
	for _, h := range hooks {
		go func() {
			select {
			case tokens <- struct{}{}:
			default:
				return
			}
			defer func() { <-tokens }()
			_ = send(ctx, h)
		}()
	}
}

// Regions loops over a constant-size array.
func Regions(ctx context.Context) {
	for _, r := range [3]string{"eu", "us", "ap"} {
		go send(ctx, Webhook{URL: "https://" + r + ".example.com"})
	}
}

// OpenDB returns its pool to the caller, who bounds it.
func OpenDB(dsn string) (*sql.DB, error) { return sql.Open("pgx", dsn) }

type Store struct{ db *sql.DB }

func NewStore(dsn string) (*Store, error) {
	db, err := OpenDB(dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(40)
	return &Store{db: db}, nil
}

// Acquire under a timeout.
func Acquire(pool *pgxpool.Pool, sem *semaphore.Weighted) error {
	ctx, cancel := context.WithTimeout(context.Background(), 250*time.Millisecond)
	defer cancel()
	if err := sem.Acquire(ctx, 1); err != nil {
		return err
	}
	defer sem.Release(1)
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return err
	}
	conn.Release()
	return nil
}

// A method named Acquire on something that is neither a pool nor a semaphore.
type Desk struct{}

func (Desk) Acquire(ctx context.Context) (string, error) { return "ticket", nil }

func Ticket(d Desk) (string, error) { return d.Acquire(context.Background()) }

// Outbox rejects when full.
type Outbox struct {
	mu      sync.Mutex
	pending []Webhook
}

var errFull = errors.New("outbox full")

func (o *Outbox) Add(h Webhook) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.pending) >= 1000 {
		return errFull
	}
	o.pending = append(o.pending, h)
	return nil
}

func (o *Outbox) Take() []Webhook {
	o.mu.Lock()
	defer o.mu.Unlock()
	out := o.pending
	o.pending = nil
	return out
}
