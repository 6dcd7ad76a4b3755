// Package memstore keeps passwords in memory: it waits on nothing. // want package:`implementedInBuild\(\(example.com/idp/store.Store\).Password by \(\*memstore.Mem\).Password does not wait\)`
package memstore

import (
	"errors"
	"sync"

	"example.com/idp/store"
)

var _ store.Store = (*Mem)(nil)

type Mem struct {
	mu    sync.Mutex
	users map[string]string
}

func (m *Mem) Password(user string) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if p, ok := m.users[user]; ok {
		return p, nil
	}
	return "", errors.New("no such user")
}
