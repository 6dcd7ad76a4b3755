// Package rpcretry installs retrying gRPC client interceptors: the policy
// their options set applies to every RPC of the connection.
package rpcretry

import (
	"time"

	grpc_retry "github.com/grpc-ecosystem/go-grpc-middleware/retry"
)

// retryInStep: three attempts, a constant second apart, for every RPC.
func retryInStep() grpc_retry.Interceptor {
	return grpc_retry.UnaryClientInterceptor(grpc_retry.WithMax(3), grpc_retry.WithBackoff(grpc_retry.BackoffLinear(time.Second))) // want `this grpc_retry.UnaryClientInterceptor call retries every RPC of the connection it is installed on waiting a constant time between attempts with no backoff or jitter`
}

// retryInStepOptions: the same options gathered in a local slice first.
func retryInStepOptions(wait time.Duration) grpc_retry.Interceptor {
	opts := []grpc_retry.CallOption{grpc_retry.WithMax(5)}
	opts = append(opts, grpc_retry.WithBackoff(grpc_retry.BackoffLinear(wait)))
	return grpc_retry.UnaryClientInterceptor(opts...) // want `waiting a constant time between attempts`
}

// ---- traps: must stay silent ----

// jitteredLinear adds jitter to the linear wait.
func jitteredLinear() grpc_retry.Interceptor {
	return grpc_retry.UnaryClientInterceptor(grpc_retry.WithMax(3), grpc_retry.WithBackoff(grpc_retry.BackoffLinearWithJitter(time.Second, 0.2)))
}

// libraryDefault keeps the default wait, 50 ms with 10% jitter.
func libraryDefault() grpc_retry.Interceptor {
	return grpc_retry.UnaryClientInterceptor(grpc_retry.WithMax(3))
}

// exponential grows the wait.
func exponential() grpc_retry.Interceptor {
	return grpc_retry.UnaryClientInterceptor(grpc_retry.WithBackoff(grpc_retry.BackoffExponential(100 * time.Millisecond)))
}
