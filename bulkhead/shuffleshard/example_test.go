package shuffleshard_test

import (
	"fmt"
	"net/http"
	"time"

	"github.com/bhlint/bhlint/bulkhead"
	"github.com/bhlint/bhlint/bulkhead/lanehttp"
	"github.com/bhlint/bhlint/bulkhead/shuffleshard"
)

type Search struct{}

func (Search) Spec() bulkhead.LaneSpec { return bulkhead.LaneSpec{MaxConcurrent: 32} }

// Each tenant's requests go to its own 5 of the 100 search nodes.
func ExampleSharder_Endpoint() {
	nodes := make([]string, 100)
	for i := range nodes {
		nodes[i] = fmt.Sprintf("http://search-%d.internal:9200", i)
	}
	s, err := shuffleshard.New(nodes, 5)
	if err != nil {
		panic(err)
	}
	search, err := lanehttp.New[Search](lanehttp.Config{
		MaxConnsPerHost: 8, AcquireTimeout: 50 * time.Millisecond,
		Endpoint:        s.Endpoint(func(r *http.Request) string { return r.Header.Get("X-Tenant") }),
		OnEndpointError: s.EndpointFailed, // skipped for s.DownFor (10 s)
	})
	if err != nil {
		panic(err)
	}
	_ = search // search.Do(req) sends req to one of its tenant's 5 nodes
	fmt.Println(s.Shard("acme"))
	// Output: [http://search-72.internal:9200 http://search-59.internal:9200 http://search-47.internal:9200 http://search-57.internal:9200 http://search-50.internal:9200]
}

// The chapter's comparison: one poison tenant kills its 5 of 100 nodes.
func ExampleSimulate() {
	shuffled, grouped, err := shuffleshard.Simulate(shuffleshard.Simulation{Nodes: 100, PerTenant: 5, Tenants: 10_000})
	if err != nil {
		panic(err)
	}
	fmt.Println("other tenants that lost all 5 nodes, shuffle sharding:", shuffled.AllLost)
	fmt.Println("other tenants that lost all 5 nodes, plain groups:", grouped.AllLost)
	// Output:
	// other tenants that lost all 5 nodes, shuffle sharding: 0
	// other tenants that lost all 5 nodes, plain groups: 496
}
