package tenant_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/bhlint/bhlint/bulkhead"
	"github.com/bhlint/bhlint/bulkhead/internal/fakeclock"
	"github.com/bhlint/bhlint/bulkhead/tenant"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// Reports is a lane of 8 slots shared by every tenant.
type Reports struct{}

func (Reports) Spec() bulkhead.LaneSpec {
	return bulkhead.LaneSpec{MaxConcurrent: 8, Policy: bulkhead.PolicyShed, RetryAfter: 5 * time.Second}
}

func newLane(t *testing.T, cfg tenant.Config) (*tenant.Lane, *fakeclock.Clock) {
	t.Helper()
	clock := fakeclock.New(time.Date(2026, 12, 2, 3, 0, 0, 0, time.UTC))
	cfg.Now = clock.Now
	l, err := tenant.New(bulkhead.MustExecutor[Reports](), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return l, clock
}

// rejection wants err to be a tenant rejection for reason.
func rejection(t *testing.T, err error, reason bulkhead.Reason) *bulkhead.Rejection {
	t.Helper()
	rej, ok := bulkhead.AsRejection(err)
	if !ok {
		t.Fatalf("got %v, want a rejection (%s)", err, reason)
	}
	if rej.Reason != reason || rej.Status != http.StatusTooManyRequests || rej.Code != "ERR_REPORTS_TENANT_QUOTA_EXCEEDED" {
		t.Fatalf("got %s, status %d, code %s; want %s, 429, ERR_REPORTS_TENANT_QUOTA_EXCEEDED", rej.Reason, rej.Status, rej.Code, reason)
	}
	return rej
}

func admit(t *testing.T, l *tenant.Lane, key string) tenant.Ticket {
	t.Helper()
	tk, err := l.Admit(key)
	if err != nil {
		t.Fatalf("tenant %s: %v", key, err)
	}
	return tk
}

func TestConcurrencyQuota(t *testing.T) {
	l, _ := newLane(t, tenant.Config{MaxConcurrent: 2, ContendedAt: -1})
	a1, a2 := admit(t, l, "a"), admit(t, l, "a")
	_, err := l.Admit("a")
	rej := rejection(t, err, bulkhead.ReasonTenantConcurrency)
	if rej.Tenant != "a" || rej.Quota != "concurrency quota of 2 calls at once" || rej.RetryAfter != time.Second {
		t.Errorf("rejection names tenant %q, quota %q, retry after %s", rej.Tenant, rej.Quota, rej.RetryAfter)
	}
	admit(t, l, "b").Done() // another tenant is not held back
	a1.Done()
	admit(t, l, "a").Done()
	a2.Done()
	if tot := l.Totals(); tot.Running != 0 || tot.Active != 0 || tot.Rejected[bulkhead.ReasonTenantConcurrency] != 1 || tot.Admitted != 4 {
		t.Errorf("totals %+v; want nothing running, 1 concurrency refusal, 4 admitted", tot)
	}
}

func TestRateQuotaRetryAfterIsTheNextToken(t *testing.T) {
	l, clock := newLane(t, tenant.Config{Rate: 10, Burst: 2})
	admit(t, l, "a").Done()
	admit(t, l, "a").Done()
	_, err := l.Admit("a")
	rej := rejection(t, err, bulkhead.ReasonTenantRate)
	if rej.RetryAfter != 100*time.Millisecond || rej.Quota != "rate quota of 10 a second, burst 2" {
		t.Errorf("retry after %s, quota %q; want 100ms (one token at 10/s) and the rate quota", rej.RetryAfter, rej.Quota)
	}
	admit(t, l, "b").Done() // b has its own bucket
	clock.Advance(60 * time.Millisecond)
	_, err = l.Admit("a")
	if rej := rejection(t, err, bulkhead.ReasonTenantRate); rej.RetryAfter != 40*time.Millisecond {
		t.Errorf("60ms later: retry after %s, want 40ms", rej.RetryAfter)
	}
	clock.Advance(40 * time.Millisecond)
	admit(t, l, "a").Done()
}

func TestChargeAfterTheFact(t *testing.T) {
	l, clock := newLane(t, tenant.Config{Rate: 10, Burst: 10})
	tk := admit(t, l, "a")
	tk.Charge(9) // the call turned out to cost 10 units in all
	tk.Done()
	_, err := l.Admit("a")
	if rej := rejection(t, err, bulkhead.ReasonTenantRate); rej.RetryAfter != 100*time.Millisecond {
		t.Errorf("after spending the bucket: retry after %s, want 100ms", rej.RetryAfter)
	}
	// Through Do, the tenant from the context; a charge above the bucket
	// takes the whole bucket: 9 left after the call's own token, 1 in debt.
	ctx := bulkhead.WithTenant(context.Background(), "b")
	err = l.Do(ctx, func(ctx context.Context) error {
		l.Charge(ctx, 1000)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	_, err = l.Admit("b")
	if rej := rejection(t, err, bulkhead.ReasonTenantRate); rej.RetryAfter != 200*time.Millisecond {
		t.Errorf("after a charge of 1000: retry after %s, want 200ms (1 token, 1 in debt, at 10/s)", rej.RetryAfter)
	}
	clock.Advance(200 * time.Millisecond)
	admit(t, l, "b").Done()
}

// TestFairShareIsWorkConserving: a tenant alone may use the lane up to
// ContendedAt; once it is contended the tenant furthest over its share is
// refused and the others, under theirs, still get in.
func TestFairShareIsWorkConserving(t *testing.T) {
	l, _ := newLane(t, tenant.Config{}) // ContendedAt: 3/4 of 8 = 6
	var held []tenant.Ticket
	for range 6 {
		held = append(held, admit(t, l, "flood"))
	}
	_, err := l.Admit("flood")
	rej := rejection(t, err, bulkhead.ReasonTenantShare)
	if rej.RetryAfter != time.Second {
		t.Errorf("retry after %s, want the config's 1s", rej.RetryAfter)
	}
	held = append(held, admit(t, l, "b"), admit(t, l, "c")) // under their share: 6/3 = 2
	_, err = l.Admit("flood")
	rejection(t, err, bulkhead.ReasonTenantShare)
	held = append(held, admit(t, l, "b")) // b now runs 2, its share
	_, err = l.Admit("b")
	rejection(t, err, bulkhead.ReasonTenantShare)
	for _, tk := range held[:5] { // the flood ends but for one call
		tk.Done()
	}
	admit(t, l, "flood").Done() // 4 running, below ContendedAt: idle capacity is anyone's
	for _, tk := range held[5:] {
		tk.Done()
	}
	if tot := l.Totals(); tot.Running != 0 || tot.Active != 0 {
		t.Errorf("totals %+v; want nothing running", tot)
	}
}

func TestFairShareOff(t *testing.T) {
	l, _ := newLane(t, tenant.Config{ContendedAt: -1})
	for range 20 {
		admit(t, l, "flood") // only the lane's own slots bound it (Admit does not take them)
	}
}

func TestIdleTenantsExpireAndStateIsBounded(t *testing.T) {
	l, clock := newLane(t, tenant.Config{Rate: 1, Burst: 1, MaxTenants: 512, IdleAfter: time.Minute})
	// Past MaxTenants, the new tenants of a full shard share one overflow
	// tenant's quota: with a bucket of 1 a second, most of them are refused.
	refused := 0
	for i := range 5000 {
		tk, err := l.Admit(fmt.Sprintf("t%d", i))
		if err != nil {
			rejection(t, err, bulkhead.ReasonTenantRate)
			refused++
		}
		tk.Done()
	}
	if n := l.Totals().Tracked; n > 512 {
		t.Fatalf("%d tenants tracked, want at most MaxTenants (512)", n)
	}
	if refused == 0 {
		t.Error("no new tenant of a full lane was refused: the overflow quota is not shared")
	}
	clock.Advance(2 * time.Minute)
	l.Sweep()
	if n := l.Totals().Tracked; n != 0 {
		t.Fatalf("%d tenants tracked after the idle time, want 0", n)
	}
}

// TestExpiryForgivesNoDebt: a tenant whose bucket is still refilling is
// kept past IdleAfter, or forgetting it would hand it a full bucket.
func TestExpiryForgivesNoDebt(t *testing.T) {
	l, clock := newLane(t, tenant.Config{Rate: 1, Burst: 100, IdleAfter: time.Second})
	admit(t, l, "idle").Done()
	tk := admit(t, l, "debtor")
	tk.Charge(100) // 1 in debt: the bucket is full again in 101 s
	tk.Done()
	clock.Advance(100 * time.Second)
	l.Sweep()
	if top, n := l.Top(5), l.Totals().Tracked; n != 1 {
		t.Fatalf("%d tenants tracked (%v) after 100 s, want only the debtor", n, top)
	}
	clock.Advance(time.Second)
	l.Sweep()
	if n := l.Totals().Tracked; n != 0 {
		t.Fatalf("%d tenants tracked once the debtor's bucket is full, want 0", n)
	}
}

func TestTopOffenders(t *testing.T) {
	l, _ := newLane(t, tenant.Config{MaxConcurrent: 1, ContendedAt: -1})
	held := []tenant.Ticket{admit(t, l, "a"), admit(t, l, "b"), admit(t, l, "c")}
	for i, key := range []string{"a", "b", "b", "b", "c", "c"} {
		if _, err := l.Admit(key); err == nil {
			t.Fatalf("admission %d of %s was not refused", i, key)
		}
	}
	admit(t, l, "quiet").Done()
	got := l.Top(2)
	want := []tenant.Offender{{Tenant: "b", Rejected: 3, Running: 1}, {Tenant: "c", Rejected: 2, Running: 1}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Top(2) = %v, want %v", got, want)
	}
	for _, tk := range held {
		tk.Done()
	}
}

func TestCallWithoutTenantIsNotCounted(t *testing.T) {
	l, _ := newLane(t, tenant.Config{MaxConcurrent: 1})
	for range 3 {
		if err := l.Do(context.Background(), func(context.Context) error { return nil }); err != nil {
			t.Fatal(err)
		}
	}
	if tot := l.Totals(); tot.Tracked != 0 || tot.Admitted != 0 {
		t.Errorf("totals %+v: calls without a tenant were counted", tot)
	}
}

func TestBadConfig(t *testing.T) {
	for _, cfg := range []tenant.Config{{MaxConcurrent: -1}, {Rate: -1}, {ContendedAt: 9}, {IdleAfter: -time.Second}} {
		if _, err := tenant.New(bulkhead.MustExecutor[Reports](), cfg); err == nil {
			t.Errorf("New accepted %+v", cfg)
		}
	}
}

// TestHTTPAnswers429WithTheQuota: over HTTP a tenant over its quota gets
// 429, Retry-After from its bucket and a problem body naming the quota;
// another tenant is served.
func TestHTTPAnswers429WithTheQuota(t *testing.T) {
	l, _ := newLane(t, tenant.Config{Rate: 0.5, Burst: 1})
	h := l.Handler(func(r *http.Request) string { return r.Header.Get("X-Tenant") },
		http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if bulkhead.TenantOf(r.Context()) == "" {
				t.Error("the handler's context does not carry the tenant")
			}
		}))
	serve := func(tenant string) *httptest.ResponseRecorder {
		w := httptest.NewRecorder()
		r := httptest.NewRequest("GET", "/report", nil)
		r.Header.Set("X-Tenant", tenant)
		h.ServeHTTP(w, r)
		return w
	}
	if w := serve("flood"); w.Code != http.StatusOK {
		t.Fatalf("first request: %d", w.Code)
	}
	w := serve("flood")
	if w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") != "2" || w.Header().Get("Content-Type") != "application/problem+json" {
		t.Fatalf("over the rate: %d, Retry-After %q, %s; want 429, 2 (a token every 2 s), a problem body",
			w.Code, w.Header().Get("Retry-After"), w.Header().Get("Content-Type"))
	}
	var p bulkhead.Problem
	if err := json.Unmarshal(w.Body.Bytes(), &p); err != nil {
		t.Fatal(err)
	}
	if p.Type != bulkhead.ProblemTypeTenantQuota || p.Tenant != "flood" || p.Quota != "rate quota of 0.5 a second, burst 1" ||
		p.Reason != "tenant_rate" || p.Code != "ERR_REPORTS_TENANT_QUOTA_EXCEEDED" || p.RetryAfter != 2 {
		t.Errorf("problem body %+v", p)
	}
	if w := serve("calm"); w.Code != http.StatusOK {
		t.Errorf("another tenant: %d, want 200", w.Code)
	}
}

