package lanepgx_test

import (
	"context"
	"testing"
	"time"

	"github.com/bhlint/bhlint/bulkhead/internal/testsvc"
	"github.com/bhlint/bhlint/bulkhead/lanepgx"
	"github.com/bhlint/bhlint/bulkhead/lanepool"
	"github.com/jackc/pgx/v5/pgxpool"
)

// BenchmarkAcquireRelease compares Pool[L].Acquire/Release with plain
// pgxpool on the same budget, every connection open and idle beforehand.
func BenchmarkAcquireRelease(b *testing.B) {
	dsn := testsvc.PostgresDSN(b)
	ctx := context.Background()
	const conns = 4
	pc, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		b.Fatal(err)
	}
	pc.MaxConns = conns
	plain, err := pgxpool.NewWithConfig(ctx, pc)
	if err != nil {
		b.Fatal(err)
	}
	defer plain.Close()
	lane, err := lanepgx.New[Fraud](ctx, dsn, lanepool.Config{MaxConns: conns, MaxWaiters: 64, AcquireTimeout: 10 * time.Second})
	if err != nil {
		b.Fatal(err)
	}
	defer lane.Close()
	var held []func()
	for range conns {
		c1, err := plain.Acquire(ctx)
		if err != nil {
			b.Fatal(err)
		}
		c2, err := lane.Acquire(ctx)
		if err != nil {
			b.Fatal(err)
		}
		held = append(held, c1.Release, c2.Release)
	}
	for _, r := range held {
		r()
	}
	acq := map[string]func() (func(), error){
		"pgxpool": func() (func(), error) {
			c, err := plain.Acquire(ctx)
			if err != nil {
				return nil, err
			}
			return c.Release, nil
		},
		"lanepgx.Pool": func() (func(), error) {
			c, err := lane.Acquire(ctx)
			if err != nil {
				return nil, err
			}
			return c.Release, nil
		},
	}
	for _, name := range []string{"pgxpool", "lanepgx.Pool"} {
		get := acq[name]
		b.Run("serial/"+name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				r, err := get()
				if err != nil {
					b.Fatal(err)
				}
				r()
			}
		})
		b.Run("parallel16/"+name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetParallelism(8)
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					r, err := get()
					if err != nil {
						b.Error(err)
						return
					}
					r()
				}
			})
		})
	}
}

// BenchmarkRejection is the cost of turning a caller away: the lane's one
// connection is held and no one may wait.
func BenchmarkRejection(b *testing.B) {
	dsn := testsvc.PostgresDSN(b)
	ctx := context.Background()
	p, err := lanepgx.New[Tax](ctx, dsn, lanepool.Config{MaxConns: 1, AcquireTimeout: 10 * time.Second, LeakThreshold: -1})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	held, err := p.Acquire(ctx)
	if err != nil {
		b.Fatal(err)
	}
	defer held.Release()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.Acquire(ctx); err == nil {
			b.Fatal("a second connection on a budget of 1")
		}
	}
}
