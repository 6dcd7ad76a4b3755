package fleet

import (
	"context"
	"errors"
	"log/slog"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bhlint/bhlint/bulkhead"
	"github.com/bhlint/bhlint/bulkhead/internal/testsvc"
	"github.com/redis/go-redis/v9"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	if raw := os.Getenv(childEnv); raw != "" { // an instance of TestTwoProcessPartition
		os.Exit(runInstance(raw))
	}
	goleak.VerifyTestMain(m)
}

type Payments struct{}

func (Payments) Spec() bulkhead.LaneSpec {
	return bulkhead.LaneSpec{Name: "payments", MaxConcurrent: 12, RetryAfter: 2 * time.Second}
}

// setup returns a key of the test's own and a func making clients of the
// test Redis; everything is closed and deleted at the end of the test.
func setup(t *testing.T) (key string, client func() *redis.Client) {
	t.Helper()
	addr := testsvc.RedisAddr(t)
	key = "bhlint:test:" + testsvc.Suffix + ":" + t.Name()
	var clients []*redis.Client
	client = func() *redis.Client {
		c := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1})
		clients = append(clients, c)
		return c
	}
	admin := client()
	if err := admin.Ping(context.Background()).Err(); err != nil {
		t.Fatalf("Redis at %s accepts TCP but does not answer: %v", addr, err)
	}
	admin.Del(context.Background(), key)
	t.Cleanup(func() {
		admin.Del(context.Background(), key)
		for _, c := range clients {
			c.Close()
		}
		goleak.VerifyNone(t)
	})
	return key, client
}

func mustNew(t *testing.T, rdb redis.UniversalClient, cfg Config) *Limiter[Payments] {
	t.Helper()
	l, err := New[Payments](rdb, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		testsvc.WaitFor(t, "renewals and Redis calls to stop", func() bool {
			l.mu.Lock()
			defer l.mu.Unlock()
			return !l.renewing && l.calls.Load() == 0
		})
	})
	return l
}

// TestTwoLimitersNeverExceedTheFleetLimit: two limiters with their own
// Redis connections, as two pods would have, share a limit of 5 under
// contention from 16 callers.
func TestTwoLimitersNeverExceedTheFleetLimit(t *testing.T) {
	key, client := setup(t)
	const limit = 5
	cfg := Config{Key: key, Limit: limit, LocalLimit: 2, LeaseTTL: 3 * time.Second, AcquireTimeout: 10 * time.Second, MaxWaiters: 16, PollEvery: 4 * time.Millisecond}
	pods := []*Limiter[Payments]{mustNew(t, client(), cfg), mustNew(t, client(), cfg)}
	admin := client()

	var inFlight, most, served atomic.Int64
	var wg sync.WaitGroup
	for g := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(g), 1))
			pod := pods[g%2]
			for range 8 {
				lease, err := pod.Acquire(context.Background())
				if err != nil {
					t.Errorf("pod %d: %v", g%2, err)
					return
				}
				if lease.Local() {
					t.Error("a local lease while Redis is up")
				}
				n := inFlight.Add(1)
				for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
				}
				if rng.IntN(4) == 0 {
					if c, err := admin.ZCard(context.Background(), key).Result(); err != nil || c > limit {
						t.Errorf("ZCARD %d (%v), over the limit of %d", c, err, limit)
					}
				}
				time.Sleep(time.Duration(rng.IntN(3000)) * time.Microsecond)
				inFlight.Add(-1)
				lease.Release()
				served.Add(1)
			}
		}()
	}
	wg.Wait()
	t.Logf("128 leases served; at most %d held at once across both limiters (limit %d)", most.Load(), limit)
	if most.Load() > limit {
		t.Errorf("%d leases held at once, over the fleet limit of %d", most.Load(), limit)
	}
	if most.Load() < limit {
		t.Errorf("at most %d held at once: the test did not reach the limit of %d", most.Load(), limit)
	}
	if served.Load() != 128 {
		t.Errorf("served %d of 128", served.Load())
	}
	if c := admin.ZCard(context.Background(), key).Val(); c != 0 {
		t.Errorf("%d leases left in Redis", c)
	}
}

