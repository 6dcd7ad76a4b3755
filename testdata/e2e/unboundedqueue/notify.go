// Package notify fans webhook notifications out to merchants and keeps the
// outbox of a payment service: every shape of unbounded queue, with the real
// golang.org/x/sync and pgx.
package notify

import (
	"context"
	"database/sql"
	"net/http"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5"
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

// FanOut sends every webhook at once: one goroutine per webhook.
func FanOut(ctx context.Context, hooks []Webhook) {
	var wg sync.WaitGroup
	for _, h := range hooks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = send(ctx, h)
		}()
	}
	wg.Wait()
}

// SendAll uses an errgroup, but without a limit.
func SendAll(ctx context.Context, hooks []Webhook) error {
	g, ctx := errgroup.WithContext(ctx)
	for _, h := range hooks {
		g.Go(func() error { return send(ctx, h) })
	}
	return g.Wait()
}

// Pending starts a goroutine per row of a pgx query.
func Pending(ctx context.Context, pool *pgxpool.Pool) error {
	rows, err := pool.Query(ctx, "select url, body from webhooks where sent_at is null")
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var h Webhook
		if err := rows.Scan(&h.URL, &h.Body); err != nil {
			return err
		}
		go send(ctx, h)
	}
	return rows.Err()
}

// Store keeps a database/sql pool with no maximum.
type Store struct{ db *sql.DB }

func OpenStore(dsn string) (*Store, error) {
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxIdleConns(10)
	return &Store{db: db}, nil
}

// Sweeper answers requests by waiting for slots with contexts that never end.
type Sweeper struct {
	pool *pgxpool.Pool
	sem  *semaphore.Weighted
}

func (s *Sweeper) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if err := s.sem.Acquire(context.Background(), 1); err != nil {
		return
	}
	defer s.sem.Release(1)
	conn, err := s.pool.Acquire(context.TODO())
	if err != nil {
		return
	}
	defer conn.Release()
	w.WriteHeader(http.StatusNoContent)
}

// Outbox queues webhooks in a slice that only the sender drains.
type Outbox struct {
	mu      sync.Mutex
	pending []Webhook
}

func (o *Outbox) Add(h Webhook) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.pending = append(o.pending, h)
}

func (o *Outbox) Take() []Webhook {
	o.mu.Lock()
	defer o.mu.Unlock()
	out := o.pending
	o.pending = nil
	return out
}

var _ pgx.Rows // the rows above are pgx.Rows
