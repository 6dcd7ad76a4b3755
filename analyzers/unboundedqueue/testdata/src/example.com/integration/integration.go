// Package integration is shaped as miniflux's integrations: each client is
// built with a Timeout where it is used, so its waits end by themselves;
// and a look-alike that posts with the default client, which has none.
package integration

import (
	"bytes"
	"net/http"
	"time"
)

type Entry struct{ URL string }

// SendEntry waits at most ten seconds: no fact.
func SendEntry(e *Entry) {
	_ = addBookmark(e)
}

func addBookmark(e *Entry) error {
	client := &http.Client{Timeout: 10 * time.Second}
	resp, err := client.Post("https://bookmarks.example.com/add", "text/plain", bytes.NewBufferString(e.URL))
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// SendPlain posts with http.DefaultClient, which has no timeout.
func SendPlain(e *Entry) error { // want SendPlain:"waitsOnNetwork"
	resp, err := http.Post("https://bookmarks.example.com/add", "text/plain", bytes.NewBufferString(e.URL))
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
