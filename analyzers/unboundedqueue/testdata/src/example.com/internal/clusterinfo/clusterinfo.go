// Package clusterinfo (internal: only the module calls it) queries every node of a cluster it is handed, one
// goroutine per address, joined before it returns (nsq's clusterinfo): as
// many goroutines as the list its callers hand it, which they decide
// (clusteradmin).
package clusterinfo

import (
	"context"
	"net/http"
	"sync"
)

type ClusterInfo struct{ client *http.Client }

// Config is what the process is started with.
type Config struct{ StatsAddrs []string }

func (c *ClusterInfo) get(ctx context.Context, url string) error { // want get:"waitsOnNetwork"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := c.client.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Topics queries each address it is handed: clusteradmin hands it the
// configured addresses once and a request's own list once, reported there.
func (c *ClusterInfo) Topics(ctx context.Context, addrs []string) { // want Topics:"fansOutOverParam\\(1\\)"
	var wg sync.WaitGroup
	for _, a := range addrs {
		wg.Add(1)
		go func(a string) { // want `goroutine per item: this go statement starts one goroutine for every element of addrs`
			defer wg.Done()
			_ = c.get(ctx, a)
		}(a)
	}
	wg.Wait()
}

// Nodes is handed only configured addresses: silent.
func (c *ClusterInfo) Nodes(ctx context.Context, addrs []string) { // want Nodes:"fansOutOverParam\\(1\\)"
	for _, a := range addrs {
		go c.get(ctx, a)
	}
}

// Producers is handed, through clusteradmin's refreshAll, only configured
// addresses: silent.
func (c *ClusterInfo) Producers(ctx context.Context, addrs []string) { // want Producers:"fansOutOverParam\\(1\\)"
	for _, a := range addrs {
		go c.get(ctx, a)
	}
}

// Lookup is handed, through clusteradmin's refresh, the addresses
// a request names: reported.
func (c *ClusterInfo) Lookup(ctx context.Context, addrs []string) { // want Lookup:"fansOutOverParam\\(1\\)"
	for _, a := range addrs {
		go c.get(ctx, a) // want `goroutine per item: this go statement starts one goroutine for every element of addrs`
	}
}

// Rows is handed addresses read from a table: reported.
func (c *ClusterInfo) Rows(ctx context.Context, addrs []string) { // want Rows:"fansOutOverParam\\(1\\)"
	for _, a := range addrs {
		go c.get(ctx, a) // want `goroutine per item: this go statement starts one goroutine for every element of addrs`
	}
}

// Unused fans out over whatever a caller would hand it; nobody in sight
// calls it: silent, as an exported variadic's spread is.
func (c *ClusterInfo) Unused(ctx context.Context, addrs []string) { // want Unused:"fansOutOverParam\\(1\\)"
	for _, a := range addrs {
		go c.get(ctx, a)
	}
}

// Stats hands statsOf the configured addresses: silent, in this package.
func (c *ClusterInfo) Stats(ctx context.Context, cfg *Config) {
	c.statsOf(ctx, cfg.StatsAddrs)
}

func (c *ClusterInfo) statsOf(ctx context.Context, addrs []string) {
	for _, a := range addrs {
		go c.get(ctx, a)
	}
}

// Search hands eachOf the list a request decoded: reported, in this
// package.
func (c *ClusterInfo) Search(r *http.Request) {
	c.eachOf(r.Context(), r.Form["node"])
}

func (c *ClusterInfo) eachOf(ctx context.Context, addrs []string) {
	for _, a := range addrs {
		go c.get(ctx, a) // want `goroutine per item: this go statement starts one goroutine for every element of addrs`
	}
}

// sweep is only ever used as a func value: no caller to ask, reported.
func (c *ClusterInfo) sweep(ctx context.Context, addrs []string) {
	for _, a := range addrs {
		go c.get(ctx, a) // want `goroutine per item: this go statement starts one goroutine for every element of addrs`
	}
}

// Sweeper hands sweep on as a value.
func (c *ClusterInfo) Sweeper() func(context.Context, []string) { return c.sweep }
