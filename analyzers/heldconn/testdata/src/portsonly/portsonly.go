// Package portsonly sees ports.UnitOfWork but none of its implementations:
// nothing is assumed about what Do holds.
package portsonly

import (
	"context"
	"net/http"

	"ports"
)

func callThroughPort(ctx context.Context, uow ports.UnitOfWork) error {
	return uow.Do(ctx, func(ctx context.Context) error {
		_, err := http.Get("https://tax.example")
		return err
	})
}
