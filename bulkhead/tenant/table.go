package tenant

import "slices"

// table maps a tenant's 64-bit hash to its state: open addressing, one
// 16-byte slot per entry, probed linearly. At 10^5 tenants an admission's
// cost is its cache misses; a lookup here reads one line of slots and then
// the state, where Go's map reads a group's control word and then its slot
// (often two lines) behind the map's header and directory. Entries are
// only added one at a time and dropped all at once by a sweep, which
// rebuilds the table, so no deletion marks are needed.
type table struct {
	slots []slot // a power of two long; hash 0 marks an empty slot
	n     int
}

type slot struct {
	h uint64
	s *state
}

const minSlots = 16

// nonzero keeps 0 free to mark empty slots; the hash that is 0 shares
// with the one that is 1, as any two tenants whose hashes collide do.
func nonzero(h uint64) uint64 { return max(h, 1) }

func (t *table) len() int { return t.n }

func (t *table) get(h uint64) *state {
	if len(t.slots) == 0 {
		return nil
	}
	h = nonzero(h)
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		switch t.slots[i].h {
		case h:
			return t.slots[i].s
		case 0:
			return nil
		}
	}
}

// put adds s under h, which the table does not hold. The table grows at
// three quarters full, so probes stay short.
func (t *table) put(h uint64, s *state) {
	if (t.n+1)*4 > len(t.slots)*3 {
		t.rebuild(max(minSlots, 2*len(t.slots)), nil)
	}
	t.insert(nonzero(h), s)
	t.n++
}

func (t *table) insert(h uint64, s *state) {
	mask := uint64(len(t.slots) - 1)
	i := h & mask
	for t.slots[i].h != 0 {
		i = (i + 1) & mask
	}
	t.slots[i] = slot{h, s}
}

// dropIf removes every entry drop says to, and returns how many; the table
// shrinks when few are left, so a burst of tenants gone idle gives its
// memory back. drop may change its mind between calls (a tenant's call
// ends meanwhile): the rebuild's answer is the one that counts.
func (t *table) dropIf(drop func(*state) bool) int {
	if !slices.ContainsFunc(t.slots, func(sl slot) bool { return sl.h != 0 && drop(sl.s) }) {
		return 0 // nothing to drop: no new slots
	}
	before := t.n
	t.rebuild(len(t.slots), drop)
	if size := fitting(t.n); size < len(t.slots) {
		t.rebuild(size, nil)
	}
	return before - t.n
}

// fitting is the size for n entries with room to double before growing.
func fitting(n int) int {
	size := minSlots
	for size*3 < n*2*4 {
		size *= 2
	}
	return size
}

// rebuild moves the entries drop does not reject into size new slots.
func (t *table) rebuild(size int, drop func(*state) bool) {
	old := t.slots
	t.slots, t.n = make([]slot, size), 0
	for _, sl := range old {
		if sl.h != 0 && (drop == nil || !drop(sl.s)) {
			t.insert(sl.h, sl.s)
			t.n++
		}
	}
}

// each calls f for every state.
func (t *table) each(f func(*state)) {
	for _, sl := range t.slots {
		if sl.h != 0 {
			f(sl.s)
		}
	}
}
