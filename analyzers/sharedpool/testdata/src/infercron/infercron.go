// Package infercron keeps a go-redis v8 client in a package-level variable // want package:`lanes\(infercron\.session@interactive, infercron\.flushSessions@background, infercron\.countJobs@background\)`
// and runs its jobs with gocron v1: a job handed to Scheduler.Do is
// background work.
package infercron

import (
	"context"
	"net/http"
	"time"

	"github.com/go-co-op/gocron"
	"github.com/go-redis/redis/v8"
)

var rdb *redis.Client

// counters is the jobs' own client, which no handler reaches.
var counters *redis.Client

func open() {
	rdb = redis.NewClient(&redis.Options{Addr: "cache:6379"}) // want `infercron.rdb, a Redis client created once, serves both interactive and background work`
	counters = redis.NewClient(&redis.Options{Addr: "counters:6379"})
}

func session(w http.ResponseWriter, r *http.Request) {
	rdb.Get(r.Context(), "session")
}

func flushSessions(prefix string) {
	rdb.Del(context.Background(), prefix)
}

// countJobs is a job on the counters' own client: not shared.
func countJobs() {
	counters.Incr(context.Background(), "jobs")
}

func Main() { // want Main:`reaches\(infercron\.rdb\(no lane\)\)` Main:`creates\(infercron\.counters, infercron\.rdb\)`
	open()
	http.HandleFunc("/session", session)
	s := gocron.NewScheduler(time.UTC)
	s.Every(1).Minute().Do(flushSessions, "sess:")
	s.Every(1).Minute().Do(countJobs)
	s.StartAsync()
}
