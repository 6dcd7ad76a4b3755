package retries

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	pkgerrors "github.com/pkg/errors"
)

// ---- a poll of a status, and retries dressed as one ----

var errNextLoop = errors.New("next loop")

// pollPrediction is oneapi's replicate adaptor: the loop goes round only
// on errNextLoop, which the closure returns after its GET succeeded with
// the task still pending, and after 3 s; a failed GET leaves the loop.
func pollPrediction(ctx context.Context, url string) error { // want pollPrediction:"sleeps\\(constant\\)"
	for {
		err := func() error {
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
			if err != nil {
				return err
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				return err
			}
			defer resp.Body.Close()
			var st struct{ Status string }
			if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
				return err
			}
			if st.Status == "pending" {
				time.Sleep(3 * time.Second)
				return errNextLoop
			}
			return nil
		}()
		if err != nil {
			if errors.Is(err, errNextLoop) {
				continue
			}
			return err
		}
		return nil
	}
}

var errTryAgain = errors.New("try again")

// pollAssigned is the same poll with the closure's error assigned to a
// variable declared before the loop and tested at once against the
// sentinel.
func pollAssigned(ctx context.Context, url string) error { // want pollAssigned:"sleeps\\(constant\\)"
	var err error
	for {
		err = func() error {
			resp, err := http.Get(url)
			if err != nil {
				return err
			}
			defer resp.Body.Close()
			if resp.StatusCode == http.StatusAccepted {
				time.Sleep(3 * time.Second)
				return errNextLoop
			}
			return nil
		}()
		if pkgerrors.Is(err, errNextLoop) { // the wrapping library's Is, as oneapi's
			continue
		}
		return err
	}
}

// retryMappedFailure maps the failed GET itself to the sentinel: a retry
// of a failure, at a constant pace, for ever.
func retryMappedFailure(ctx context.Context, url string) error { // want retryMappedFailure:"sleeps\\(constant\\)"
	for { // want `this loop retries retryMappedFailure\$1 \(a network call: → \(\*http.Client\).Do\) when it fails with no bound on attempts, waiting a constant time`
		err := func() error {
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
			if err != nil {
				return err
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				time.Sleep(time.Second)
				return errTryAgain
			}
			return resp.Body.Close()
		}()
		if err != nil {
			if errors.Is(err, errTryAgain) {
				continue
			}
			return err
		}
		return nil
	}
}

// busyPoll asks again at once while the task is pending: each request
// succeeds, and the loop sends them back to back.
func busyPoll(ctx context.Context, url string) error {
	for { // want `this loop retries busyPoll\$1 \(a network call: → http.Get\) when it fails with no bound on attempts, with no pause`
		err := func() error {
			resp, err := http.Get(url)
			if err != nil {
				return err
			}
			defer resp.Body.Close()
			if resp.StatusCode == http.StatusAccepted {
				return errNextLoop
			}
			return nil
		}()
		if err != nil {
			if errors.Is(err, errNextLoop) {
				continue
			}
			return err
		}
		return nil
	}
}

// retryAfterToken fetches a token (which succeeds), then maps the failed
// GET to the sentinel after a sleep: the first request's success does not
// make the second one's failure a status.
func retryAfterToken(ctx context.Context, url string) error { // want retryAfterToken:"sleeps\\(constant\\)"
	for { // want `this loop retries retryAfterToken\$1 \(a network call: → http.Get\) when it fails with no bound on attempts, waiting a constant time`
		err := func() error {
			tok, err := http.Get(url + "/token")
			if err != nil {
				return err
			}
			tok.Body.Close()
			resp, err := http.Get(url)
			if err != nil {
				time.Sleep(time.Second)
				return errNextLoop
			}
			return resp.Body.Close()
		}()
		if err != nil {
			if errors.Is(err, errNextLoop) {
				continue
			}
			return err
		}
		return nil
	}
}

func isTimeout(err error) bool { return errors.Is(err, context.DeadlineExceeded) }

// timeoutsGoRoundToo: a timeout goes round at once before the sentinel is
// tested, so the sentinel is not the only way round.
func timeoutsGoRoundToo(ctx context.Context, url string) error { // want timeoutsGoRoundToo:"sleeps\\(constant\\)"
	for { // want `this loop retries timeoutsGoRoundToo\$1 \(a network call: → http.Get\) when it fails with no bound on attempts`
		err := func() error {
			resp, err := http.Get(url)
			if err != nil {
				return err
			}
			defer resp.Body.Close()
			if resp.StatusCode == http.StatusAccepted {
				time.Sleep(3 * time.Second)
				return errNextLoop
			}
			return nil
		}()
		if err != nil {
			if isTimeout(err) {
				continue
			}
			if errors.Is(err, errNextLoop) {
				continue
			}
			return err
		}
		return nil
	}
}
