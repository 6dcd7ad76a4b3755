// Package memstore implements storage.Storage in memory: nothing waits for
// a pool slot. Trap.
package memstore

import (
	"sync"

	"example.com/servedwaits/storage"
)

type mem struct {
	mu      sync.Mutex
	clients map[string]storage.Client
}

func New() storage.Storage { return &mem{clients: map[string]storage.Client{}} }

func (m *mem) GetClient(id string) (storage.Client, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.clients[id], nil
}

func (m *mem) UpdateClient(id string, update func(storage.Client) (storage.Client, error)) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	c, err := update(m.clients[id])
	if err == nil {
		m.clients[id] = c
	}
	return err
}

func (m *mem) GarbageCollect() (int64, error) { return 0, nil }
func (m *mem) Close() error                   { return nil }
