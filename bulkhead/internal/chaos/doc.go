// Package chaos holds the runtime's chaos test (chaos_test.go): random
// panics, cancellations, deadline expiries and dependency stalls across
// three lanes, each lane with its own executor and its own PostgreSQL pool,
// after which every slot, connection and goroutine must be back and every
// request must have ended as served, shed (with Retry-After) or fallback.
package chaos
