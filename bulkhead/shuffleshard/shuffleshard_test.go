package shuffleshard_test

import (
	"fmt"
	"net/url"
	"slices"
	"testing"

	"github.com/bhlint/bhlint/bulkhead/shuffleshard"
)

func nodes(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("http://10.0.%d.%d:8080", i/250, i%250)
	}
	return out
}

func mustNew(t *testing.T, endpoints []string, k int) *shuffleshard.Sharder {
	t.Helper()
	s, err := shuffleshard.New(endpoints, k)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestShardIsFixed: a tenant's shard depends only on the names, so every
// process (and every release) computes the same one.
func TestShardIsFixed(t *testing.T) {
	s := mustNew(t, nodes(100), 5)
	got := fmt.Sprint(s.Shard("tenant-a"))
	const want = "[http://10.0.0.28:8080 http://10.0.0.12:8080 http://10.0.0.46:8080 http://10.0.0.33:8080 http://10.0.0.5:8080]"
	if got != want {
		t.Errorf("Shard(tenant-a) = %s, want %s", got, want)
	}
	shard := s.Shard("tenant-a")
	if len(shard) != 5 || len(slices.Compact(slices.Sorted(slices.Values(shard)))) != 5 {
		t.Errorf("Shard(tenant-a) = %v: want 5 different endpoints", shard)
	}
}

// TestFewTenantsMove: adding or removing one of 100 endpoints moves about
// k/n of 10,000 tenants, each by one endpoint; a modulo would move nearly all.
func TestFewTenantsMove(t *testing.T) {
	const tenants, k = 10_000, 5
	base := mustNew(t, nodes(100), k)
	for _, c := range []struct {
		name  string
		nodes []string
	}{
		{"add one", nodes(101)},
		{"remove one", slices.Delete(nodes(100), 37, 38)},
	} {
		t.Run(c.name, func(t *testing.T) {
			other := mustNew(t, c.nodes, k)
			moved := 0
			for i := range tenants {
				tenant := fmt.Sprint("tenant-", i)
				a, b := base.Shard(tenant), other.Shard(tenant)
				changed := 0
				for _, e := range a {
					if !slices.Contains(b, e) {
						changed++
					}
				}
				if changed > 1 {
					t.Fatalf("tenant %s: %d endpoints changed (%v → %v), want at most one", tenant, changed, a, b)
				}
				moved += changed
			}
			// Expected k/n = 5% (500); 8% leaves room for chance.
			if moved == 0 || moved > tenants*8/100 {
				t.Errorf("%d of %d tenants moved, want about %d", moved, tenants, tenants*k/100)
			}
			t.Logf("%d of %d tenants moved one endpoint", moved, tenants)
		})
	}
}

// TestSimulatePoisonTenant is the chapter's comparison: 100 nodes, 5 per
// tenant, 10,000 tenants; a poison tenant kills its 5.
func TestSimulatePoisonTenant(t *testing.T) {
	shuffled, grouped, err := shuffleshard.Simulate(shuffleshard.Simulation{Nodes: 100, PerTenant: 5, Tenants: 10_000})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("shuffle sharding: lost 0..5 endpoints %v; plain groups: %v", shuffled.Lost, grouped.Lost)
	if shuffled.AllLost != 0 {
		t.Errorf("shuffle sharding: %d tenants lost every endpoint, want 0", shuffled.AllLost)
	}
	// Plain groups: the poison tenant's group is 1 in 20 of the tenants.
	if grouped.AllLost < 400 || grouped.AllLost > 600 || grouped.AllLost+grouped.Lost[0] != 10_000-1 {
		t.Errorf("plain groups: %d tenants lost every endpoint (%v), want the poison tenant's group, about 500, and the rest none", grouped.AllLost, grouped.Lost)
	}
}

// TestPickSkipsDownEndpoints: Pick spreads a tenant over its shard, skips
// endpoints marked down and fails only when the whole shard is down.
func TestPickSkipsDownEndpoints(t *testing.T) {
	s := mustNew(t, nodes(20), 3)
	shard := s.Shard("t")
	seen := map[string]bool{}
	for range 30 {
		u, err := s.Pick("t")
		if err != nil {
			t.Fatal(err)
		}
		seen[u.String()] = true
	}
	if len(seen) != 3 {
		t.Errorf("30 picks reached %d endpoints, want the shard's 3", len(seen))
	}
	for _, e := range shard[:2] {
		u, _ := url.Parse(e)
		s.MarkDown(u)
	}
	for range 10 {
		if u, err := s.Pick("t"); err != nil || u.String() != shard[2] {
			t.Fatalf("with two down: Pick = %v, %v; want %s", u, err, shard[2])
		}
	}
	last, _ := url.Parse(shard[2])
	s.EndpointFailed(last, nil)
	if _, err := s.Pick("t"); err == nil {
		t.Error("Pick with the whole shard down succeeded")
	}
	s.MarkUp(last)
	if u, err := s.Pick("t"); err != nil || u.String() != shard[2] {
		t.Errorf("after MarkUp: Pick = %v, %v; want %s", u, err, shard[2])
	}
}

func TestNewErrors(t *testing.T) {
	for _, c := range []struct {
		endpoints []string
		k         int
	}{
		{nodes(5), 0}, {nodes(5), 6}, {[]string{"10.0.0.1:80"}, 1}, {[]string{"http://a:1", "http://a:1"}, 1},
	} {
		if _, err := shuffleshard.New(c.endpoints, c.k); err == nil {
			t.Errorf("New(%v, %d) accepted it", c.endpoints, c.k)
		}
	}
}

func BenchmarkPick(b *testing.B) {
	s, _ := shuffleshard.New(nodes(100), 5)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Pick("tenant-42"); err != nil {
			b.Fatal(err)
		}
	}
}