// kill makes the limiter behave like a process that died: it stops renewing
// and never releases what it holds.
func (l *Limiter[L]) kill() {
	l.mu.Lock()
	l.held = map[string]*Lease{}
	l.mu.Unlock()
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

func TestDeadHoldersLeasesAreReclaimed(t *testing.T) {
	key, client := setup(t)
	const ttl = 400 * time.Millisecond
	cfg := Config{Key: key, Limit: 2, LocalLimit: 1, LeaseTTL: ttl, RenewEvery: ttl / 4}
	a, b := mustNew(t, client(), cfg), mustNew(t, client(), cfg)
	for range 2 {
		if _, err := a.Acquire(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	_, err := b.Acquire(context.Background())
	var le *LimitError
	if !errors.As(err, &le) || le.Local || !errors.Is(err, bulkhead.ErrRejected) || !strings.Contains(err.Error(), "fleet-wide limit of 2") {
		t.Fatalf("b at the limit: %v", err)
	}
	// While a lives, its renewals keep its leases past their TTL.
	time.Sleep(3 * ttl)
	if _, err := b.Acquire(context.Background()); err == nil {
		t.Fatal("b got a lease of a live holder: renewal failed")
	}
	a.kill()
	killed := time.Now()
	var got []*Lease
	testsvc.WaitFor(t, "the dead holder's leases to be reclaimed", func() bool {
		if l, err := b.Acquire(context.Background()); err == nil {
			got = append(got, l)
		}
		return len(got) == 2
	})
	took := time.Since(killed)
	t.Logf("both leases of the dead holder reclaimed %s after it stopped renewing (TTL %s)", took, ttl)
	if took < ttl/2 {
		t.Errorf("reclaimed after %s, before the TTL (%s) could have run out", took, ttl)
	}
	for _, l := range got {
		l.Release()
	}
}

func TestLostLeaseCancelsTheWork(t *testing.T) {
	key, client := setup(t)
	const ttl = 300 * time.Millisecond
	var logs testsvc.SyncBuffer
	cfg := Config{Key: key, Limit: 1, LocalLimit: 1, LeaseTTL: ttl, RenewEvery: ttl / 4, Logger: slog.New(slog.NewTextHandler(&logs, nil))}
	a, b := mustNew(t, client(), cfg), mustNew(t, client(), cfg)
	paused := make(chan struct{})
	err := a.Do(context.Background(), func(ctx context.Context) error {
		a.mu.Lock()
		a.paused = true // a stalls past its TTL (a long GC pause, a frozen VM)
		a.mu.Unlock()
		close(paused)
		var bl *Lease
		testsvc.WaitFor(t, "b to take the expired lease", func() bool {
			l, err := b.Acquire(context.Background())
			bl = l
			return err == nil
		})
		a.mu.Lock()
		a.paused = false
		a.mu.Unlock()
		select {
		case <-ctx.Done():
		case <-time.After(20 * time.Second):
			t.Error("the work of a lost lease was not canceled")
		}
		bl.Release()
		return ctx.Err()
	})
	<-paused
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Do: %v", err)
	}
	if s := a.Stats(); s.Lost != 1 {
		t.Errorf("stats: %+v, want 1 lost lease", s)
	}
	if !strings.Contains(logs.String(), "expired while held") {
		t.Errorf("the lost lease was not logged: %s", logs.String())
	}
}

func TestFallsBackToTheLocalLimitVisibly(t *testing.T) {
	defer goleak.VerifyNone(t)
	dead := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", MaxRetries: -1, DialTimeout: 200 * time.Millisecond})
	defer dead.Close()
	fallbacks := make(chan error, 4)
	var logs testsvc.SyncBuffer
	l, err := New[Payments](dead, Config{Limit: 10, LocalLimit: 2, OnFallback: func(err error) { fallbacks <- err }, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	var leases []*Lease
	for range 2 {
		lease, err := l.Acquire(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if !lease.Local() {
			t.Error("a lease from an unreachable Redis is not marked Local")
		}
		leases = append(leases, lease)
	}
	_, err = l.Acquire(context.Background())
	var le *LimitError
	if !errors.As(err, &le) || !le.Local || !strings.Contains(err.Error(), "local fallback limit of 2") {
		t.Errorf("third acquire: %v", err)
	}
	select {
	case err := <-fallbacks:
		if err == nil {
			t.Error("OnFallback(nil) while Redis is down")
		}
	case <-time.After(10 * time.Second):
		t.Error("OnFallback was not called")
	}
	s := l.Stats()
	if !s.Fallback || s.Fallbacks != 1 || s.HeldLocal != 2 {
		t.Errorf("stats: %+v", s)
	}
	if !strings.Contains(logs.String(), "falls back to this process's local limit") {
		t.Errorf("fallback not logged: %s", logs.String())
	}
	for _, lease := range leases {
		lease.Release()
		lease.Release()
	}
	if n := l.Stats().HeldLocal; n != 0 {
		t.Errorf("%d local leases held after release", n)
	}
}

func TestBackOnRedisAfterAnOutage(t *testing.T) {
	key, client := setup(t)
	rdb := client()
	proxy := testsvc.NewProxy(t, testsvc.RedisAddr(t))
	viaProxy := redis.NewClient(&redis.Options{Addr: proxy.Addr(), MaxRetries: -1, DialTimeout: 200 * time.Millisecond, PoolSize: 2})
	defer viaProxy.Close()
	events := make(chan error, 4)
	l := mustNew(t, viaProxy, Config{Key: key, Limit: 3, LocalLimit: 1, RetryRedisEvery: 50 * time.Millisecond,
		OnFallback: func(err error) { events <- err }, Logger: slog.New(slog.NewTextHandler(&testsvc.SyncBuffer{}, nil))})
	lease, err := l.Acquire(context.Background())
	if err != nil || lease.Local() {
		t.Fatalf("Redis up: %v, local=%v", err, lease != nil && lease.Local())
	}
	lease.Release()
	proxy.Cut()
	lease, err = l.Acquire(context.Background())
	if err != nil || !lease.Local() {
		t.Fatalf("Redis down: want a local lease, got %v", err)
	}
	lease.Release()
	if err := <-events; err == nil {
		t.Error("no fallback event")
	}
	proxy.Heal()
	testsvc.WaitFor(t, "the limiter to use Redis again", func() bool {
		lease, err := l.Acquire(context.Background())
		if err != nil {
			return false
		}
		lease.Release()
		return !lease.Local()
	})
	if err := <-events; err != nil {
		t.Errorf("recovery event: %v", err)
	}
	if l.Stats().Fallback {
		t.Error("still in fallback")
	}
	_ = rdb
}

func TestConfigErrors(t *testing.T) {
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1"})
	defer rdb.Close()
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{LocalLimit: 1}, "Limit is 0"},
		{Config{Limit: 200}, "LocalLimit is 0"},
		{Config{Limit: 200, LocalLimit: 4, AcquireTimeout: time.Second}, "MaxWaiters is 0"},
		{Config{Limit: 200, LocalLimit: 4, MaxWaiters: 3}, "AcquireTimeout is 0"},
	} {
		if _, err := New[Payments](rdb, tc.cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.cfg, err, tc.want)
		}
	}
}
