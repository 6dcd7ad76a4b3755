// want package:`registries\(\)`

// Package relay reaches the registry for its callers: it imports no
// database package, yet its function carries the call through the
// registry up to main.
package relay

import "registry/storage"

// Start opens the storage backend the deployment names.
func Start(name string) error { // want Start:`createsPools\(calls through registry/storage.providers via storage.NewProvider\)`
	_, err := storage.NewProvider(name)
	return err
}
