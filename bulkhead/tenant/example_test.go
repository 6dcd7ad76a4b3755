package tenant_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/bhlint/bhlint/bulkhead"
	"github.com/bhlint/bhlint/bulkhead/tenant"
)

// Imports is a lane every customer's imports share: 20 at once.
type Imports struct{}

func (Imports) Spec() bulkhead.LaneSpec {
	return bulkhead.LaneSpec{MaxConcurrent: 20, Policy: bulkhead.PolicyThrottle, RetryAfter: time.Second}
}

func Example() {
	// Each tenant: at most 4 imports at once, 100 rows a second (a burst of
	// 1,000); past 15 imports running the lane is contended and a tenant
	// over its fair share is refused.
	imports := tenant.MustNew(bulkhead.MustExecutor[Imports](), tenant.Config{
		MaxConcurrent: 4,
		Rate:          100,
		Burst:         1000,
		ContendedAt:   15,
	})

	// The tenant comes from the request; the middleware puts it in the
	// context and answers a refusal with 429, Retry-After and a problem body.
	mw, err := bulkhead.NewMiddleware(bulkhead.MiddlewareConfig{
		Routes: map[string]bulkhead.Runner{"POST /v1/imports": imports},
		Tenant: func(r *http.Request) string { return r.Header.Get("X-Account") },
	})
	if err != nil {
		panic(err)
	}
	h := mw.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The import held 1,200 rows: charge them after the fact (the
		// call's own token is paid; a charge is at most the bucket).
		imports.Charge(r.Context(), 1199)
	}))

	for i := range 2 {
		w := httptest.NewRecorder()
		r := httptest.NewRequest("POST", "/v1/imports", nil)
		r.Header.Set("X-Account", "acme")
		h.ServeHTTP(w, r)
		fmt.Printf("%d: %d Retry-After %q\n", i, w.Code, w.Header().Get("Retry-After"))
	}

	// Work outside HTTP names its tenant with bulkhead.WithTenant.
	ctx := bulkhead.WithTenant(context.Background(), "globex")
	err = imports.Do(ctx, func(context.Context) error { return nil })
	fmt.Println(err, imports.Totals().Tracked)
	// Output:
	// 0: 200 Retry-After ""
	// 1: 429 Retry-After "1"
	// <nil> 2
}
