package jobclaim_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/bhlint/bhlint/bulkhead/jobclaim"
	"github.com/jackc/pgx/v5/pgxpool"
)

// A fair-share queue of report exports: a tenant that queues 10,000
// exports does not hold up another tenant's one.
func Example() {
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, "postgres://postgres@127.0.0.1:5432/test?sslmode=disable")
	if err != nil {
		log.Fatal(err)
	}
	defer pool.Close()
	q, err := jobclaim.New(ctx, pool, jobclaim.Config{Name: "exports", Rule: jobclaim.FairShare, Lease: time.Minute})
	if err != nil {
		log.Fatal(err)
	}
	if err := q.Enqueue(ctx, "tenant-a", []byte(`{"report":"ledger","year":2025}`)); err != nil {
		log.Fatal(err)
	}
	// Six workers; each claims, runs and completes jobs until ctx ends.
	for w := range 6 {
		go q.Work(ctx, fmt.Sprint("export-", w), func(ctx context.Context, j jobclaim.Job) error {
			return runExport(ctx, j.Tenant, j.Payload)
		})
	}
}

// A hard cap: never more than 3 jobs of one tenant at once, whatever the
// number of workers.
func ExampleHardCap() {
	ctx := context.Background()
	pool, _ := pgxpool.New(ctx, "postgres://postgres@127.0.0.1:5432/test?sslmode=disable")
	q, err := jobclaim.New(ctx, pool, jobclaim.Config{Name: "imports", Rule: jobclaim.HardCap, Cap: 3})
	if err != nil {
		log.Fatal(err)
	}
	job, err := q.Claim(ctx, "worker-1")
	switch {
	case errors.Is(err, jobclaim.ErrEmpty):
		// nothing may start: wait and claim again
	case err != nil:
		log.Fatal(err)
	default:
		_ = runExport(ctx, job.Tenant, job.Payload)
		if err := q.Complete(ctx, job); errors.Is(err, jobclaim.ErrLost) {
			// the lease ran out and the job was reaped: another worker has it
		}
	}
}

func runExport(context.Context, string, []byte) error { return nil }
