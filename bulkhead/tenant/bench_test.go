package tenant_test

// Per-tenant admission next to the lane's own, in one binary so that a
// loop of `go test -count=1` runs interleaves them (bench/TENANT_RESULTS.md
// has the script, the figures and benchstat's comparison).

import (
	"context"
	"fmt"
	"runtime"
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
}

func noop(context.Context) error { return nil }

// BenchmarkAdmission: the lane's own admission (Executor.Do), the quotas'
// (Admit + Done, tenants taken in turn from 10^5), and both through Lane.Do.
func BenchmarkAdmission(b *testing.B) {
	ctx := context.Background()
	b.Run("admit=lane", func(b *testing.B) {
		e := bulkhead.MustExecutor[benchWide]()
		b.ReportAllocs()
		for b.Loop() {
			if err := e.Do(ctx, noop); err != nil {
				b.Fatal(err)
			}
		}
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
		i := 0
		for b.Loop() {
			if err := l.Do(ctxs[i], noop); err != nil {
				b.Fatal(err)
			}
			if i++; i == len(ctxs) {
				i = 0
			}
		}
	})
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
