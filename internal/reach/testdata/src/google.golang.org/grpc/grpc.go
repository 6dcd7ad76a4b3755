// Package grpc is a stub: the call options generated clients take.
package grpc

type CallOption interface{}
