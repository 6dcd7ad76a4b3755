// Package retried holds goroutines per request whose work retries a call
// on a schedule (authn-server's webhook sender): a per-call timeout bounds
// each attempt, not the goroutine, which lives as long as the schedule.
package retried

import (
	"net/http"
	"strings"
	"time"
)

var schedule = []time.Duration{time.Second, 3 * time.Second, 15 * time.Second, 60 * time.Second}

// retry calls fn again after each pause of the schedule until it succeeds.
func retry(schedule []time.Duration, fn func() error) error {
	err := fn()
	if err != nil {
		for _, delay := range schedule {
			if err = fn(); err == nil {
				return nil
			}
			time.Sleep(delay)
		}
	}
	return err
}

// once calls fn a single time: no schedule.
func once(fn func() error) error { return fn() }

// Send posts with a 10 s timeout per attempt, and retries for a minute
// and more.
func Send(url string) error { // want Send:"waitsOnNetwork"
	c := &http.Client{Timeout: 10 * time.Second}
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader("x"))
	if err != nil {
		return err
	}
	return retry(schedule, func() error {
		res, err := c.Do(req)
		if err == nil {
			res.Body.Close()
		}
		return err
	})
}

// SendOnce: the timeout bounds its one attempt.
func SendOnce(url string) error {
	c := &http.Client{Timeout: 10 * time.Second}
	return once(func() error {
		res, err := c.Get(url)
		if err == nil {
			res.Body.Close()
		}
		return err
	})
}

// PasswordReset starts a sender per request.
func PasswordReset() http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		go func() { // want `goroutine per request: this go statement starts, on every request, a goroutine that waits on the network \(retried.Send\)`
			_ = Send(r.FormValue("hook"))
		}()
		go func() {
			_ = SendOnce(r.FormValue("hook"))
		}()
		w.WriteHeader(http.StatusOK)
	}
}
