package lanes

import (
	"encoding/binary"
	"errors"
)

// Reaches facts are many (one per exported function that reaches a
// resource), every package's facts file carries those of all the packages
// it can see, and their strings repeat: the hops of one function's paths
// share their packages and files. So a Reaches fact is encoded with each
// string once, as a table, and the uses refer to it; so are the
// implementations a Summary carries, all with one table.

// GobEncode encodes the fact with a table of its strings.
func (f *Reaches) GobEncode() ([]byte, error) {
	var w wire
	w.uses(f.Uses)
	w.uses(f.Dispatch)
	return w.bytes(), nil
}

// GobDecode decodes what GobEncode encodes.
func (f *Reaches) GobDecode(data []byte) error {
	r := newReader(data)
	f.Uses = r.uses()
	f.Dispatch = r.uses()
	return r.end()
}

// ImplList is a Summary's implementations, encoded with one table of
// strings for all of them: they repeat their interface methods, packages
// and files, and a summary carries thousands.
type ImplList []Impl

// GobEncode encodes the implementations with a table of their strings.
func (l ImplList) GobEncode() ([]byte, error) {
	var w wire
	w.uint(uint64(len(l)))
	for _, im := range l {
		w.str(im.Method)
		w.hop(im.Impl)
		w.uses(im.Uses)
		w.uses(im.Dispatch)
		w.bool(im.StandIn)
	}
	return w.bytes(), nil
}

// GobDecode decodes what GobEncode encodes.
func (l *ImplList) GobDecode(data []byte) error {
	r := newReader(data)
	n := r.uint()
	if n > uint64(len(r.data)) { // each implementation takes bytes: a corrupt count
		return errShort
	}
	out := make(ImplList, 0, n)
	for i := uint64(0); i < n && r.err == nil; i++ {
		im := Impl{Method: r.str(), Impl: r.hop()}
		im.Uses = r.uses()
		im.Dispatch = r.uses()
		im.StandIn = r.bool()
		out = append(out, im)
	}
	*l = out
	return r.end()
}

type wire struct {
	strs  []string
	index map[string]uint64
	body  []byte
}

// bytes is the table, then the body.
func (w *wire) bytes() []byte {
	out := binary.AppendUvarint(nil, uint64(len(w.strs)))
	for _, s := range w.strs {
		out = binary.AppendUvarint(out, uint64(len(s)))
		out = append(out, s...)
	}
	return append(out, w.body...)
}

func (w *wire) bool(b bool) {
	if b {
		w.uint(1)
	} else {
		w.uint(0)
	}
}

func (w *wire) uint(n uint64) { w.body = binary.AppendUvarint(w.body, n) }

// fixed writes eight bytes: a hash, which a varint would make longer.
func (w *wire) fixed(n uint64) { w.body = binary.LittleEndian.AppendUint64(w.body, n) }

func (w *wire) str(s string) {
	if w.index == nil {
		w.index = map[string]uint64{}
	}
	i, ok := w.index[s]
	if !ok {
		i = uint64(len(w.strs))
		w.index[s] = i
		w.strs = append(w.strs, s)
	}
	w.uint(i)
}

func (w *wire) uses(us []Use) {
	w.uint(uint64(len(us)))
	for _, u := range us {
		r := u.Resource
		for _, s := range []string{r.Key, r.Name, r.Noun, r.Lane, r.Pkg, r.Obj, r.Pos, r.Type} {
			w.str(s)
		}
		global := uint64(0)
		if r.Global {
			global = 1
		}
		w.uint(global)
		w.uint(uint64(len(u.Path)))
		for _, h := range u.Path {
			w.hop(h)
		}
	}
}

func (w *wire) hop(h Hop) {
	for _, s := range []string{h.Name, h.Pkg, h.Obj, h.File} {
		w.str(s)
	}
	w.uint(uint64(max(h.Line, 0)))
}

var errShort = errors.New("lanes: short fact")

type reader struct {
	data []byte
	strs []string
	err  error
}

// newReader reads the table of strings.
func newReader(data []byte) *reader {
	r := &reader{data: data}
	n := r.uint()
	for i := uint64(0); i < n && r.err == nil; i++ {
		size := r.uint()
		if r.err == nil && uint64(len(r.data)) < size {
			r.err = errShort
			break
		}
		r.strs = append(r.strs, string(r.data[:size]))
		r.data = r.data[size:]
	}
	return r
}

// end reports an error, or bytes left over.
func (r *reader) end() error {
	if r.err == nil && len(r.data) > 0 {
		r.err = errors.New("lanes: trailing bytes in a fact")
	}
	return r.err
}

func (r *reader) bool() bool { return r.uint() == 1 }

func (r *reader) uint() uint64 {
	if r.err != nil {
		return 0
	}
	n, size := binary.Uvarint(r.data)
	if size <= 0 {
		r.err = errShort
		return 0
	}
	r.data = r.data[size:]
	return n
}

func (r *reader) fixed() uint64 {
	if r.err == nil && len(r.data) < 8 {
		r.err = errShort
	}
	if r.err != nil {
		return 0
	}
	n := binary.LittleEndian.Uint64(r.data)
	r.data = r.data[8:]
	return n
}

func (r *reader) str() string {
	i := r.uint()
	if r.err == nil && i >= uint64(len(r.strs)) {
		r.err = errors.New("lanes: bad string index in a fact")
	}
	if r.err != nil {
		return ""
	}
	return r.strs[i]
}

func (r *reader) hop() Hop {
	h := Hop{Name: r.str(), Pkg: r.str(), Obj: r.str(), File: r.str()}
	h.Line = int(r.uint())
	return h
}

func (r *reader) uses() []Use {
	n := r.uint()
	if r.err != nil || n == 0 {
		return nil
	}
	if n > uint64(len(r.data)) { // each use takes bytes: a corrupt count
		r.err = errShort
		return nil
	}
	out := make([]Use, 0, n)
	for i := uint64(0); i < n && r.err == nil; i++ {
		var u Use
		res := &u.Resource
		res.Key, res.Name, res.Noun, res.Lane = r.str(), r.str(), r.str(), r.str()
		res.Pkg, res.Obj, res.Pos, res.Type = r.str(), r.str(), r.str(), r.str()
		res.Global = r.uint() == 1
		hops := r.uint()
		if hops > uint64(len(r.data)) {
			r.err = errShort
			break
		}
		for j := uint64(0); j < hops && r.err == nil; j++ {
			u.Path = append(u.Path, r.hop())
		}
		out = append(out, u)
	}
	return out
}
