package retries

import (
	"bytes"
	"net/http"
	"time"
)

// Response is a project's own result type: the error is folded into the
// status, as gocron's httpclient does.
type Response struct {
	StatusCode int
	Body       string
	Next       string
}

func postJSON(url, body string) Response {
	resp, err := http.Post(url, "application/json", bytes.NewBufferString(body))
	if err != nil {
		return Response{StatusCode: 0, Body: err.Error()}
	}
	defer resp.Body.Close()
	return Response{StatusCode: resp.StatusCode}
}

// notifyWebhook tries three times, 2s apart, until the status is 200: a
// retry on the call's outcome, with a constant pause.
func notifyWebhook(url, body string) {
	for i := 0; i < 3; i++ { // want `this loop retries retries.postJSON \(a network call: → http.Post\) when it fails waiting a constant 2s between attempts with no backoff or jitter`
		resp := postJSON(url, body)
		if resp.StatusCode == 200 {
			break
		}
		time.Sleep(2 * time.Second)
	}
}

// fetchPages goes round on success, to the next page: not a retry. Silent.
func fetchPages(url string) []string {
	var bodies []string
	for page := url; page != ""; {
		resp := postJSON(page, "")
		if resp.StatusCode != 200 {
			return bodies
		}
		bodies = append(bodies, resp.Body)
		page = resp.Next
	}
	return bodies
}

// waitGone polls until the resource is gone (404): the constant is no
// success status, and the loop stops on it. Silent.
func waitGone(url string) {
	for i := 0; i < 3; i++ {
		if resp := postJSON(url, ""); resp.StatusCode == 404 {
			return
		}
	}
}

// pollJob goes round while the job's status is not 200, but the call
// returns its error beside the response: a failure returns; a status is the
// server's answer, not a failed call. Silent.
func pollJob(url string) error {
	for {
		resp, err := http.Get(url)
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			return nil
		}
		time.Sleep(time.Second)
	}
}
