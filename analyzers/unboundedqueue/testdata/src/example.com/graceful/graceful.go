// Package graceful is shaped as a graceful-restart server wrapper
// (fvbock/endless): it serves connections for its caller.
package graceful

import "net/http"

func ListenAndServe(addr string, h http.Handler) error {
	srv := &http.Server{Addr: addr, Handler: h}
	return srv.ListenAndServe()
}
