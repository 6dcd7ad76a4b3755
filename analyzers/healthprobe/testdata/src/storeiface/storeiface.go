// Package storeiface declares the storage interfaces (trillian's storage).
package storeiface

import "context"

type AdminStorage interface {
	CheckDatabaseAccessible(ctx context.Context) error
}

type Provider interface {
	AdminStorage() AdminStorage
}
