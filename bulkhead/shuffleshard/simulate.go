package shuffleshard

import "fmt"

// Simulation is the question Simulate answers: with Nodes endpoints and
// PerTenant of them per tenant, one poison tenant of Tenants kills its own
// endpoints; what happens to the others?
type Simulation struct {
	Nodes, PerTenant, Tenants int
}

// Outcome is what one assignment did.
type Outcome struct {
	// Lost[i] is how many tenants, other than the poison one, lost i of
	// their endpoints.
	Lost []int
	// AllLost is Lost[PerTenant]: tenants left with no endpoint.
	AllLost int
}

// Simulate assigns Tenants tenants ("tenant-0" … ; tenant-0 is the
// poison one) by shuffle sharding and by plain groups, kills the poison
// tenant's endpoints and counts, for each, how many endpoints every other
// tenant lost.
func Simulate(sim Simulation) (shuffled, grouped Outcome, err error) {
	nodes := make([]string, sim.Nodes)
	for i := range nodes {
		nodes[i] = fmt.Sprintf("http://node-%d:80", i)
	}
	s, err := New(nodes, sim.PerTenant)
	if err != nil {
		return Outcome{}, Outcome{}, err
	}
	g, err := NewGroups(nodes, sim.PerTenant)
	if err != nil {
		return Outcome{}, Outcome{}, err
	}
	return poison(s, sim.Tenants), poison(g, sim.Tenants), nil
}

func poison(s *Sharder, tenants int) Outcome {
	var idx [maxK]int
	for _, i := range s.shard("tenant-0", idx[:0]) {
		s.MarkDown(s.endpoints[i])
	}
	out := Outcome{Lost: make([]int, s.k+1)}
	for t := 1; t < tenants; t++ {
		lost := 0
		for _, i := range s.shard(fmt.Sprint("tenant-", t), idx[:0]) {
			if s.downUntil[i].Load() != 0 {
				lost++
			}
		}
		out.Lost[lost]++
	}
	out.AllLost = out.Lost[s.k]
	return out
}
