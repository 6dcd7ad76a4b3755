// Package retries holds retry loops, good and bad, and look-alikes.
package retries

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math/rand"
	"net"
	"net/http"
	"time"

	"github.com/cenkalti/backoff/v4"
)

type TaxClient struct{ http *http.Client }

func (c *TaxClient) Quote(ctx context.Context, order string) (int64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://tax/"+order, nil)
	if err != nil {
		return 0, err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	return 1, nil
}

// charge calls the card network.
func charge(ctx context.Context) error {
	resp, err := http.Post("http://card-network/charge", "application/json", nil)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// bumpVersion is a local compare-and-swap that can conflict.
func bumpVersion() error { return nil }

// ---- positives ----

// incident4491 is the tax-API incident's loop: every 50 ms, forever, no jitter.
func incident4491(ctx context.Context, c *TaxClient, order string) int64 {
	for { // want `ERR_UNBOUNDED_RETRY_DETECTED: this loop retries \(\*retries.TaxClient\).Quote \(a network call: → \(\*http.Client\).Do\) when it fails with no bound on attempts, waiting a constant 50ms between attempts with no backoff or jitter; bound the attempts`
		tax, err := c.Quote(ctx, order)
		if err == nil {
			return tax
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// retryAfterPicking: the loop is reported at its for statement, the line a
// fix changes, however far down the body the retried call sits, and not at
// the inner loop that only picks the address.
func retryAfterPicking(ctx context.Context, c *TaxClient, replicas []string) int64 {
	for { // want `this loop retries \(\*retries.TaxClient\).Quote .* waiting a constant 1s`
		order := ""
		for _, r := range replicas {
			if r != "" {
				order = r
			}
		}
		tax, err := c.Quote(ctx, order)
		if err == nil {
			return tax
		}
		time.Sleep(time.Second)
	}
}

// connectAtStartup counts its attempts in a variable declared just above
// the loop: still reported at the for statement.
func connectAtStartup(ctx context.Context, c *TaxClient) (int64, error) {
	var err error
	var tax int64
	i := 0
	for { // want `this loop retries \(\*retries.TaxClient\).Quote .* waiting a constant 5s`
		tax, err = c.Quote(ctx, "startup")
		if err == nil {
			break
		}
		if i >= 10 {
			return 0, err
		}
		i++
		time.Sleep(5 * time.Second)
	}
	return tax, nil
}

// hammerUntilSuccess retries at once, forever.
func hammerUntilSuccess(ctx context.Context) {
	for charge(ctx) != nil { // want `retries retries.charge \(a network call: → http.Post\) when it fails with no bound on attempts, with no pause between attempts`
	}
}

// errLoopCondition keeps the error in the loop condition.
func errLoopCondition(ctx context.Context) error {
	err := charge(ctx)
	for err != nil { // want `retries retries.charge \(a network call: → http.Post\) when it fails with no bound on attempts, waiting a constant 1s`
		time.Sleep(time.Second)
		err = charge(ctx)
	}
	return nil
}

// boundedButInStep has a bound but waits the same 100 ms each time.
func boundedButInStep(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ { // want `retries retries.charge \(a network call: → http.Post\) when it fails waiting a constant 100ms between attempts with no backoff or jitter; wait with exponential backoff and jitter`
		if err = charge(ctx); err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return err
}

// boundedNoPause retries three times with nothing in between.
func boundedNoPause(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ { // want `retries retries.charge \(a network call: → http.Post\) when it fails with no pause between attempts`
		err = charge(ctx)
		if err == nil {
			break
		}
	}
	return err
}

// deadlineOnlyHammer stops at the context deadline but never waits.
func deadlineOnlyHammer(ctx context.Context) error {
	for ctx.Err() == nil { // want `bounded only by its context's deadline, with no pause between attempts`
		if err := charge(ctx); err == nil {
			return nil
		}
	}
	return ctx.Err()
}

// unboundedWithBackoff backs off but never gives up.
func unboundedWithBackoff(ctx context.Context) {
	delay := 100 * time.Millisecond
	for { // want `retries retries.charge \(a network call: → http.Post\) when it fails with no bound on attempts; stop after a few attempts`
		if err := charge(ctx); err == nil {
			return
		}
		time.Sleep(delay + time.Duration(rand.Int63n(int64(delay))))
		delay *= 2
	}
}

// gotoRetry is a retry loop written with goto.
func gotoRetry(ctx context.Context, c *TaxClient) int64 {
retry:
	tax, err := c.Quote(ctx, "o-1") // want `this loop retries \(\*retries.TaxClient\).Quote .* with no bound on attempts, waiting a constant 50ms`
	if err != nil {
		time.Sleep(50 * time.Millisecond)
		goto retry
	}
	return tax
}

// tickerRetry waits on a fixed ticker.
func tickerRetry(ctx context.Context) error {
	t := time.NewTicker(200 * time.Millisecond)
	defer t.Stop()
	for { // want `with no bound on attempts, waiting a constant time between attempts`
		if err := charge(ctx); err == nil {
			return nil
		}
		<-t.C
	}
}

// statusRetry retries on errors and on 503, forever.
func statusRetry(req *http.Request) *http.Response {
	for { // want `retries \(\*http.Client\).Do when it fails with no bound on attempts, with no pause`
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			continue
		}
		if resp.StatusCode == http.StatusServiceUnavailable {
			resp.Body.Close()
			continue
		}
		return resp
	}
}

// suppressedWarmup is a known, reviewed loop.
func suppressedWarmup(ctx context.Context) {
	for charge(ctx) != nil { //bhlint:ignore ERR_UNBOUNDED_RETRY_DETECTED warm-up against a local sidecar that is always up within 1 s
	}
}

// ---- traps: must stay silent ----

// boundedBackoffJitter: a bound, exponential backoff and jitter.
func boundedBackoffJitter(ctx context.Context) error {
	var err error
	delay := 100 * time.Millisecond
	for attempt := 0; attempt < 3; attempt++ {
		if err = charge(ctx); err == nil {
			return nil
		}
		jitter := time.Duration(rand.Int63n(int64(delay)))
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(delay + jitter):
		}
		delay *= 2
	}
	return err
}

// cenkaltiNextBackOff waits for the policy's next delay and stops on Stop.
func cenkaltiNextBackOff(ctx context.Context) error {
	b := backoff.NewExponentialBackOff()
	for {
		err := charge(ctx)
		if err == nil {
			return nil
		}
		next := b.NextBackOff()
		if next == backoff.Stop {
			return err
		}
		time.Sleep(next)
	}
}

// cenkaltiRetry has no loop of its own.
func cenkaltiRetry(ctx context.Context) error { // want cenkaltiRetry:"sleeps\\(growing\\)"
	return backoff.Retry(func() error { return charge(ctx) }, backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 3))
}

// consumer reads until the context ends.
func consumer(ctx context.Context, jobs <-chan string) {
	for {
		select {
		case <-ctx.Done():
			return
		case j := <-jobs:
			if err := charge(ctx); err != nil {
				_ = j
				continue
			}
		}
	}
}

type Page struct {
	Items []string
	Next  string
}

func listPage(ctx context.Context, cursor string) (Page, error) { return Page{}, nil }

// paginate advances a cursor and returns on error.
func paginate(ctx context.Context) ([]string, error) {
	var all []string
	cursor := ""
	for {
		page, err := listPage(ctx, cursor)
		if err != nil {
			return nil, err
		}
		all = append(all, page.Items...)
		if page.Next == "" {
			return all, nil
		}
		cursor = page.Next
	}
}

type Stream interface{ Recv() (string, error) }

// recvLoop returns on error.
func recvLoop(s Stream) error {
	for {
		msg, err := s.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		_ = msg
	}
}

func jobDone(ctx context.Context, id string) (bool, error) { return true, nil }

// pollBounded polls a job with a fixed sleep, at most 10 times.
func pollBounded(ctx context.Context, id string) error {
	for i := 0; i < 10; i++ {
		done, err := jobDone(ctx, id)
		if err != nil {
			return err
		}
		if done {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("job did not finish")
}

// failover tries each endpoint once.
func failover(ctx context.Context, endpoints []string) error {
	for _, ep := range endpoints {
		if _, err := http.Get(ep); err == nil {
			return nil
		}
	}
	return errors.New("all endpoints failed")
}

// conflictRetry retries a local compare-and-swap at once, at most 5 times.
func conflictRetry() error {
	var err error
	for i := 0; i < 5; i++ {
		if err = bumpVersion(); err == nil {
			return nil
		}
	}
	return err
}

// readLoop goes round again after a successful read: not a retry.
func readLoop(r io.Reader) ([]byte, error) {
	var out []byte
	buf := make([]byte, 512)
	for {
		n, err := r.Read(buf)
		if n == 0 && err == nil {
			return nil, errors.New("empty read")
		}
		out = append(out, buf[:n]...)
		if err == io.EOF {
			return out, nil
		}
	}
}

// nextChecker tries a different checker each time round (goto).
func nextChecker(v any, checkers []func(any) error) error {
	i := 0
	check := checkers[0]
next:
	if err := check(v); err != nil {
		i++
		if i < len(checkers) {
			check = checkers[i]
			goto next
		}
		return err
	}
	return nil
}

// drainErrors logs every error of a batch and goes on: not a retry.
func drainErrors(ctx context.Context, ids []string) {
	for range ids {
		if err := charge(ctx); err != nil {
			continue
		}
	}
}

func newMetric(labels ...string) (string, error) { return "", nil }

// growingArgs calls with one more label each time round: a search, not a
// retry of the same call.
func growingArgs() string {
	var labels []string
	var m string
	for err := errors.New("start"); err != nil; labels = append(labels, "x") {
		m, err = newMetric(labels...)
	}
	return m
}

var errDeclined = errors.New("card declined")

// permanentOnly stops on a permanent error but retries transient ones
// forever.
func permanentOnly(ctx context.Context) error {
	for { // want `with no bound on attempts, waiting a constant 20ms`
		err := charge(ctx)
		if err == nil || errors.Is(err, errDeclined) {
			return err
		}
		time.Sleep(20 * time.Millisecond)
	}
}

type policy struct{ left int }

func (p *policy) shouldRetry(err error) bool { p.left--; return p.left > 0 }

// policyDecides asks a retry policy, which keeps a budget: a bound.
func policyDecides(ctx context.Context, p *policy) error {
	for {
		err := charge(ctx)
		if err == nil {
			return nil
		}
		if !p.shouldRetry(err) {
			return err
		}
		time.Sleep(time.Duration(rand.Int63n(int64(time.Second))))
	}
}

// retryGeneric is a generic helper that retries forever, every 10 ms.
func retryGeneric[T any](ctx context.Context, op func(context.Context) (T, error)) T {
	for { // want `this loop retries a function value when it fails with no bound on attempts, waiting a constant 10ms`
		v, err := op(ctx)
		if err == nil {
			return v
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func useGeneric(ctx context.Context, c *TaxClient) int64 {
	return retryGeneric(ctx, func(ctx context.Context) (int64, error) { return c.Quote(ctx, "o-2") })
}

// ---- a failure that reports progress is not a retry (bufio.collectFragments) ----

var errBufferFull = errors.New("buffer full")

type fragmentReader struct{ buf []byte }

func (r *fragmentReader) readSlice(delim byte) ([]byte, error) { return r.buf, errBufferFull }

func collectFragments(r *fragmentReader, delim byte) ([][]byte, error) {
	var full [][]byte
	for {
		frag, err := r.readSlice(delim)
		if err == nil {
			return append(full, frag), nil
		}
		if err != errBufferFull {
			return nil, err
		}
		full = append(full, bytes.Clone(frag))
	}
}

// ---- the argument changes each round through a map or a field ----

func createDB(cfg map[string]any) error { _, err := http.Get("https://admin.example/db"); return err }

type dbConfig struct{ Port int }

func createDBWith(cfg *dbConfig) error { _, err := http.Get("https://admin.example/db"); return err }

// tryNextPortMap asks for a different port each time round: not a retry.
func tryNextPortMap() error {
	cfg := map[string]any{"name": "test"}
	port := 7000
	var err error
	for i := 0; i < 5; i++ {
		cfg["port"] = port
		if err = createDB(cfg); err == nil {
			return nil
		}
		port++
	}
	return err
}

// tryNextPortField: the same through a struct field.
func tryNextPortField() error {
	cfg := &dbConfig{}
	port := 7000
	var err error
	for i := 0; i < 5; i++ {
		cfg.Port = port
		if err = createDBWith(cfg); err == nil {
			return nil
		}
		port++
	}
	return err
}

// sameConfigEachRound writes the same value each time: still a retry.
func sameConfigEachRound() error {
	cfg := map[string]any{}
	var err error
	for i := 0; i < 5; i++ { // want `this loop retries retries.createDB`
		cfg["port"] = 7000
		if err = createDB(cfg); err == nil {
			return nil
		}
	}
	return err
}

// readinessPollUntilDeadline dials every 500ms and gives up after 10s: a
// bounded readiness poll, a known small number of attempts. Silent.
func readinessPollUntilDeadline(target string) error {
	start := time.Now()
	for {
		conn, err := net.Dial("tcp", target)
		if err == nil {
			return conn.Close()
		}
		time.Sleep(500 * time.Millisecond)
		if time.Since(start) > 10*time.Second {
			return err
		}
	}
}

// dialTenTimesConstant is bounded by a count, not a deadline, and waits a
// constant 500ms: every caller retries in step.
func dialTenTimesConstant(target string) error {
	var err error
	for i := 0; i < 10; i++ { // want `this loop retries net.Dial when it fails waiting a constant 500ms between attempts with no backoff or jitter`
		var conn net.Conn
		if conn, err = net.Dial("tcp", target); err == nil {
			return conn.Close()
		}
		time.Sleep(500 * time.Millisecond)
	}
	return err
}

// redialUntilCancelledConstant waits a constant 1s and dials again until its
// context is cancelled, which may be only at shutdown: no deadline bounds it.
func redialUntilCancelledConstant(ctx context.Context, target string) error {
	for ctx.Err() == nil { // want `this loop retries net.Dial when it fails waiting a constant 1s between attempts with no backoff or jitter`
		conn, err := net.Dial("tcp", target)
		if err == nil {
			return conn.Close()
		}
		time.Sleep(time.Second)
	}
	return ctx.Err()
}
