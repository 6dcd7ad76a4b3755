package lanedb_test

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/bhlint/bhlint/bulkhead/internal/testsvc"
	"github.com/bhlint/bhlint/bulkhead/lanedb"
	"github.com/bhlint/bhlint/bulkhead/lanepool"
)

// BenchmarkAcquireRelease compares taking a connection and giving it back
// through DB[L] with plain database/sql on the same driver (pgx stdlib) and
// the same budget. Every connection is open and idle before timing starts,
// so it measures the pools, not the server; Exec adds a round trip.
func BenchmarkAcquireRelease(b *testing.B) {
	dsn := testsvc.PostgresDSN(b)
	ctx := context.Background()
	const conns = 4
	plain, err := sql.Open("pgx", dsn)
	if err != nil {
		b.Fatal(err)
	}
	defer plain.Close()
	plain.SetMaxOpenConns(conns)
	plain.SetMaxIdleConns(conns)
	lane, err := lanedb.Open[Fraud]("pgx", dsn, lanepool.Config{MaxConns: conns, MaxWaiters: 64, AcquireTimeout: 10 * time.Second})
	if err != nil {
		b.Fatal(err)
	}
	defer lane.Close()
	noLeak, err := lanedb.Open[Tax]("pgx", dsn, lanepool.Config{MaxConns: conns, MaxWaiters: 64, AcquireTimeout: 10 * time.Second, LeakThreshold: -1})
	if err != nil {
		b.Fatal(err)
	}
	defer noLeak.Close()
	warm := func(conn func() (func() error, error)) {
		var closers []func() error
		for range conns {
			c, err := conn()
			if err != nil {
				b.Fatal(err)
			}
			closers = append(closers, c)
		}
		for _, c := range closers {
			c()
		}
	}
	plainConn := func() (func() error, error) {
		c, err := plain.Conn(ctx)
		if err != nil {
			return nil, err
		}
		return c.Close, nil
	}
	laneConn := func(db *lanedb.DB[Fraud]) func() (func() error, error) {
		return func() (func() error, error) {
			c, err := db.Conn(ctx)
			if err != nil {
				return nil, err
			}
			return c.Close, nil
		}
	}
	taxConn := func() (func() error, error) {
		c, err := noLeak.Conn(ctx)
		if err != nil {
			return nil, err
		}
		return c.Close, nil
	}
	warm(plainConn)
	warm(laneConn(lane))
	warm(taxConn)

	for _, bc := range []struct {
		name string
		conn func() (func() error, error)
	}{
		{"sql.DB", plainConn},
		{"lanedb.DB", laneConn(lane)},
		{"lanedb.DB-noleakcheck", taxConn},
	} {
		b.Run("serial/"+bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c, err := bc.conn()
				if err != nil {
					b.Fatal(err)
				}
				c()
			}
		})
		b.Run("parallel16/"+bc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetParallelism(8) // 16 goroutines on 2 cores, 4 connections
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					c, err := bc.conn()
					if err != nil {
						b.Error(err)
						return
					}
					c()
				}
			})
		})
	}
	b.Run("exec/sql.DB", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := plain.ExecContext(ctx, "select 1"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("exec/lanedb.DB", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := lane.ExecContext(ctx, "select 1"); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkRejection is the cost of turning a caller away: the lane's one
// connection is held and no one may wait.
func BenchmarkRejection(b *testing.B) {
	dsn := testsvc.PostgresDSN(b)
	ctx := context.Background()
	db, err := lanedb.Open[Tax]("pgx", dsn, lanepool.Config{MaxConns: 1, AcquireTimeout: 10 * time.Second, LeakThreshold: -1})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	held, err := db.Conn(ctx)
	if err != nil {
		b.Fatal(err)
	}
	defer held.Close()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := db.Conn(ctx); err == nil {
			b.Fatal("a second connection on a budget of 1")
		}
	}
}
