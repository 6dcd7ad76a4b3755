package tenant

import (
	"math/rand/v2"
	"testing"
)

// TestTableAgainstAMap: random adds, lookups and sweeps agree with a map,
// including hashes that collide in the low bits and the hash 0.
func TestTableAgainstAMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var tb table
	want := map[uint64]*state{}
	hash := func() uint64 {
		switch rng.IntN(4) {
		case 0:
			return uint64(rng.IntN(64)) << 32 // same low bits: long probes
		case 1:
			return uint64(rng.IntN(3)) // 0, 1, 2: 0 and 1 share a slot
		}
		return rng.Uint64()
	}
	for round := range 2000 {
		h := hash()
		key := nonzero(h)
		if got, ok := tb.get(h), want[key]; got != ok {
			t.Fatalf("round %d: get(%#x) = %p, want %p", round, h, got, ok)
		}
		if want[key] == nil {
			s := &state{}
			tb.put(h, s)
			want[key] = s
		}
		if round%250 == 249 { // a sweep drops about half
			dropped := tb.dropIf(func(s *state) bool { return s.seen%2 == 0 })
			n := 0
			for k, s := range want {
				if s.seen%2 == 0 {
					delete(want, k)
					n++
				}
			}
			if dropped != n {
				t.Fatalf("round %d: dropped %d, want %d", round, dropped, n)
			}
		}
		for _, s := range want {
			s.seen++
		}
		if tb.len() != len(want) {
			t.Fatalf("round %d: len %d, want %d", round, tb.len(), len(want))
		}
	}
	for k, s := range want {
		if tb.get(k) != s {
			t.Fatalf("get(%#x) lost its state", k)
		}
	}
	seen := 0
	tb.each(func(*state) { seen++ })
	if seen != len(want) {
		t.Errorf("each visited %d, want %d", seen, len(want))
	}
	tb.dropIf(func(*state) bool { return true })
	if tb.len() != 0 || len(tb.slots) != minSlots {
		t.Errorf("after dropping all: len %d, %d slots; want 0 and %d", tb.len(), len(tb.slots), minSlots)
	}
}
