// Package restyretry configures resty clients: a retry count at an
// integer's maximum retries every request until it succeeds.
package restyretry

import (
	"math"

	"github.com/go-resty/resty/v2"
)

func internalClient() *resty.Client {
	c := resty.New()
	c.SetBaseURL("http://api:8080")
	c.SetRetryCount(math.MaxInt32) // want `this resty.SetRetryCount call retries every request the client sends with no bound on attempts`
	c.AddRetryCondition(func(r *resty.Response, err error) bool { return err != nil })
	return c
}

func chained() *resty.Client {
	return resty.New().SetRetryCount(math.MaxInt64) // want `this resty.SetRetryCount call retries every request the client sends with no bound on attempts`
}

// ---- traps: a bounded count keeps resty's jittered backoff ----

func billingClient() *resty.Client {
	return resty.New().SetRetryCount(3)
}

func configured(n int) *resty.Client {
	return resty.New().SetRetryCount(n)
}
