// Package centrifuge is the part of github.com/centrifugal/centrifuge the
// tests use: a node runs its OnCacheEmpty handler on a client's subscribe.
package centrifuge

type Node struct{}

type CacheEmptyEvent struct{ Channel string }

type CacheEmptyReply struct{ Populated bool }

type CacheEmptyHandler func(CacheEmptyEvent) (CacheEmptyReply, error)

func (n *Node) OnCacheEmpty(h CacheEmptyHandler) {}
