// Package use: a constructor and a sentinel of another package.
package use

import (
	"context"

	"golang.org/x/time/rate"

	"example.com/shedmod/shed"
	"example.com/shedmod/unavail"
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

// An Unavailable sentinel of another package, by its fact: reported after a
// failed admission check, not after a failure.
func (s *Svc) Refuse(ctx context.Context, lim *rate.Limiter) error {
	if !lim.Allow() {
		return unavail.ErrOverloaded // want `\(\*use.Svc\).Refuse returns ErrOverloaded, which holds an error carrying gRPC Unavailable \(a refusal for lack of capacity: Limiter.Allow returned false\)`
	}
	if s.full > 0 {
		return unavail.ErrOverloaded // trap: no admission check failed here
	}
	if err := lim.Wait(ctx); err != nil {
		return unavail.Overloaded("wait") // want `Refuse builds an error carrying gRPC Unavailable \(a refusal for lack of capacity: Limiter.Wait failed\)`
	}
	return unavail.ErrShuttingDown // trap: no admission check
}
