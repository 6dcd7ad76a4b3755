// Package scans keeps the active scans: Add is a claim per name, made
// under a lock (claimsUnderLock), for callers in other packages.
package scans

import "sync"

type Active struct {
	mu    sync.Mutex
	names map[string]bool
}

func (a *Active) Add(name string) bool { // want Add:"claimsUnderLock"
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.names[name] {
		return false
	}
	a.names[name] = true
	return true
}

func (a *Active) Remove(name string) {
	a.mu.Lock()
	delete(a.names, name)
	a.mu.Unlock()
}
