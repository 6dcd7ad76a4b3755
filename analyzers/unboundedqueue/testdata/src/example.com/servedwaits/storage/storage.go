// Package storage declares the program's storage; it imports none of its
// implementations (dex's storage.Storage).
package storage

type Client struct{ ID, Secret string }

type Storage interface {
	GetClient(id string) (Client, error)
	UpdateClient(id string, update func(Client) (Client, error)) error
	GarbageCollect() (int64, error)
	Close() error
}
