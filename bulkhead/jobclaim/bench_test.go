package jobclaim_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/bhlint/bhlint/bulkhead/jobclaim"
)

// BenchmarkClaim is one claim under each rule with 10^5 jobs queued by 100
// tenants (one tenant holds 90,000 of them, the other 99 about 100 each)
// and six jobs running. Each iteration claims and completes a job, so the
// queue stays that size; claim-ns/op is the claim alone (the target is
// 5 ms), claim-p50-ns its median (on a loaded machine the mean follows the
// stalls), ns/op both.
func BenchmarkClaim(b *testing.B) {
	for _, rule := range jobclaim.Rules {
		b.Run(rule.String(), func(b *testing.B) {
			ctx := context.Background()
			q := newQueue(b, jobclaim.Config{Rule: rule, Cap: 3})
			backlog(b, q, 100_000, 100)
			for w := range 6 { // six workers busy
				if _, err := q.Claim(ctx, fmt.Sprint("busy", w)); err != nil {
					b.Fatal(err)
				}
			}
			var claims []time.Duration
			b.ResetTimer()
			for b.Loop() {
				start := time.Now()
				j, err := q.Claim(ctx, "bench")
				claims = append(claims, time.Since(start))
				if err != nil {
					b.Fatal(err)
				}
				if err := q.Complete(ctx, j); err != nil {
					b.Fatal(err)
				}
			}
			var total time.Duration
			for _, d := range claims {
				total += d
			}
			slices.Sort(claims)
			b.ReportMetric(float64(total.Nanoseconds())/float64(len(claims)), "claim-ns/op")
			b.ReportMetric(float64(claims[len(claims)/2].Nanoseconds()), "claim-p50-ns")
		})
	}
}

// backlog enqueues jobs for tenants: 90% for the first, the rest spread
// evenly over the others, interleaved as a busy queue would hold them.
func backlog(b testing.TB, q *jobclaim.Queue, jobs, tenants int) {
	batch := make([]jobclaim.NewJob, 0, 10_000)
	flush := func() {
		if err := q.EnqueueMany(context.Background(), batch); err != nil {
			b.Fatal(err)
		}
		batch = batch[:0]
	}
	for i := range jobs {
		tenant := "bulk"
		if i%10 == 9 {
			tenant = fmt.Sprintf("t%02d", 1+(i/10)%(tenants-1))
		}
		batch = append(batch, jobclaim.NewJob{Tenant: tenant, Payload: []byte("x")})
		if len(batch) == cap(batch) {
			flush()
		}
	}
	flush()
}
