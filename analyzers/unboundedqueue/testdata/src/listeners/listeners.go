// Package listeners starts one server per binding of its service: a
// goroutine that serves connections for the life of its listener is a
// server per binding, bounded by the deployment (servesConns), whether it
// serves through net/http or a library that accepts in a loop.
package listeners

import (
	"net"
	"net/http"

	"example.com/ftplib"
)

type Binding struct {
	Address string
	Port    int
}

type Service struct {
	Bindings []Binding
	handler  http.Handler
}

func (s *Service) serveHTTP(b Binding) error { // want serveHTTP:"servesConns"
	srv := &http.Server{Addr: b.Address, Handler: s.handler}
	return srv.ListenAndServe()
}

// StartHTTP: each goroutine serves its binding through a function of this
// package that serves: silent.
func (s *Service) StartHTTP() {
	for _, b := range s.Bindings {
		go func(b Binding) {
			_ = s.serveHTTP(b)
		}(b)
	}
}

// StartFTP: each goroutine runs a library's server, which accepts in a
// loop (a fact of its package): silent.
func (s *Service) StartFTP() {
	for _, b := range s.Bindings {
		srv := &ftplib.Server{Addr: b.Address}
		go srv.ListenAndServe()
	}
}

// ---- still reported ----

// Probe dials each binding once in a goroutine of its own: no server, one
// goroutine per element.
func (s *Service) Probe(targets []Binding) {
	for _, b := range targets {
		go func(b Binding) { // want `goroutine per item: this go statement starts one goroutine for every element of targets`
			conn, err := net.Dial("tcp", b.Address)
			if err == nil {
				conn.Close()
			}
		}(b)
	}
}

// TakeOne waits for one connection on each listener it is handed: a
// single Accept, outside any loop, serves nothing.
func (s *Service) TakeOne(lns []net.Listener, peers []Binding) {
	for _, p := range peers {
		go func(p Binding) { // want `goroutine per item: this go statement starts one goroutine for every element of peers`
			conn, err := ftplib.AcceptOne(lns[0])
			if err == nil {
				net.Dial("tcp", p.Address)
				conn.Close()
			}
		}(p)
	}
}
