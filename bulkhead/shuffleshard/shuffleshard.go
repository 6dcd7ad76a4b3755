// Package shuffleshard gives each tenant its own k of a fleet's n
// endpoints, so a tenant whose requests crash the servers they reach (a
// poison tenant) takes down only its own k, and almost no other tenant has
// all of its k among them.
//
//	s, err := shuffleshard.New(endpoints, 5)        // 5 of 100 per tenant
//	s.Shard("tenant-a")                              // its 5, the same in every process
//	client, err := lanehttp.New[Search](lanehttp.Config{
//		MaxConnsPerHost: 8, AcquireTimeout: 50 * time.Millisecond,
//		Endpoint:        s.Endpoint(tenantOf),       // each request to one of its tenant's 5
//		OnEndpointError: s.EndpointFailed,           // a failing endpoint is skipped for DownFor
//	})
//
// With plain groups (100 endpoints in 20 fixed groups of 5, a tenant hashed to
// a group) a poison tenant takes down its group, and every tenant of that
// group loses all its endpoints: one in twenty. With shuffle sharding two
// tenants share all 5 endpoints with probability 1 / C(100, 5), about one in
// 75 million; [Simulate] counts both.
//
// A tenant's shard is chosen by rendezvous hashing: every (tenant, endpoint)
// pair gets a score from a fixed 64-bit hash of both names, and the tenant's
// shard is its k highest-scoring endpoints. It depends only on the names, so
// every process agrees without coordination, and when an endpoint is added
// or removed only the tenants whose top k it enters or leaves move, one
// endpoint each: about k/n of them, not nearly all as with a modulo.
package shuffleshard

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sync/atomic"
	"time"
)

// ErrNoHealthy: every endpoint of the tenant's shard is marked down.
var ErrNoHealthy = errors.New("shuffleshard: every endpoint of the tenant's shard is down")

// Sharder assigns tenants their endpoints. Safe for concurrent use.
type Sharder struct {
	endpoints []*url.URL
	hashes    []uint64
	index     map[string]int // endpoint (scheme://host) → position
	k         int
	groups    bool
	// DownFor is how long an endpoint reported failed is skipped (default
	// 10s); after it the endpoint is tried again. Set it before use.
	DownFor   time.Duration
	downUntil []atomic.Int64 // unix nanoseconds
	next      atomic.Uint64  // spreads a tenant's requests over its shard
}

// New shards tenants over endpoints (base URLs such as
// "http://10.0.0.7:8080"), k endpoints each.
func New(endpoints []string, k int) (*Sharder, error) {
	return newSharder(endpoints, k, false)
}

// NewGroups is the plain grouping shuffle sharding is measured against:
// the endpoints in len/k fixed groups of k, in their order, and each
// tenant hashed to one group (endpoints beyond the last full group are
// unused). For comparisons, not for production.
func NewGroups(endpoints []string, k int) (*Sharder, error) {
	return newSharder(endpoints, k, true)
}

func newSharder(endpoints []string, k int, groups bool) (*Sharder, error) {
	if k < 1 || k > len(endpoints) {
		return nil, fmt.Errorf("shuffleshard: %d endpoints per tenant of %d: want 1 to %d", k, len(endpoints), len(endpoints))
	}
	s := &Sharder{k: k, groups: groups, DownFor: 10 * time.Second, index: map[string]int{}, downUntil: make([]atomic.Int64, len(endpoints))}
	for i, e := range endpoints {
		u, err := url.Parse(e)
		if err != nil || u.Scheme == "" || u.Host == "" {
			return nil, fmt.Errorf("shuffleshard: endpoint %q: want a base URL such as http://10.0.0.7:8080", e)
		}
		key := endpointKey(u)
		if _, dup := s.index[key]; dup {
			return nil, fmt.Errorf("shuffleshard: endpoint %s given twice", key)
		}
		s.index[key] = i
		s.endpoints = append(s.endpoints, u)
		s.hashes = append(s.hashes, mix(hash(e)))
	}
	return s, nil
}

