// Package store declares the repository the services use; it imports no
// database: its implementations do.
package store

type Device struct{ ID string }

type Store interface {
	DeviceGet(id string) (*Device, error)
	DeleteOldSessions() error
}
