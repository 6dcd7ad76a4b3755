// want package:`registries\(\)`

// Package storage keeps a registry of constructors that backends fill from
// their init functions; it opens no pool itself and does not import
// database/sql.
package storage

import "fmt"

// Provider is what a backend's constructor returns.
type Provider interface{ Close() error }

// NewFunc constructs a backend.
type NewFunc func(name string) (Provider, error)

var providers = map[string]NewFunc{}

// Register stores a backend's constructor under its name.
func Register(name string, ctor NewFunc) { // want Register:`createsPools\(registers param 1 into registry/storage.providers\)`
	providers[name] = ctor
}

// NewProvider calls the constructor registered under name.
func NewProvider(name string) (Provider, error) { // want NewProvider:`createsPools\(calls through registry/storage.providers\)`
	ctor, ok := providers[name]
	if !ok {
		return nil, fmt.Errorf("no provider %q", name)
	}
	return ctor(name)
}
