// Package mutexcb is centrifugo's shape: a framework runs a callback per
// client subscribe; it goes through a singleflight per channel, then takes
// one mutex for every channel and calls, while holding it, a function value
// a factory of another package returned, which calls a proxy over HTTP.
package mutexcb

import (
	"context"
	"sync"

	"github.com/centrifugal/centrifuge"
	"golang.org/x/sync/singleflight"

	"example.com/cacheproxy"
)

type Hub struct {
	node  *centrifuge.Node
	group singleflight.Group
	mu    sync.Mutex
	local sync.Mutex
}

func (h *Hub) Setup(p *cacheproxy.Handler) {
	notify := p.Handle()
	h.node.OnCacheEmpty(func(e centrifuge.CacheEmptyEvent) (centrifuge.CacheEmptyReply, error) {
		return h.onCacheEmpty(e.Channel, notify)
	})
	compute := cacheproxy.Local()
	h.node.OnCacheEmpty(func(e centrifuge.CacheEmptyEvent) (centrifuge.CacheEmptyReply, error) {
		return h.onLocal(e.Channel, compute)
	})
}

func (h *Hub) onCacheEmpty(channel string, notify cacheproxy.HandlerFunc) (centrifuge.CacheEmptyReply, error) {
	_, err, _ := h.group.Do(channel, func() (any, error) {
		h.mu.Lock() // want `mutex held across a network wait on every request: h.mu \(sync.Mutex\) is shared by every request to a function literal in \(\*mutexcb.Hub\).Setup, and this Lock holds it across a function value that calls`
		defer h.mu.Unlock()
		return nil, notify(context.Background(), channel)
	})
	return centrifuge.CacheEmptyReply{}, err
}

// onLocal calls, under the lock, a function value that only computes.
func (h *Hub) onLocal(channel string, compute cacheproxy.HandlerFunc) (centrifuge.CacheEmptyReply, error) {
	h.local.Lock()
	defer h.local.Unlock()
	return centrifuge.CacheEmptyReply{}, compute(context.Background(), channel)
}
