// Package fastglue is the part of zerodha/fastglue the tests use: a
// fasthttp router whose handlers take its own Request.
package fastglue

type Request struct {
	Context interface{}
}

type FastRequestHandler func(*Request) error

type Fastglue struct{}

func NewGlue() *Fastglue                                   { return &Fastglue{} }
func (f *Fastglue) GET(path string, h FastRequestHandler)  {}
func (f *Fastglue) POST(path string, h FastRequestHandler) {}

// ListenAndServe serves the routes until the listener closes.
func (f *Fastglue) ListenAndServe(address string, socket string, s interface{}) error { return nil }
