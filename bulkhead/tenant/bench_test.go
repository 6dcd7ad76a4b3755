package tenant_test

// Per-tenant admission next to the lane's own, in one binary so that a
// loop of `go test -count=1` runs interleaves them (bench/TENANT_RESULTS.md
// has the script, the figures and benchstat's comparison).

import (
	"context"
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/bhlint/bhlint/bulkhead"
	"github.com/bhlint/bhlint/bulkhead/tenant"
)

// benchWide is BenchmarkUncontended's lane in the bulkhead package: 100
// slots, no queue, so admission never waits.
type benchWide struct{}

func (benchWide) Spec() bulkhead.LaneSpec { return bulkhead.LaneSpec{MaxConcurrent: 100} }

const activeTenants = 100_000

func tenantKeys(n int) []string {
	keys := make([]string, n)
	for i := range keys {
		keys[i] = fmt.Sprintf("tenant-%07d", i)
	}
	return keys
}

// benchQuotas are quotas a tenant of a busy lane would have: all three on.
func benchQuotas() tenant.Config {
	return tenant.Config{MaxConcurrent: 10, Rate: 1e9, Burst: 1 << 30, ContendedAt: 75}
}

// warm tracks every key once, so the loop measures admission of known
// tenants (10^5 of them), not their creation.
func warm(b *testing.B, l *tenant.Lane, keys []string) {
	for _, k := range keys {
		tk, err := l.Admit(k)
		if err != nil {
			b.Fatal(err)
		}
		tk.Done()
	}
}

// admitInTurn admits and ends one call of each of keys in turn, round and round.
func admitInTurn(b *testing.B, l *tenant.Lane, keys []string) {
	b.ReportAllocs()
	cpu := startCPU()
	i := 0
	for b.Loop() {
		tk, err := l.Admit(keys[i])
		if err != nil {
			b.Fatal(err)
		}
		tk.Done()
		if i++; i == len(keys) {
			i = 0
		}
	}
	cpu.report(b)
}

// cpuClock reports cpu-ns/op, the process's CPU time per op: on a machine
// shared with other work, ns/op (wall-clock) also counts the time the
// others held the cores, which swings with their load.
type cpuClock struct {
	start int64
	ok    bool
}

func startCPU() cpuClock {
	start, ok := cpuTime()
	return cpuClock{start, ok}
}

func (c cpuClock) report(b *testing.B) {
	if end, ok := cpuTime(); c.ok && ok && b.N > 0 {
		b.ReportMetric(float64(end-c.start)/float64(b.N), "cpu-ns/op")
	}
}

func noop(context.Context) error { return nil }

// BenchmarkAdmission: the lane's own admission (Executor.Do), the quotas'
// (Admit + Done, tenants taken in turn from 10^5), and both through Lane.Do.
func BenchmarkAdmission(b *testing.B) {
	ctx := context.Background()
	b.Run("admit=lane", func(b *testing.B) {
		e := bulkhead.MustExecutor[benchWide]()
		b.ReportAllocs()
		cpu := startCPU()
		for b.Loop() {
			if err := e.Do(ctx, noop); err != nil {
				b.Fatal(err)
			}
		}
		cpu.report(b)
	})
	b.Run("admit=tenant-100k", func(b *testing.B) {
		keys := tenantKeys(activeTenants)
		l := tenant.MustNew(bulkhead.MustExecutor[benchWide](), benchQuotas())
		warm(b, l, keys)
		admitInTurn(b, l, keys)
	})
	// The same 10^5 tenants tracked, calls from 1,000 of them: their state
	// stays in the CPU's caches, which separates admission's own work from
	// the memory misses of reaching a tenant among 10^5.
	b.Run("admit=tenant-100k-hot1k", func(b *testing.B) {
		keys := tenantKeys(activeTenants)
		l := tenant.MustNew(bulkhead.MustExecutor[benchWide](), benchQuotas())
		warm(b, l, keys)
		admitInTurn(b, l, keys[:1000])
	})
	b.Run("admit=tenant+lane-100k", func(b *testing.B) {
		keys := tenantKeys(activeTenants)
		ctxs := make([]context.Context, len(keys))
		for i, k := range keys {
			ctxs[i] = bulkhead.WithTenant(ctx, k)
		}
		l := tenant.MustNew(bulkhead.MustExecutor[benchWide](), benchQuotas())
		warm(b, l, keys)
		b.ReportAllocs()
		cpu := startCPU()
		i := 0
		for b.Loop() {
			if err := l.Do(ctxs[i], noop); err != nil {
				b.Fatal(err)
			}
			if i++; i == len(ctxs) {
				i = 0
			}
		}
		cpu.report(b)
	})
}

// BenchmarkAdmit is Admit + Done with all three quotas on, at 10^3, 10^5
// and 10^6 tenants tracked, taken in turn: serial, then from every P at
// once (b.RunParallel), each goroutine walking the tenants from its own
// starting point, so the lane's counters and the shards are shared.
func BenchmarkAdmit(b *testing.B) {
	for _, n := range []int{1_000, 100_000, 1_000_000} {
		keys := tenantKeys(n)
		cfg := benchQuotas()
		cfg.MaxTenants = max(2*n, 1<<20) // no shard full: every tenant its own state
		l := tenant.MustNew(bulkhead.MustExecutor[benchWide](), cfg)
		warm(b, l, keys)
		b.Run(fmt.Sprintf("tenants=%d", n), func(b *testing.B) {
			admitInTurn(b, l, keys)
		})
		b.Run(fmt.Sprintf("tenants=%d/parallel", n), func(b *testing.B) {
			b.ReportAllocs()
			var started atomic.Int64
			cpu := startCPU()
			b.RunParallel(func(pb *testing.PB) {
				i := int(started.Add(1)*7919) % len(keys)
				for pb.Next() {
					tk, err := l.Admit(keys[i])
					if err != nil {
						b.Error(err)
						return
					}
					tk.Done()
					if i++; i == len(keys) {
						i = 0
					}
				}
			})
			cpu.report(b)
		})
		if tot := l.Totals(); tot.Tracked != n || tot.Running != 0 {
			b.Fatalf("after the runs: %d tracked, %d running; want %d and 0", tot.Tracked, tot.Running, n)
		}
	}
}

// BenchmarkTrackedTenantBytes reports the heap one tracked tenant takes
// (B/tenant): 10^6 tenants tracked, the heap measured before and after.
func BenchmarkTrackedTenantBytes(b *testing.B) {
	const n = 1_000_000
	for b.Loop() {
		b.StopTimer()
		keys := tenantKeys(n)
		before := heapInUse()
		b.StartTimer()
		l := tenant.MustNew(bulkhead.MustExecutor[benchWide](), tenant.Config{MaxConcurrent: 10, Rate: 100, MaxTenants: 2 * n})
		warm(b, l, keys)
		b.StopTimer()
		if got := l.Totals().Tracked; got != n {
			b.Fatalf("%d tenants tracked, want %d", got, n)
		}
		b.ReportMetric(float64(heapInUse()-before)/n, "B/tenant")
		runtime.KeepAlive(l)
		runtime.KeepAlive(keys)
		b.StartTimer()
	}
}

func heapInUse() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}
