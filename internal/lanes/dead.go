package lanes

import "slices"

// DeadSet is a set of interface methods, by dispatch key (Use.Resource.Key
// of a call through the interface), whose calls reach no pool. Every
// summary carries the whole set of the packages before it, so that a
// package that cannot see where a method was found dead still drops its
// calls; there are thousands in a large program (most interface methods
// reach no pool), and the summaries of every package visible are read in
// each facts file. So the set holds a 64-bit hash of each key, not the key:
// a tenth of the bytes. Two keys would have to collide for a live method to
// be taken for dead (about one chance in 10^11 for 10^4 methods).
type DeadSet map[uint64]bool

// deadKey is the hash a DeadSet keeps for a dispatch key: 64-bit FNV-1a,
// written out because it is asked for every call a fact carries, and
// hash/fnv's interface value and []byte copy would allocate each time.
func deadKey(key string) uint64 {
	const offset64, prime64 = 14695981039346656037, 1099511628211
	h := uint64(offset64)
	for i := 0; i < len(key); i++ {
		h ^= uint64(key[i])
		h *= prime64
	}
	return h
}

// Add puts the method with this dispatch key in the set.
func (s DeadSet) Add(key string) { s[deadKey(key)] = true }

// Has reports whether the method with this dispatch key is in the set.
func (s DeadSet) Has(key string) bool { return s[deadKey(key)] }

// Union adds every method of other to s.
func (s DeadSet) Union(other DeadSet) {
	for k := range other {
		s[k] = true
	}
}

// GobEncode encodes the set as its sorted hashes, for the facts file to be
// the same from run to run.
func (s DeadSet) GobEncode() ([]byte, error) {
	keys := make([]uint64, 0, len(s))
	for k := range s {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var w wire
	w.uint(uint64(len(keys)))
	for _, k := range keys {
		w.fixed(k)
	}
	return w.bytes(), nil
}

// GobDecode decodes what GobEncode encodes.
func (s *DeadSet) GobDecode(data []byte) error {
	r := newReader(data)
	n := r.uint()
	if n > uint64(len(r.data))/8 { // each hash takes eight bytes: a corrupt count
		return errShort
	}
	out := make(DeadSet, n)
	for i := uint64(0); i < n && r.err == nil; i++ {
		out[r.fixed()] = true
	}
	*s = out
	return r.end()
}
