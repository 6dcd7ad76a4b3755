// Command shuffleshard is the shuffle-sharding drill. First the chapter's
// simulation: 100 nodes, 5 per tenant, 10,000 tenants; one poison tenant
// kills its 5; how many other tenants lose all their nodes, with shuffle
// sharding and with plain groups of 5. Then live: 100 loopback HTTP
// servers behind a lanehttp client whose endpoint chooser is a
// shuffleshard.Sharder; the poison tenant's requests crash every server
// they reach; then every other tenant sends its requests, retrying on the
// other endpoints of its shard, and the drill counts the tenants left with
// no healthy endpoint and the tenants not served — with shuffle sharding,
// then with plain groups.
//
// It exits 0 only if, with shuffle sharding, no other tenant lost all its
// nodes in the simulation and every other tenant kept a healthy endpoint and
// was served live (and plain groups, the contrast, did lose a group), 1 if
// not, 2 if it could not run. The last line printed starts with "drill:".
//
// Run it with scripts/drills/run_shuffle_shard_test.sh.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bhlint/bhlint/bulkhead"
	"github.com/bhlint/bhlint/bulkhead/internal/drills/drillreport"
	"github.com/bhlint/bhlint/bulkhead/lanehttp"
	"github.com/bhlint/bhlint/bulkhead/shuffleshard"
)

// Search is the lane of the drill's outbound calls.
type Search struct{}

// Spec gives the lane room for the drill's 16 callers.
func (Search) Spec() bulkhead.LaneSpec { return bulkhead.LaneSpec{MaxConcurrent: 32} }

type config struct {
	nodes, perTenant  int
	simTenants        int
	tenants, requests int
	out               string
}

const poison = "tenant-0"

func main() {
	log.SetFlags(log.Ltime | log.Lmicroseconds)
	log.SetPrefix("shuffleshard ")
	cfg := config{nodes: 100, perTenant: 5, simTenants: 10_000, requests: 3}
	short := flag.Bool("short", false, "CI form: 300 live tenants instead of 2,000")
	flag.StringVar(&cfg.out, "out", "drill-out", "directory for the report")
	flag.Parse()
	cfg.tenants = 2000
	if *short {
		cfg.tenants = 300
	}
	rep, err := drill(cfg)
	if err != nil {
		drillreport.Fail(err)
	}
	drillreport.Finish(cfg.out, rep.text, rep.last, rep.pass)
}

// live is what one live run measured.
type live struct {
	mode                 string
	crashed              int
	noHealthy, unserved  int
	served, sent, failed int
}

func drill(cfg config) (report, error) {
	shuffled, grouped, err := shuffleshard.Simulate(shuffleshard.Simulation{Nodes: cfg.nodes, PerTenant: cfg.perTenant, Tenants: cfg.simTenants})
	if err != nil {
		return report{}, err
	}
	var runs []live
	for _, mode := range []string{"shuffle sharding", "plain groups"} {
		r, err := liveRun(cfg, mode)
		if err != nil {
			return report{}, fmt.Errorf("%s: %w", mode, err)
		}
		log.Printf("%s: %d crashed, %d tenants with no healthy endpoint, %d not served", mode, r.crashed, r.noHealthy, r.unserved)
		runs = append(runs, r)
	}
	return makeReport(cfg, shuffled, grouped, runs), nil
}

// fleet is the loopback servers; a request of the poison tenant crashes
// the server it reaches (its listener and connections closed, the request
// unanswered).
type fleet struct {
	servers []*httptest.Server
	dead    []atomic.Bool
}

func newFleet(n int) *fleet {
	f := &fleet{servers: make([]*httptest.Server, n), dead: make([]atomic.Bool, n)}
	for i := range f.servers {
		f.servers[i] = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("X-Tenant") != poison {
				io.WriteString(w, "ok")
				return
			}
			f.crash(i)
			if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
				conn.Close()
			}
		}))
	}
	return f
}

func (f *fleet) crash(i int) {
	if f.dead[i].Swap(true) {
		return
	}
	s := f.servers[i]
	s.Listener.Close()
	go s.CloseClientConnections()
}

func (f *fleet) urls() []string {
	out := make([]string, len(f.servers))
	for i, s := range f.servers {
		out[i] = s.URL
	}
	return out
}

func (f *fleet) alive(url string) bool {
	for i, s := range f.servers {
		if s.URL == url {
			return !f.dead[i].Load()
		}
	}
	return false
}

func (f *fleet) close() {
	for _, s := range f.servers {
		s.Close()
	}
}

