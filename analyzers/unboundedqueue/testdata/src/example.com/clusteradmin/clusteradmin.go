// Package clusteradmin serves a cluster's admin API over clusterinfo: it
// decides clusterinfo's fan-outs over their parameters at its calls.
package clusteradmin

import (
	"context"
	"database/sql"
	"net/http"
	"sync/atomic"

	"example.com/clusterapi"
	"example.com/internal/clusterinfo"
)

// Options is the process's configuration, swapped whole at run time.
type Options struct {
	LookupdAddrs []string
	NSQDAddrs    []string
}

type Server struct {
	ci   *clusterinfo.ClusterInfo
	opts atomic.Value
	db   *sql.DB
}

func (s *Server) getOpts() *Options { return s.opts.Load().(*Options) }

// nodes hands Nodes the configured addresses, through an accessor: silent.
// It hands clusterapi's Ping the same, which is reported there all the same.
func (s *Server) nodes(w http.ResponseWriter, r *http.Request) {
	s.ci.Nodes(r.Context(), s.getOpts().LookupdAddrs)
	clusterapi.Ping(s.getOpts().LookupdAddrs, func(string) {})
}

// topics hands Topics the configured addresses, then the request's own:
// the second is a goroutine per address a request names (one finding).
func (s *Server) topics(w http.ResponseWriter, r *http.Request) {
	s.ci.Topics(r.Context(), s.getOpts().LookupdAddrs)
	s.ci.Topics(r.Context(), r.URL.Query()["addr"])
}

// producers hands refreshAll the configured addresses: silent.
func (s *Server) producers(w http.ResponseWriter, r *http.Request) {
	s.refreshAll(r.Context(), s.getOpts().NSQDAddrs)
}

// refreshAll hands its parameter on: its callers decide.
func (s *Server) refreshAll(ctx context.Context, addrs []string) {
	s.ci.Producers(ctx, addrs)
}

// refresh hands its parameter on; lookup, below, hands it a request's list.
func (s *Server) refresh(ctx context.Context, addrs []string) {
	s.ci.Lookup(ctx, addrs)
}

func (s *Server) lookup(w http.ResponseWriter, r *http.Request) {
	s.refresh(r.Context(), r.Form["addr"])
}

// fromTable hands Rows every address a table holds, read per request.
func (s *Server) fromTable(w http.ResponseWriter, r *http.Request) { // want fromTable:"waitsOnNetwork"
	rows, err := s.db.QueryContext(r.Context(), "SELECT addr FROM nodes")
	if err != nil {
		return
	}
	defer rows.Close()
	var addrs []string
	for rows.Next() {
		var a string
		if rows.Scan(&a) == nil {
			addrs = append(addrs, a)
		}
	}
	s.ci.Rows(r.Context(), addrs)
}

func (s *Server) Routes(mux *http.ServeMux) {
	mux.HandleFunc("/nodes", s.nodes)
	mux.HandleFunc("/topics", s.topics)
	mux.HandleFunc("/producers", s.producers)
	mux.HandleFunc("/lookup", s.lookup)
	mux.HandleFunc("/table", s.fromTable)
}
