// Package grpc_retry is a stub of go-grpc-middleware's retry package (v1).
package grpc_retry

import "time"

type CallOption struct{ apply func() }

type BackoffFunc func(attempt uint) time.Duration

// Interceptor stands for the grpc.UnaryClientInterceptor it returns.
type Interceptor func()

func UnaryClientInterceptor(opts ...CallOption) Interceptor { return nil }

func WithMax(n uint) CallOption             { return CallOption{} }
func WithBackoff(bf BackoffFunc) CallOption { return CallOption{} }

func BackoffLinear(d time.Duration) BackoffFunc                      { return nil }
func BackoffLinearWithJitter(d time.Duration, j float64) BackoffFunc { return nil }
func BackoffExponential(d time.Duration) BackoffFunc                 { return nil }
