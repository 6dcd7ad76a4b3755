// Package infercmdable keeps its Redis client as the program's own // want package:`lanes\(\(\*infercmdable\.Server\)\.login@interactive, \(\*infercmdable\.Server\)\.persist@background\)`
// interface over go-redis's Cmdable: every value it holds is a client,
// and the handlers and the persist loop share the one New opens.
package infercmdable

import (
	"context"
	"net/http"
	"time"

	"github.com/go-redis/redis/v8"
)

// Redis is the client as the program keeps it.
type Redis redis.Cmdable

// Counter is the program's own interface: its methods are not go-redis's.
type Counter interface {
	Incr(ctx context.Context, key string) int64
}

type Server struct {
	rdb   Redis
	count Counter
}

func New() *Server { // want New:`creates\(infercmdable\.Server\.rdb\)`
	var rdb Redis = redis.NewClient(&redis.Options{Addr: "cache:6379"})
	return &Server{rdb: rdb}
}

func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	s.rdb.Get(r.Context(), "token")
	s.count.Incr(r.Context(), "logins")
}

func (s *Server) persist() {
	for range time.Tick(time.Second) {
		s.rdb.Del(context.Background(), "stale")
		s.count.Incr(context.Background(), "persists")
	}
}

func Main() { // want Main:`creates\(infercmdable\.Server\.rdb\)` Main:`reaches\(infercmdable\.Server\.rdb\(no lane\), via \(infercmdable\.Counter\)\.Incr\)`
	s := New() // want `infercmdable.Server.rdb, a Redis client created once, serves both interactive and background work`
	http.HandleFunc("/login", s.login)
	go s.persist()
}
