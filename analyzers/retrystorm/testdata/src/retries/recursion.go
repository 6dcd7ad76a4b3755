package retries

import (
	"context"
	"database/sql"
	"errors"
	"net/http"
	"time"
)

// ---- recursion is a loop ----

type connConfig struct{ dsn string }

// connect calls itself again, 5s later, for as long as the database is
// down (statping's Connect): retry is passed on unchanged, so testing it
// bounds nothing.
func connect(cfg *connConfig, retry bool) (*sql.DB, error) { // want connect:"sleeps\\(constant\\)"
	db, err := sql.Open("pgx", cfg.dsn)
	if err != nil {
		if retry {
			time.Sleep(5 * time.Second)
			return connect(cfg, retry) // want `this call of connect by itself retries sql.Open when it fails with no bound on attempts, waiting a constant 5s between attempts`
		}
		return nil, err
	}
	return db, nil
}

var errCrashed = errors.New("crashed")

// convert converts again at once on a crash, with no bound (gotenberg's Pdf).
func convert(ctx context.Context, client *http.Client, url string) error {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	_, err := client.Do(req)
	if err == nil {
		return nil
	}
	if errors.Is(err, errCrashed) {
		return convert(ctx, client, url) // want `this call of convert by itself retries \(\*http.Client\).Do when it fails with no bound on attempts, with no pause between attempts`
	}
	return err
}

// connectAtMost passes a counter down: bounded, growing pause: silent.
func connectAtMost(cfg *connConfig, attempts int, delay time.Duration) (*sql.DB, error) { // want connectAtMost:"sleeps\\(param \\[2\\]\\)"
	db, err := sql.Open("pgx", cfg.dsn)
	if err == nil {
		err = db.Ping()
	}
	if err != nil && attempts > 1 {
		time.Sleep(delay)
		return connectAtMost(cfg, attempts-1, delay*2)
	}
	return db, err
}

type node struct {
	url      string
	children []*node
}

// crawl calls itself on success, for each child: a walk, not a retry.
func crawl(client *http.Client, n *node) error {
	if _, err := client.Get(n.url); err != nil {
		return err
	}
	for _, c := range n.children {
		if err := crawl(client, c); err != nil {
			return err
		}
	}
	return nil
}

// fetchNext calls itself with the next page's address: it goes on after a
// success, and stops at the first error.
func fetchNext(client *http.Client, url string, depth int) error {
	resp, err := client.Get(url)
	if err != nil {
		return err
	}
	next := resp.Header.Get("Link")
	if next == "" || depth == 0 {
		return nil
	}
	return fetchNext(client, next, depth-1)
}

type supervisor interface {
	Run(ctx context.Context, task func() error) error
}

type converter struct {
	sup    supervisor
	client *http.Client
}

// pdf runs the conversion under a supervisor and runs it again at once
// when the process crashed (gotenberg's Api.Pdf).
func (c *converter) pdf(ctx context.Context, url string) error {
	err := c.sup.Run(ctx, func() error {
		_, err := c.client.Get(url)
		return err
	})
	if err == nil {
		return nil
	}
	if errors.Is(err, errCrashed) {
		return c.pdf(ctx, url) // want `this call of pdf by itself retries \(retries.supervisor\).Run when it fails with no bound on attempts, with no pause between attempts`
	}
	return err
}

type flowError struct{ expired bool }

func (e *flowError) Error() string { return "flow expired" }

type flows struct{ client *http.Client }

// replace makes a new flow when err says the old one expired, and fails
// when that fails; any other err it leaves alone.
func (f *flows) replace(ctx context.Context, err error) (bool, error) {
	var fe *flowError
	if !errors.As(err, &fe) {
		return false, nil
	}
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "http://flows/new", nil)
	if _, err := f.client.Do(req); err != nil {
		return false, err
	}
	return true, nil
}

// writeError (kratos's WriteFlowError) writes err, first trying to replace
// an expired flow; when the replacement fails, it writes that failure by
// calling itself with it. The call is handed the error it returned, which
// is no expired flow: handling an error, not retrying the call. Silent.
func (f *flows) writeError(ctx context.Context, w http.ResponseWriter, err error) {
	if replaced, inner := f.replace(ctx, err); inner != nil {
		f.writeError(ctx, w, inner)
		return
	} else if replaced {
		return
	}
	http.Error(w, err.Error(), http.StatusBadRequest)
}

// notify calls itself with the error it got, for its log line, and sends
// the same message again: the call does not read the error it is passed
// on with, so every round makes the same call.
func notify(ctx context.Context, client *http.Client, url string, last error) error {
	if last != nil {
		println("retrying after", last.Error())
	}
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	_, err := client.Do(req)
	if err != nil {
		return notify(ctx, client, url, err) // want `this call of notify by itself retries \(\*http.Client\).Do when it fails with no bound on attempts, with no pause between attempts`
	}
	return nil
}
