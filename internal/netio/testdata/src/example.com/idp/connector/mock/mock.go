// Package mock is a test double: it records calls and waits on nothing,
// and only tests run it.
package mock

import (
	"context"
	"sync"

	"example.com/idp/connector"
)

type Callback struct {
	mu    sync.Mutex
	calls int
}

func (c *Callback) Refresh(ctx context.Context, id connector.Identity) (connector.Identity, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls++
	return id, nil
}

// Probe answers from memory: a stand-in, which calls nothing.
func (c *Callback) Probe() bool { return c.calls > 0 }
