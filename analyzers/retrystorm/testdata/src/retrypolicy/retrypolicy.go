// Package retrypolicy calls a retry library whose options set the policy:
// the library runs the loop, and its options are judged as a loop would be.
package retrypolicy

import (
	"net/http"
	"os"
	"time"

	"github.com/avast/retry-go/v4"
)

func post(url string) error {
	resp, err := http.Post(url, "application/json", nil)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// pushForever retries the webhook until it succeeds.
func pushForever(url string) error {
	return retry.Do(func() error { return post(url) }, retry.UntilSucceeded()) // want `this retry.Do call retries the function it is handed \(a network call: .*\) with no bound on attempts`
}

// pushAttemptsZero: Attempts(0) is the library's "until it succeeds".
func pushAttemptsZero(url string) error {
	return retry.Do(func() error { return post(url) }, retry.Attempts(0), retry.Delay(time.Second)) // want `with no bound on attempts`
}

// pushFixed tries three times, a constant second apart: every instance
// retries in step.
func pushFixed(url string) error {
	opts := []retry.Option{retry.Attempts(3), retry.Delay(time.Second)}
	opts = append(opts, retry.DelayType(retry.FixedDelay))
	return retry.Do(func() error { return post(url) }, opts...) // want `this retry.Do call retries .* waiting a constant time between attempts with no backoff or jitter`
}

// fetchFixed: the same through DoWithData.
func fetchFixed(url string) (int, error) {
	return retry.DoWithData(func() (int, error) { return 1, post(url) }, retry.DelayType(retry.FixedDelay)) // want `this retry.DoWithData call retries .* waiting a constant time`
}

// ---- traps: must stay silent ----

// pushDefault keeps the library's defaults: 10 attempts, backoff with
// jitter. Silent.
func pushDefault(url string) error {
	return retry.Do(func() error { return post(url) })
}

// pushBackoff bounds and backs off. Silent.
func pushBackoff(url string) error {
	return retry.Do(func() error { return post(url) }, retry.Attempts(5), retry.DelayType(retry.BackOffDelay))
}

// statFixed waits a constant time between attempts at a local file: no
// dependency is loaded, and it gives up after the default 10. Silent.
func statFixed(path string) error {
	return retry.Do(func() error { _, err := os.Stat(path); return err }, retry.DelayType(retry.FixedDelay))
}

// pushOwnOptions: the options come from elsewhere; the analysis cannot
// read them and takes them to bound and back off. Silent.
func pushOwnOptions(url string, opts []retry.Option) error {
	return retry.Do(func() error { return post(url) }, opts...)
}
