// Package health is a stub of hellofresh/health-go v5.
package health

import (
	"context"
	"net/http"
	"time"
)

type CheckFunc func(context.Context) error

type Config struct {
	Name      string
	Timeout   time.Duration
	SkipOnErr bool
	Check     CheckFunc
}

type Health struct{}
type Option func(*Health) error

func New(opts ...Option) (*Health, error) { return &Health{}, nil }
func WithChecks(checks ...Config) Option  { return nil }
func (h *Health) Register(c Config) error { return nil }
func (h *Health) Handler() http.Handler   { return nil }
