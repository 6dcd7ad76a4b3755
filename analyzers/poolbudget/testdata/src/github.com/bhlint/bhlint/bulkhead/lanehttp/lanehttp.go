// Package lanehttp is a stub of the runtime's lane-typed HTTP client.
package lanehttp

import (
	"time"

	"github.com/bhlint/bhlint/bulkhead"
)

type Config struct {
	MaxConnsPerHost int
	AcquireTimeout  time.Duration
}

type Client[L bulkhead.Lane] struct{}

func New[L bulkhead.Lane](cfg Config) (*Client[L], error) { return &Client[L]{}, nil }