func liveRun(cfg config, mode string) (live, error) {
	f := newFleet(cfg.nodes)
	defer f.close()
	newSharder := shuffleshard.New
	if mode == "plain groups" {
		newSharder = shuffleshard.NewGroups
	}
	s, err := newSharder(f.urls(), cfg.perTenant)
	if err != nil {
		return live{}, err
	}
	s.DownFor = time.Hour // a crashed server stays down for the drill
	client, err := lanehttp.New[Search](lanehttp.Config{
		MaxConnsPerHost: 4, MaxWaiters: 64, AcquireTimeout: 5 * time.Second, ResponseHeaderTimeout: 5 * time.Second,
		Endpoint:        s.Endpoint(func(r *http.Request) string { return r.Header.Get("X-Tenant") }),
		OnEndpointError: s.EndpointFailed,
	})
	if err != nil {
		return live{}, err
	}
	defer client.CloseIdleConnections()
	r := live{mode: mode}
	// The poison tenant: every request crashes the server it reaches;
	// it goes on until its whole shard is down.
	for range 10 * cfg.perTenant {
		if _, err := send(client, poison); errors.Is(err, shuffleshard.ErrNoHealthy) {
			break
		}
	}
	for i := range f.dead {
		if f.dead[i].Load() {
			r.crashed++
		}
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	tenants := make(chan string)
	for range 16 {
		wg.Go(func() {
			for t := range tenants {
				served, failed := tenantRequests(client, s, t, cfg)
				healthy := 0
				for _, u := range s.Shard(t) {
					if f.alive(u) {
						healthy++
					}
				}
				mu.Lock()
				r.sent += cfg.requests
				r.served += served
				r.failed += failed
				if healthy == 0 {
					r.noHealthy++
				}
				if served == 0 {
					r.unserved++
				}
				mu.Unlock()
			}
		})
	}
	for i := 1; i < cfg.tenants; i++ {
		tenants <- fmt.Sprint("tenant-", i)
	}
	close(tenants)
	wg.Wait()
	return r, nil
}

// tenantRequests sends the tenant's requests, each retried on the other
// endpoints of its shard (at most once per endpoint) as a caller would.
func tenantRequests(c *lanehttp.Client[Search], s *shuffleshard.Sharder, tenant string, cfg config) (served, failed int) {
	for range cfg.requests {
		ok := false
		for range s.K() {
			status, err := send(c, tenant)
			if err == nil && status == http.StatusOK {
				ok = true
				break
			}
			if errors.Is(err, shuffleshard.ErrNoHealthy) {
				break
			}
		}
		if ok {
			served++
		} else {
			failed++
		}
	}
	return served, failed
}

func send(c *lanehttp.Client[Search], tenant string) (int, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://search.internal/q", nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("X-Tenant", tenant)
	resp, err := c.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	_, err = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, err
}

type report struct {
	text, last string
	pass       bool
}

func makeReport(cfg config, shuffled, grouped shuffleshard.Outcome, runs []live) report {
	var b strings.Builder
	fmt.Fprintf(&b, "shuffle-shard drill, %s\n\n", time.Now().UTC().Format("2006-01-02"))
	fmt.Fprintf(&b, "simulation: %d nodes, %d per tenant, %d tenants; a poison tenant kills its %d.\nother tenants by how many of their nodes they lost:\n",
		cfg.nodes, cfg.perTenant, cfg.simTenants, cfg.perTenant)
	fmt.Fprintf(&b, "%-18s", "lost")
	for i := range cfg.perTenant + 1 {
		label := fmt.Sprint(i)
		if i == cfg.perTenant {
			label += " (all)"
		}
		fmt.Fprintf(&b, " %8s", label)
	}
	fmt.Fprintln(&b)
	for _, row := range []struct {
		name string
		o    shuffleshard.Outcome
	}{{"shuffle sharding", shuffled}, {"plain groups", grouped}} {
		fmt.Fprintf(&b, "%-18s", row.name)
		for _, n := range row.o.Lost {
			fmt.Fprintf(&b, " %8d", n)
		}
		fmt.Fprintln(&b)
	}
	fmt.Fprintf(&b, "\nlive: %d loopback servers, %d per tenant, %d tenants through one lanehttp client; the poison tenant's requests\ncrash the servers they reach, then every other tenant sends %d requests (each retried on its shard's other endpoints)\n",
		cfg.nodes, cfg.perTenant, cfg.tenants, cfg.requests)
	fmt.Fprintf(&b, "%-18s %-16s %-33s %-19s %s\n", "mode", "servers crashed", "tenants with no healthy endpoint", "tenants not served", "requests served")
	for _, r := range runs {
		fmt.Fprintf(&b, "%-18s %-16d %-33d %-19d %d/%d\n", r.mode, r.crashed, r.noHealthy, r.unserved, r.served, r.sent)
	}
	sh, gr := runs[0], runs[1]
	checks := &drillreport.Checks{}
	check := checks.Check
	check(shuffled.AllLost == 0, "simulation, shuffle sharding: no other tenant lost all its nodes: %d did", shuffled.AllLost)
	check(grouped.AllLost > 0, "simulation, plain groups (the contrast): the poison tenant's group lost all: %d tenants", grouped.AllLost)
	check(sh.crashed == cfg.perTenant, "live: the poison tenant crashed its %d servers: %d", cfg.perTenant, sh.crashed)
	check(sh.noHealthy == 0, "live, shuffle sharding: every other tenant kept >= 1 healthy endpoint: %d did not", sh.noHealthy)
	check(sh.unserved == 0 && sh.served == sh.sent, "live, shuffle sharding: every other tenant's requests served: %d/%d", sh.served, sh.sent)
	check(gr.noHealthy > 0, "live, plain groups (the contrast): tenants of the poison tenant's group lost every endpoint: %d", gr.noHealthy)
	checks.Write(&b)
	last := fmt.Sprintf("drill: %s shuffle shard | simulation all-lost: shuffle=%d groups=%d of %d | live %d tenants: shuffle no_healthy=%d unserved=%d served=%d/%d | groups no_healthy=%d unserved=%d",
		checks.Status(), shuffled.AllLost, grouped.AllLost, cfg.simTenants-1, cfg.tenants, sh.noHealthy, sh.unserved, sh.served, sh.sent, gr.noHealthy, gr.unserved)
	return report{text: b.String(), last: last, pass: checks.Pass()}
}
