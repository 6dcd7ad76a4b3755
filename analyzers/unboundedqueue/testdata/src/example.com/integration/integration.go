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

// Client keeps an http.Client its constructor gives a timeout, as
// miniflux's omnivore and karakeep clients do.
type Client struct{ wrapped *http.Client }

func NewClient() *Client {
	return &Client{wrapped: &http.Client{Timeout: 10 * time.Second}}
}

// Save waits at most the constructor's timeout: no fact.
func (c *Client) Save(e *Entry) error {
	resp, err := c.wrapped.Post("https://bookmarks.example.com/add", "text/plain", bytes.NewBufferString(e.URL))
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Plain keeps whatever client it is given: a wait with no deadline seen.
type Plain struct{ HTTP *http.Client }

func (p *Plain) Save(e *Entry) error { // want Save:"waitsOnNetwork"
	resp, err := p.HTTP.Post("https://bookmarks.example.com/add", "text/plain", bytes.NewBufferString(e.URL))
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Later waits: the Timeout comes before other calls in the function.
func SendLater(e *Entry) error {
	client := &http.Client{Timeout: 10 * time.Second}
	req, err := http.NewRequest(http.MethodPost, "https://bookmarks.example.com/add", bytes.NewBufferString(e.URL))
	if err != nil {
		return err
	}
	req.Header.Set("User-Agent", "integration")
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
