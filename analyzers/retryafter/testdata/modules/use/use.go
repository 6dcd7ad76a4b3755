// Package use: a constructor and a sentinel of another package.
package use

import (
	"context"

	"example.com/shedmod/shed"
)

type Svc struct{ full int }

func (s *Svc) Call(ctx context.Context) error {
	switch s.full {
	case 1:
		return shed.ErrBusy // want `\(\*use.Svc\).Call returns ErrBusy, which holds an error carrying gRPC ResourceExhausted`
	case 2:
		return shed.Busy("call") // want `Call builds an error carrying gRPC ResourceExhausted`
	}
	return nil
}
