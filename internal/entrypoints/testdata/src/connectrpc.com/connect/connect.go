// Package connect is the part of connectrpc.com/connect the tests use.
package connect

type HandlerOption interface{ handlerOption() }

type Request[T any] struct{ Msg *T }

type Response[T any] struct{ Msg *T }