// K is the number of endpoints per tenant.
func (s *Sharder) K() int { return s.k }

// Shard is the tenant's endpoints, best first.
func (s *Sharder) Shard(tenant string) []string {
	var idx [maxK]int
	out := make([]string, 0, s.k)
	for _, i := range s.shard(tenant, idx[:0]) {
		out = append(out, s.endpoints[i].String())
	}
	return out
}

// maxK bounds the stack array shard uses; larger k allocate.
const maxK = 16

// shard appends the positions of the tenant's endpoints to dst, best first.
func (s *Sharder) shard(tenant string, dst []int) []int {
	th := hash(tenant)
	if s.groups {
		g := int(mix(th) % uint64(len(s.endpoints)/s.k))
		for i := g * s.k; i < (g+1)*s.k; i++ {
			dst = append(dst, i)
		}
		return dst
	}
	var scores [maxK]uint64
	sc := scores[:0]
	if s.k > maxK {
		sc = make([]uint64, 0, s.k)
	}
	for i, eh := range s.hashes {
		score := mix(th ^ eh)
		if len(dst) == s.k && score <= sc[s.k-1] {
			continue
		}
		// Insert in descending order, dropping the last when full.
		if len(dst) < s.k {
			dst, sc = append(dst, 0), append(sc, 0)
		}
		j := len(dst) - 1
		for ; j > 0 && sc[j-1] < score; j-- {
			dst[j], sc[j] = dst[j-1], sc[j-1]
		}
		dst[j], sc[j] = i, score
	}
	return dst
}

// Pick is an endpoint of the tenant's shard not marked down, taking the
// shard's endpoints in turn from one call to the next; ErrNoHealthy when
// all are down.
func (s *Sharder) Pick(tenant string) (*url.URL, error) {
	var idx [maxK]int
	shard := s.shard(tenant, idx[:0])
	start := int(s.next.Add(1) % uint64(len(shard)))
	now := time.Now().UnixNano()
	for n := range shard {
		i := shard[(start+n)%len(shard)]
		if s.downUntil[i].Load() <= now {
			return s.endpoints[i], nil
		}
	}
	return nil, fmt.Errorf("%w: tenant %q", ErrNoHealthy, tenant)
}

// Endpoint is the endpoint chooser for lanehttp.Config.Endpoint: the
// tenant of each request (tenantOf) picks from its own shard.
func (s *Sharder) Endpoint(tenantOf func(*http.Request) string) func(*http.Request) (*url.URL, error) {
	return func(r *http.Request) (*url.URL, error) { return s.Pick(tenantOf(r)) }
}

// EndpointFailed marks the endpoint down for DownFor, so Pick skips it;
// for lanehttp.Config.OnEndpointError.
func (s *Sharder) EndpointFailed(endpoint *url.URL, _ error) { s.MarkDown(endpoint) }

// MarkDown makes Pick skip the endpoint for DownFor.
func (s *Sharder) MarkDown(endpoint *url.URL) {
	if i, ok := s.index[endpointKey(endpoint)]; ok {
		s.downUntil[i].Store(time.Now().Add(s.DownFor).UnixNano())
	}
}

// MarkUp makes Pick use the endpoint again at once.
func (s *Sharder) MarkUp(endpoint *url.URL) {
	if i, ok := s.index[endpointKey(endpoint)]; ok {
		s.downUntil[i].Store(0)
	}
}

// endpointKey is how endpoints are told apart: scheme://host.
func endpointKey(u *url.URL) string { return u.Scheme + "://" + u.Host }

// hash is 64-bit FNV-1a: fixed, so every process computes the same shards.
func hash(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// mix is splitmix64's finalizer: FNV-1a's low bits are weak, and the
// scores of one tenant must look independent from endpoint to endpoint.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}
