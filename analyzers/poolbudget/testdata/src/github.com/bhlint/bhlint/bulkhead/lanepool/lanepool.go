// Package lanepool is a stub of the runtime's pool configuration.
package lanepool

import "time"

type Config struct {
	MaxConns       int
	MaxWaiters     int
	AcquireTimeout time.Duration
}
