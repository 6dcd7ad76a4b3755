// Package ftplib is a server library: ListenAndServe accepts connections in
// a loop until its listener closes.
package ftplib

import "net"

type Server struct{ Addr string }

func (s *Server) ListenAndServe() error { // want ListenAndServe:"servesConns"
	ln, err := net.Listen("tcp", s.Addr)
	if err != nil {
		return err
	}
	return s.Serve(ln)
}

func (s *Server) Serve(ln net.Listener) error { // want Serve:"servesConns"
	for {
		conn, err := ln.Accept()
		if err != nil {
			return err
		}
		go s.handle(conn)
	}
}

func (s *Server) handle(conn net.Conn) { conn.Close() }

// AcceptOne takes a single connection: no loop, no server.
func AcceptOne(ln net.Listener) (net.Conn, error) { return ln.Accept() }
