// Package memstore is the in-memory backend: it reaches no pool. // want package:`lanes\(\)`
package memstore

import (
	"sync"

	"example.com/moddex/store"
)

type Config struct{}

func (Config) Open() (store.Store, error) { return &mem{m: map[string]string{}}, nil }

type mem struct {
	mu sync.Mutex
	m  map[string]string
}

func (s *mem) Get(id string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.m[id]
}

func (s *mem) GC() error { return nil }
