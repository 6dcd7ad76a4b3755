package fanout

import (
	"context"
	"sync"
)

type Listener func(ctx context.Context, message []byte)

// Pubsub is coder's: every request that watches a job subscribes a
// listener and unsubscribes when it ends, and each notification starts one
// goroutine per listener: as many as there are watchers, with no cap.
type Pubsub struct {
	mu        sync.Mutex
	listeners map[string]map[int]Listener
	next      int
}

func (p *Pubsub) Subscribe(event string, l Listener) (cancel func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.next++
	id := p.next
	if p.listeners[event] == nil {
		p.listeners[event] = map[int]Listener{}
	}
	p.listeners[event][id] = l
	return func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		delete(p.listeners[event], id)
	}
}

func (p *Pubsub) receive(ctx context.Context, event string, message []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, l := range p.listeners[event] {
		go l(ctx, message) // want `goroutine per item: this go statement starts one goroutine for every element of p.listeners\[event\]`
	}
}

// Trap: hooks the code registers by name and never removes, as many as the
// code registers.
type Hooks struct {
	byEvent map[string]func(ctx context.Context)
}

func (h *Hooks) On(event string, f func(ctx context.Context)) { h.byEvent[event] = f }

func (h *Hooks) fire(ctx context.Context) {
	for _, f := range h.byEvent {
		go f(ctx)
	}
}
