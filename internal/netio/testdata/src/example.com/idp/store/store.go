// Package store declares the storage; main wires in the backend.
package store

type Store interface {
	Password(user string) (string, error)
}