// TestConcurrentAdmissions: many goroutines admitting, charging and
// ending calls of a few tenants leave the counts at zero and every call
// counted once, admitted or refused (run with -race).
func TestConcurrentAdmissions(t *testing.T) {
	l, err := tenant.New(bulkhead.MustExecutor[Reports](), tenant.Config{MaxConcurrent: 3, Rate: 1e6})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 2000 {
				key := fmt.Sprintf("t%d", (g+i)%5)
				if tk, err := l.Admit(key); err == nil {
					tk.Charge(1)
					l.Charge(bulkhead.WithTenant(context.Background(), key), 1)
					tk.Done()
				}
			}
		})
	}
	wg.Go(func() {
		for range 50 {
			l.Top(3)
			l.Sweep()
			l.Totals()
		}
	})
	wg.Wait()
	tot := l.Totals()
	if tot.Running != 0 || tot.Active != 0 {
		t.Errorf("totals %+v after every call ended", tot)
	}
	refused := uint64(0)
	for _, n := range tot.Rejected {
		refused += n
	}
	if tot.Admitted+refused != 8*2000 {
		t.Errorf("%d admitted and %d refused, want the %d calls made", tot.Admitted, refused, 8*2000)
	}
}

// countingBreaker is a closed breaker that counts the failures it is told of.
type countingBreaker struct {
	mu       sync.Mutex
	failures int
}

func (*countingBreaker) Refusing() bool { return false }
func (*countingBreaker) Permit() bool   { return true }
func (b *countingBreaker) Done(failure bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if failure {
		b.failures++
	}
}
func (*countingBreaker) IsFailure(err error) bool                                { return err != nil }
func (*countingBreaker) State() bulkhead.BreakerState                            { return bulkhead.BreakerClosed }
func (*countingBreaker) Bind(string, func(from, to bulkhead.BreakerState)) error { return nil }

// TestHandlerFailuresReachTheWrappedLanesBreaker: behind the quotas, a
// handler's 5xx still counts against the lane's dependency.
func TestHandlerFailuresReachTheWrappedLanesBreaker(t *testing.T) {
	b := &countingBreaker{}
	l := tenant.MustNew(bulkhead.MustExecutor[Reports](bulkhead.WithBreaker(b)), tenant.Config{})
	h := l.Handler(func(*http.Request) string { return "a" }, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusBadGateway)
	}))
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/report", nil))
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.failures != 1 {
		t.Errorf("the breaker was told of %d failures, want the handler's 502", b.failures)
	}
}
