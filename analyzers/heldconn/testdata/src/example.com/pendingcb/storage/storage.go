// Package storage declares the program's storage and imports none of its
// implementations (dex's storage.Storage).
package storage

type Token struct{ ID, Upstream string }

type Storage interface {
	// UpdateRefreshToken runs updater on the stored token and saves what it
	// returns.
	UpdateRefreshToken(id string, updater func(Token) (Token, error)) error
	// EachToken calls fn for every token in memory.
	EachToken(fn func(Token) error) error
}
