// Package backoffpolicy hands a retry runner a backoff value: the library
// runs the loop, and the value says how long it waits and when it stops.
package backoffpolicy

import (
	"context"
	"net/http"
	"os"
	"time"

	"github.com/cenkalti/backoff/v4"
	retry "github.com/sethvargo/go-retry"
)

func post(url string) error {
	resp, err := http.Post(url, "application/json", nil)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// ---- positives ----

// pushConstantForever: a constant backoff never says Stop, so the webhook
// is posted every second until it answers, in step with every instance.
func pushConstantForever(url string) error { // want pushConstantForever:"sleeps\\(growing\\)"
	return backoff.Retry(func() error { return post(url) }, backoff.NewConstantBackOff(time.Second)) // want `this backoff.Retry call retries the function it is handed \(a network call: .*\) with no bound on attempts, waiting a constant time between attempts with no backoff or jitter`
}

// pushConstantLiteral: the same value written as a literal, kept in a
// variable, bounded to five attempts: still in step.
func pushConstantLiteral(url string) error { // want pushConstantLiteral:"sleeps\\(growing\\)"
	b := &backoff.ConstantBackOff{Interval: 500 * time.Millisecond}
	return backoff.RetryNotify(func() error { return post(url) }, backoff.WithMaxRetries(b, 5), nil) // want `this backoff.RetryNotify call retries .* waiting a constant time between attempts`
}

// fetchConstant: the generic form.
func fetchConstant(url string) (int, error) { // want fetchConstant:"sleeps\\(growing\\)"
	return backoff.RetryWithData(func() (int, error) { return 1, post(url) }, backoff.WithMaxRetries(backoff.NewConstantBackOff(time.Second), 3)) // want `this backoff.RetryWithData call retries .* waiting a constant time`
}

// notifyConstant: go-retry's constant policy, bounded by attempts and by
// a context that ends only at shutdown: in step.
func notifyConstant(ctx context.Context, url string) error {
	b := retry.WithMaxRetries(10, retry.NewConstant(time.Second))
	return retry.Do(ctx, b, func(ctx context.Context) error { return retry.RetryableError(post(url)) }) // want `this retry.Do call retries .* waiting a constant time between attempts`
}

// notifyConstantShorthand: go-retry's Constant runs the constant policy
// itself.
func notifyConstantShorthand(ctx context.Context, url string) error {
	return retry.Constant(ctx, time.Second, func(ctx context.Context) error { return post(url) }) // want `this retry.Constant call retries .* waiting a constant time`
}

// PushUntilShutdown: cenkalti's WithContext with a context that may end
// only at shutdown bounds the attempts, not the lockstep.
func PushUntilShutdown(ctx context.Context, url string) error { // want PushUntilShutdown:"sleeps\\(growing\\)"
	b := backoff.WithContext(backoff.NewConstantBackOff(time.Second), ctx)
	return backoff.Retry(func() error { return post(url) }, b) // want `this backoff.Retry call retries .*\) waiting a constant time between attempts`
}

// ---- traps: must stay silent ----

// boundedByJitter: a constant delay with jitter added does not move in step.
func boundedByJitter(ctx context.Context, url string) error {
	b := retry.WithMaxRetries(5, retry.WithJitter(200*time.Millisecond, retry.NewConstant(time.Second)))
	return retry.Do(ctx, b, func(ctx context.Context) error { return post(url) })
}

// boundedByMaxDuration: at most 30 s of attempts, a known, small number.
func boundedByMaxDuration(ctx context.Context, url string) error {
	return retry.Do(ctx, retry.WithMaxDuration(30*time.Second, retry.NewConstant(time.Second)), func(ctx context.Context) error { return post(url) })
}

// boundedByDeadlineContext: the runner watches a context that ends by
// itself (a readiness wait of at most 30 s).
func boundedByDeadlineContext(url string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return retry.Do(ctx, retry.NewConstant(time.Second), func(ctx context.Context) error { return post(url) })
}

// boundedByDeadlineBackoffContext: cenkalti's WithContext with such a
// context stops the constant policy at the deadline.
func boundedByDeadlineBackoffContext(url string) error { // want boundedByDeadlineBackoffContext:"sleeps\\(growing\\)"
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return backoff.Retry(func() error { return post(url) }, backoff.WithContext(backoff.NewConstantBackOff(time.Second), ctx))
}

// backsOffExponentially: the library's exponential policy grows and has
// jitter.
func backsOffExponentially(url string) error { // want backsOffExponentially:"sleeps\\(growing\\)"
	return backoff.Retry(func() error { return post(url) }, backoff.NewExponentialBackOff())
}

// localOperationOnly: a bounded constant retry of a local file touches no
// dependency.
func localOperationOnly(path string) error { // want localOperationOnly:"sleeps\\(growing\\)"
	return backoff.Retry(func() error { _, err := os.Stat(path); return err }, backoff.WithMaxRetries(backoff.NewConstantBackOff(time.Second), 3))
}

// policyFromCaller: a backoff value handed in is the caller's policy, not
// read here.
func policyFromCaller(url string, b backoff.BackOff) error { // want policyFromCaller:"sleeps\\(growing\\)"
	return backoff.Retry(func() error { return post(url) }, b)
}
