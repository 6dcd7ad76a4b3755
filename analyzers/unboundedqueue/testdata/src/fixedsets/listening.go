package fixedsets

import (
	"context"
	"net"
	"net/http"
)

// ---- a method that starts the servers ----

// Processor serves one configured UDP port until the agent stops.
type Processor interface{ Serve() }

// Agent's processors are handed to its exported constructor: the caller
// builds them from configuration, in a package this one does not see.
type Agent struct {
	processors []Processor
	server     *http.Server
}

func NewAgent(processors []Processor, server *http.Server) *Agent {
	return &Agent{processors: processors, server: server}
}

// Run binds the agent's listener: it starts the servers, once per process,
// so its loop starts one goroutine per processor the process was built
// with, once.
func (a *Agent) Run() error {
	ln, err := net.Listen("tcp", a.server.Addr)
	if err != nil {
		return err
	}
	go a.server.Serve(ln)
	for _, p := range a.processors {
		go p.Serve()
	}
	return nil
}

// Reload is handed a context by whoever calls it, as often as they like:
// the same loop is one goroutine per processor per call.
func (a *Agent) Reload(ctx context.Context) {
	for _, p := range a.processors {
		go p.Serve() // want `goroutine per item: this go statement starts one goroutine for every element of a.processors`
	}
}
