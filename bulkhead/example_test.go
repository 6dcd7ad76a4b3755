package bulkhead_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/bhlint/bhlint/bulkhead"
)

// TaxLane is the payment spec's tax lane: 15 calls at once, no queue, shed
// with 503 and Retry-After: 5.
type TaxLane struct{}

func (TaxLane) Spec() bulkhead.LaneSpec {
	return bulkhead.LaneSpec{
		Name:          "tax",
		MaxConcurrent: 15,
		MaxQueued:     0,
		Policy:        bulkhead.PolicyShed,
		RetryAfter:    5 * time.Second,
	}
}

func Example() {
	tax := bulkhead.MustExecutor[TaxLane]()
	ctx := context.Background()

	// Fill the lane with 15 stalled calls.
	stalled, release := make(chan struct{}), make(chan struct{})
	for range 15 {
		go func() {
			_ = tax.Do(ctx, func(context.Context) error {
				stalled <- struct{}{}
				<-release
				return nil
			})
		}()
		<-stalled
	}

	// The 16th is rejected at once and never runs.
	err := tax.Do(ctx, func(context.Context) error { return errors.New("not reached") })
	var rej *bulkhead.Rejection
	if errors.As(err, &rej) {
		fmt.Println(rej.Lane, rej.Reason, rej.RetryAfter, rej.Code)
	}

	// Over HTTP the same rejection is a 503 with Retry-After and a problem body.
	h := tax.Handler(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("POST", "/v1/tax", nil))
	fmt.Println(w.Code, w.Header().Get("Retry-After"), w.Header().Get("Content-Type"))

	close(release)
	// Output:
	// tax saturated 5s ERR_TAX_BULKHEAD_SATURATED
	// 503 5 application/problem+json
}
