// Package searches holds loops that go round on an error without retrying
// a failing call against a dependency — a walk along an error chain, a
// generate-until-valid search, a wait the server asked for — and the real
// storms that look like them.
package searches

import (
	"errors"
	"fmt"
	"math/rand"
	"net/http"
	"strconv"
	"time"
)

// ---- walking an error chain ----

// walksErrorChain: errors.Unwrap is handed what it returned the round
// before; the chain ends, and nothing is called again.
func walksErrorChain(err error) error {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			break
		}
		err = next
	}
	return err
}

type stackTracer interface{ StackTrace() []uintptr }

// walksErrorChainForRoot: the same walk, remembering a link on the way.
func walksErrorChainForRoot(err error) error {
	var root error
	for {
		next := errors.Unwrap(err)
		if next == nil {
			break
		}
		err = next
		if _, ok := err.(stackTracer); ok {
			root = err
		}
	}
	return root
}

// walksErrorChainWhileNotNil: the loop condition is the chain's end.
func walksErrorChainWhileNotNil(err error) int {
	n := 0
	for err != nil {
		n++
		err = errors.Unwrap(err)
	}
	return n
}

// reconnect calls the network with the last error (for its log).
func reconnect(last error) error {
	resp, err := http.Post("http://broker/reconnect", "text/plain", nil)
	if err != nil {
		return fmt.Errorf("after %v: %w", last, err)
	}
	return resp.Body.Close()
}

// feedsErrorToNetworkCall is a storm: the error goes back into a call that
// reaches the network every round, with no bound and no pause.
func feedsErrorToNetworkCall() {
	err := errors.New("start")
	for err != nil { // want `this loop retries searches.reconnect \(a network call: → http.Post\) when it fails with no bound on attempts, with no pause between attempts`
		err = reconnect(err)
	}
}

// ---- generating until a local check passes ----

func validName(s string) error {
	if len(s) > 12 {
		return errors.New("too long")
	}
	return nil
}

// generatesUntilValid: each round checks a new random candidate with a
// pure local check: rejection sampling, no dependency called.
func generatesUntilValid(words []string) string {
	for {
		res := fmt.Sprintf("%s %s", words[rand.Intn(len(words))], words[rand.Intn(len(words))])
		err := validName(res)
		if err == nil {
			return res
		}
	}
}

// register reaches the network.
func register(id string) error {
	resp, err := http.Post("http://registry/"+id, "text/plain", nil)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// registersFreshIDs is a storm: a new candidate each round, but each one
// is sent over the network, with no bound and no pause.
func registersFreshIDs() string {
	for { // want `this loop retries searches.register \(a network call: → http.Post\) when it fails with no bound on attempts, with no pause between attempts`
		id := strconv.Itoa(rand.Int())
		if err := register(id); err == nil {
			return id
		}
	}
}

type checker interface{ Check(string) error }

// checksThroughInterface: a fresh candidate, but the check is an interface
// method whose implementation (a remote validator?) is not known.
func checksThroughInterface(c checker) string {
	for { // want `this loop retries \(searches.checker\).Check when it fails with no bound on attempts, with no pause between attempts`
		id := strconv.Itoa(rand.Int())
		if err := c.Check(id); err == nil {
			return id
		}
	}
}

// ---- the server's own Retry-After ----

// RateLimitedError carries the wait the server asked for.
type RateLimitedError struct{ RetryAfter time.Duration }

func (e *RateLimitedError) Error() string { return "rate limited" }

// lookup calls the API; a 429 comes back as a *RateLimitedError.
func lookup(email string) (string, error) {
	resp, err := http.Get("http://api/users?email=" + email)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusTooManyRequests {
		secs, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
		return "", &RateLimitedError{RetryAfter: time.Duration(secs) * time.Second}
	}
	return resp.Header.Get("X-User"), nil
}

// honoursServerRetryAfter: it goes round only when the server says
// rate-limited, and waits as long as the server said; every other error
// returns.
func honoursServerRetryAfter(email string) (string, error) {
	for {
		user, err := lookup(email)
		var rl *RateLimitedError
		if errors.As(err, &rl) {
			time.Sleep(rl.RetryAfter)
			continue
		}
		return user, err
	}
}

// send returns the response along with the error of a non-2xx status.
func send(url string) (*http.Response, error) {
	resp, err := http.Get(url)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode/100 != 2 {
		return resp, errors.New(resp.Status)
	}
	return resp, nil
}

// honoursRetryAfterHeader: the wait is parsed from the response's
// Retry-After header, the server's own pacing.
func honoursRetryAfterHeader(url string) error {
	for {
		resp, err := send(url)
		if err != nil {
			if resp != nil && resp.StatusCode == http.StatusServiceUnavailable {
				secs, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
				time.Sleep(time.Duration(secs) * time.Second)
				continue
			}
			return err
		}
		return resp.Body.Close()
	}
}

// retryAfterOnlySometimes is a storm: a rate limit waits the server's
// time, but any other error goes round after a constant second, in step
// with every other caller, for ever.
func retryAfterOnlySometimes(email string) string {
	for { // want `this loop retries searches.lookup \(a network call: → http.Get\) when it fails with no bound on attempts`
		user, err := lookup(email)
		if err == nil {
			return user
		}
		var rl *RateLimitedError
		if errors.As(err, &rl) {
			time.Sleep(rl.RetryAfter)
		} else {
			time.Sleep(time.Second)
		}
	}
}

// delayFor answers a constant whatever the error says.
func delayFor(err error) time.Duration {
	if err == nil {
		return 0
	}
	return 2 * time.Second
}

// constantWaitBesideTheError is a storm: the error is handed to a
// function, not read, and the wait is not the server's.
func constantWaitBesideTheError(email string) string {
	const wait = 2 * time.Second
	for { // want `this loop retries searches.lookup \(a network call: → http.Get\) when it fails with no bound on attempts, waiting a constant 2s between attempts with no backoff or jitter`
		user, err := lookup(email)
		if err != nil {
			_ = delayFor(err)
			time.Sleep(wait)
			continue
		}
		return user
	}
}

// ---- asking each link of an error chain for the next ----

type causer interface{ Cause() error }

type coded interface{ Code() int }

// statusFromCauses walks the chain through each link's Cause, found by
// errors.As: the method is the error's own, and each round asks a
// different link. Silent.
func statusFromCauses(err error) int {
	for err != nil {
		var sc coded
		if errors.As(err, &sc) {
			return sc.Code()
		}
		var c causer
		if !errors.As(err, &c) {
			break
		}
		err = c.Cause()
	}
	return 500
}

// rootCause does the same with a type assertion. Silent.
func rootCause(err error) error {
	for err != nil {
		c, ok := err.(causer)
		if !ok {
			return err
		}
		err = c.Cause()
	}
	return nil
}

type redialer interface{ Redial() error }

// redialsUntilUp calls an interface method on a receiver that is not the
// error: its implementation may be a client, retried at once, forever.
func redialsUntilUp(r redialer) {
	err := r.Redial()
	for err != nil { // want `this loop retries \(searches.redialer\).Redial when it fails with no bound on attempts`
		err = r.Redial()
	}
}
