// Package optsdeadline builds each call's context in a helper, as client
// libraries do from their options (a default wait unless the caller gave
// a context), and the handlers start the calls in goroutines.
package optsdeadline

import (
	"context"
	"net/http"
	"time"
)

type Client struct {
	http *http.Client
	url  string
	wait time.Duration
}

type callOpts struct{ ctx context.Context }

// withWait gives the call the client's default wait.
func (c *Client) withWait() (*callOpts, context.CancelFunc) {
	ctx, cancel := context.WithTimeout(context.Background(), c.wait)
	return &callOpts{ctx: ctx}, cancel
}

// detached makes a context that only a cancel ends.
func (c *Client) detached() (*callOpts, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	return &callOpts{ctx: ctx}, cancel
}

func (c *Client) get(o *callOpts) error { // want get:"waitsOnNetwork"
	req, err := http.NewRequestWithContext(o.ctx, "GET", c.url, nil)
	if err != nil {
		return err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Delete's wait is bounded by the helper's timeout.
func (c *Client) Delete() error {
	o, cancel := c.withWait()
	defer cancel()
	return c.get(o)
}

// Watch waits until the server answers, however long.
func (c *Client) Watch() error { // want Watch:"waitsOnNetwork"
	o, cancel := c.detached()
	defer cancel()
	return c.get(o)
}

type API struct{ c *Client }

func (a *API) Forget(w http.ResponseWriter, r *http.Request) { // want Forget:"startsGoroutine"
	go a.c.Delete() // the client's default wait bounds it
	w.WriteHeader(http.StatusAccepted)
}

func (a *API) Follow(w http.ResponseWriter, r *http.Request) { // want Follow:"startsGoroutine"
	go a.c.Watch() // want `goroutine per request: this go statement starts, on every request, a goroutine that waits on the network \(\(\*optsdeadline.Client\).get\) with no deadline`
	w.WriteHeader(http.StatusAccepted)
}
