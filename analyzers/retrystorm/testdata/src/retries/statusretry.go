package retries

import (
	"context"
	"math/rand"
	"net/http"
	"strconv"
	"time"
)

// apiResponse is a client library's response, as resty's is: the status
// is read by a method, not a field.
type apiResponse struct{ raw *http.Response }

func (r *apiResponse) StatusCode() int { return r.raw.StatusCode }

func (r *apiResponse) Header(key string) string { return r.raw.Header.Get(key) }

func postAPI(ctx context.Context, url string) (*apiResponse, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	return &apiResponse{raw: resp}, nil
}

// moveWhileBusy leaves on a transport error but goes round, forever, 500ms
// apart, while the API answers 429: the refusal comes back as a status, and
// the loop sends the request again.
func moveWhileBusy(ctx context.Context, url string) error {
	for { // want `this loop retries retries.postAPI \(a network call: → \(\*http.Client\).Do\) when the server answers 429 with no bound on attempts, waiting a constant 500ms between attempts`
		resp, err := postAPI(ctx, url)
		if err != nil {
			return err
		}
		if resp.StatusCode() == http.StatusTooManyRequests {
			time.Sleep(500 * time.Millisecond)
			continue
		}
		return nil
	}
}

// fetchAuthorized logs in again and resends at once on every 401, forever:
// a server that rejects the new token makes it spin.
func fetchAuthorized(url string) (*http.Response, error) {
	for { // want `this loop retries http.Get when the server answers 401 with no bound on attempts, with no pause between attempts`
		resp, err := http.Get(url)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode != http.StatusUnauthorized {
			return resp, nil
		}
		resp.Body.Close()
		relogin()
	}
}

func relogin() {}

// ---- traps: must stay silent ----

// waitCreated polls while the resource is not there yet (404): it waits
// for something to appear, it does not repeat a refused request. Silent.
func waitCreated(ctx context.Context, url string) error {
	for {
		resp, err := postAPI(ctx, url)
		if err != nil {
			return err
		}
		if resp.StatusCode() == http.StatusNotFound {
			time.Sleep(time.Second)
			continue
		}
		return nil
	}
}

// busyWithBackoff goes round on 503 at most 5 times, with a growing,
// jittered pause. Silent.
func busyWithBackoff(ctx context.Context, url string) error {
	delay := 100 * time.Millisecond
	for attempt := 0; attempt < 5; attempt++ {
		resp, err := postAPI(ctx, url)
		if err != nil {
			return err
		}
		if resp.StatusCode() != http.StatusServiceUnavailable {
			return nil
		}
		time.Sleep(delay + time.Duration(rand.Int63n(int64(delay))))
		delay *= 2
	}
	return nil
}

// throttledAsTold waits, on 429, as long as the server's Retry-After says:
// the server paces it. Silent.
func throttledAsTold(ctx context.Context, url string) error {
	for {
		resp, err := postAPI(ctx, url)
		if err != nil {
			return err
		}
		if resp.StatusCode() != http.StatusTooManyRequests {
			return nil
		}
		secs, _ := strconv.Atoi(resp.Header("Retry-After"))
		time.Sleep(time.Duration(secs) * time.Second)
	}
}

// refreshOnce resends once after renewing its token on a 401: two
// attempts, as the protocol asks (authenticate, then retry). Silent.
func refreshOnce(ctx context.Context, url string) error {
	var resp *apiResponse
	var err error
	for i := 0; i < 2; i++ {
		resp, err = postAPI(ctx, url)
		if err != nil {
			return err
		}
		if resp.StatusCode() != http.StatusUnauthorized {
			break
		}
		relogin()
	}
	_ = resp
	return nil
}
