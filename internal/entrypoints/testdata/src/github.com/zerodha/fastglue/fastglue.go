// Package fastglue is the part of zerodha/fastglue the tests use.
package fastglue

type Request struct{}

type FastRequestHandler func(*Request) error

type Fastglue struct{}

func NewGlue() *Fastglue                                   { return &Fastglue{} }
func (f *Fastglue) GET(path string, h FastRequestHandler)  {}
func (f *Fastglue) POST(path string, h FastRequestHandler) {}
func (f *Fastglue) Before(fm ...func(*Request) *Request)   {}
