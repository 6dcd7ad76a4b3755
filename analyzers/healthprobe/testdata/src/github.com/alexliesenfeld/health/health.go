// Package health is a stub of alexliesenfeld/health.
package health

import (
	"context"
	"net/http"
	"time"
)

type Check struct {
	Name    string
	Timeout time.Duration
	Check   func(ctx context.Context) error
}

type Checker interface{}
type CheckerOption func()

func NewChecker(options ...CheckerOption) Checker                               { return nil }
func WithCheck(check Check) CheckerOption                                       { return nil }
func WithPeriodicCheck(refresh, delay time.Duration, check Check) CheckerOption { return nil }
func NewHandler(c Checker) http.HandlerFunc                                     { return nil }
