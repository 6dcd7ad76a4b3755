// Package selfwalk walks a shared list on each request in variables a
// closure captures and that are assigned from themselves (cur = cur.next)
// and from each other (a swap): asking whether they outlive the request
// must end, as it did not on mox's webmail. Nothing here is a finding.
package selfwalk

import (
	"net/http"
	"sync"
)

type node struct{ next *node }

var (
	head *node
	mu   sync.Mutex
)

// Lister is an interface a handler could call through.
type Lister interface{ List() []string }

func walk(w http.ResponseWriter, r *http.Request) {
	mu.Lock()
	defer mu.Unlock()
	cur := head
	for cur != nil && cur.next != nil {
		cur = cur.next
	}
	prev, next := head, head
	for i := 0; i < 3; i++ {
		prev, next = next, prev
	}
	done := func() bool { return cur == nil || prev == next }
	if done() {
		w.WriteHeader(http.StatusNoContent)
	}
}

func Register(mux *http.ServeMux) { mux.HandleFunc("/walk", walk) }
