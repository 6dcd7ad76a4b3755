// Package inferconsumer keeps a go-redis v8 client in a package-level variable // want package:`lanes\(inferconsumer\.profile@interactive, inferconsumer\.onSignup@background, inferconsumer\.onAudit@background\)`
// and subscribes to NATS subjects: a handler a subscription calls for every
// message is a consumer, background work.
package inferconsumer

import (
	"context"
	"net/http"

	"github.com/go-redis/redis/v8"
	"github.com/nats-io/nats.go"
)

var rdb *redis.Client

// audit is the audit consumer's own client, which no handler reaches.
var audit *redis.Client

func open() {
	rdb = redis.NewClient(&redis.Options{Addr: "cache:6379"}) // want `inferconsumer.rdb, a Redis client created once, serves both interactive and background work`
	audit = redis.NewClient(&redis.Options{Addr: "audit:6379"})
}

func profile(w http.ResponseWriter, r *http.Request) {
	rdb.Get(r.Context(), "profile")
}

// onSignup warms the cache the handlers read, on the same client.
func onSignup(m *nats.Msg) {
	rdb.Del(context.Background(), "profile:"+string(m.Data))
}

// onAudit writes on the audit client only: not shared.
func onAudit(m *nats.Msg) {
	audit.Incr(context.Background(), "events")
}

func Main(nc *nats.Conn) { // want Main:`reaches\(inferconsumer\.rdb\(no lane\)\)` Main:`creates\(inferconsumer\.audit, inferconsumer\.rdb\)`
	open()
	http.HandleFunc("/profile", profile)
	nc.Subscribe("signups", onSignup)
	nc.QueueSubscribe("audit", "auditors", onAudit)
}
