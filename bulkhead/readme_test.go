package bulkhead_test

import (
	"context"
	"log"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/bhlint/bhlint/bulkhead"
	"github.com/bhlint/bhlint/bulkhead/cell"
	"github.com/bhlint/bhlint/bulkhead/jobclaim"
	"github.com/bhlint/bhlint/bulkhead/lanebreaker"
	"github.com/bhlint/bhlint/bulkhead/lanedb"
	"github.com/bhlint/bhlint/bulkhead/lanehttp"
	"github.com/bhlint/bhlint/bulkhead/shuffleshard"
	"github.com/bhlint/bhlint/bulkhead/tenant"
)

// The code blocks of README.md, each compiled here: the examples below hold
// them line for line (TestREADMESnippetsCompile checks it), with what they
// need declared around them. They are compiled, not run: the examples that
// run are in example_test.go and the packages' own example tests.

// The README's first block: a lane, its executor, and a call through it.

type Tax struct{}

func (Tax) Spec() bulkhead.LaneSpec {
	return bulkhead.LaneSpec{MaxConcurrent: 15, MaxQueued: 0, Policy: bulkhead.PolicyShed, RetryAfter: 5 * time.Second}
}

var taxLane = bulkhead.MustExecutor[Tax]()

func quoteTax(ctx context.Context) error {
	err := taxLane.Do(ctx, func(ctx context.Context) error { return callTaxAPI(ctx) })
	if rej, ok := bulkhead.AsRejection(err); ok {
		log.Printf("lane %s: %s; retry in %s (the work was never started)", rej.Lane, rej.Reason, rej.RetryAfter)
	}
	return err
}

func callTaxAPI(context.Context) error { return nil }

func Example_readmeLane() {
	_ = quoteTax(context.Background())
}

func Example_readmeMiddleware() {
	mw, err := bulkhead.NewMiddleware(bulkhead.MiddlewareConfig{
		Routes:     map[string]bulkhead.Runner{"POST /v1/tax": taxLane},
		RetryGuard: bulkhead.NewRetryGuard(bulkhead.RetryGuardConfig{}),
	})
	_, _ = mw, err
}

type Fraud struct{}

func (Fraud) Spec() bulkhead.LaneSpec { return bulkhead.LaneSpec{MaxConcurrent: 10} }

func Example_readmeBreaker() {
	var col bulkhead.ObserverFunc = func(bulkhead.Event) {}
	var fraudDB *lanedb.DB[Fraud]

	b, _ := lanebreaker.New(lanebreaker.Config{}) // defaults: open at >50% failed of ≥20 calls in 30 s
	fraudLane := bulkhead.MustExecutor[Fraud](bulkhead.WithBreaker(b), bulkhead.WithObserver(col))
	fraudLane.ResetOnRecoveryLag(fraudDB) // lanedb.DB[Fraud] or lanepgx.Pool[Fraud]
}

type Imports struct{}

func (Imports) Spec() bulkhead.LaneSpec { return bulkhead.LaneSpec{MaxConcurrent: 20} }

func Example_readmeTenant() {
	var r *http.Request
	var rows int

	imports := tenant.MustNew(bulkhead.MustExecutor[Imports](), tenant.Config{
		MaxConcurrent: 4,   // calls of one tenant running at once
		Rate:          100, // tokens a second (x/time/rate); each call takes one
		Burst:         1000,
		ContendedAt:   15, // of the lane's 20 slots: past it, fair share
	})
	mw, _ := bulkhead.NewMiddleware(bulkhead.MiddlewareConfig{
		Routes: map[string]bulkhead.Runner{"POST /v1/imports": imports},
		Tenant: func(r *http.Request) string { return r.Header.Get("X-Account") },
	})
	// in the handler, once the import's size is known:
	imports.Charge(r.Context(), rows-1)

	_ = mw
}

func Example_readmeJobclaim() {
	var ctx context.Context
	var pool *pgxpool.Pool
	var payload []byte
	runExport := func(context.Context, jobclaim.Job) error { return nil }

	q, err := jobclaim.New(ctx, pool, jobclaim.Config{Name: "exports", Rule: jobclaim.FairShare, Lease: time.Minute})
	err = q.Enqueue(ctx, "tenant-a", payload)
	go q.Work(ctx, "export-1", func(ctx context.Context, j jobclaim.Job) error { return runExport(ctx, j) })

	_ = err
}

type Search struct{}

func (Search) Spec() bulkhead.LaneSpec { return bulkhead.LaneSpec{MaxConcurrent: 8} }

func Example_readmeShuffleShard() {
	var nodes []string

	s, err := shuffleshard.New(nodes, 5) // each tenant gets 5 of the 100 nodes
	search, err := lanehttp.New[Search](lanehttp.Config{
		MaxConnsPerHost: 8, AcquireTimeout: 50 * time.Millisecond,
		Endpoint:        s.Endpoint(func(r *http.Request) string { return r.Header.Get("X-Tenant") }),
		OnEndpointError: s.EndpointFailed, // a node that gave no response is skipped for s.DownFor
	})

	_, _ = search, err
}

func Example_readmeCell() {
	var ctx context.Context
	var pool *pgxpool.Pool

	r, err := cell.New(ctx, cell.PostgresSource(pool, "cell_map"), cell.Config{Refresh: 30 * time.Second})
	go r.Run(ctx)
	target := r.Cell("acme") // a lookup in memory: no database on the routing path

	_, _ = target, err
}

// TestREADMESnippetsCompile: every ```go block of README.md is in this
// file, line for line (spacing and blank lines aside), so that a
// snippet that stops compiling fails the build of this test.
func TestREADMESnippetsCompile(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	self, err := os.ReadFile("readme_test.go")
	if err != nil {
		t.Fatal(err)
	}
	here := "\n" + strings.Join(codeLines(string(self)), "\n") + "\n"
	blocks := goBlocks(string(readme))
	if len(blocks) == 0 {
		t.Fatal("README.md has no ```go block")
	}
	for _, block := range blocks {
		if lines := codeLines(block); !strings.Contains(here, "\n"+strings.Join(lines, "\n")+"\n") {
			t.Errorf("this README.md block is not in readme_test.go (copy it into an example there, so that it is compiled):\n%s", block)
		}
	}
}

// goBlocks are the contents of the ```go fences of a Markdown text.
func goBlocks(md string) []string {
	var blocks []string
	for {
		_, rest, ok := strings.Cut(md, "```go\n")
		if !ok {
			return blocks
		}
		block, after, _ := strings.Cut(rest, "```")
		blocks = append(blocks, block)
		md = after
	}
}

// codeLines are a text's lines with their spacing reduced to one space
// (gofmt aligns comments by the longest line of a block), blank lines left
// out.
func codeLines(text string) []string {
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		if l = strings.Join(strings.Fields(l), " "); l != "" {
			lines = append(lines, l)
		}
	}
	return lines
}
