// Package memstatus implements healthiface.StatusSource from memory.
package memstatus

import "sync/atomic"

type Status struct{ ok atomic.Bool }

func (s *Status) Healthy() bool { return s.ok.Load() }

func (s *Status) Set(ok bool) { s.ok.Store(ok) }
