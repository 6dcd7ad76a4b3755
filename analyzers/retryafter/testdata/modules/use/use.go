// Package use: a constructor and a sentinel of another package.
package use

import (
	"context"

	"example.com/grpcshed/shed"
)

type Svc struct{ full int }

func (s *Svc) Call(ctx context.Context) error {
	switch s.full {
	case 1:
		return shed.ErrBusy // want `\(\*use.Svc\).Call returns ErrBusy, which holds a gRPC ResourceExhausted error`
	case 2:
		return shed.Busy("call") // want `Call builds a gRPC Unavailable error`
	}
	return nil
}
