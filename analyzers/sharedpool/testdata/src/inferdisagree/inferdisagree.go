// Package inferdisagree reaches a pool through an interface whose // want package:`lanes\(\(\*inferdisagree\.API\)\.ServeHTTP@interactive, \(\*inferdisagree\.Warmer\)\.Run@background, \(\*inferdisagree\.Sampler\)\.Run@background\)`
// implementations disagree: one uses the pool, the other a map. Which one
// runs is the deployment's choice, and where the database one runs, the
// pool serves both the handler and the warmer: reported, naming the
// implementation on the path. Both implementations are declared beside the
// interface, so the map one is a stand-in, no proof that Get reaches no
// pool: the calls of Cache.Get are carried in facts (reaches via
// Cache.Get), for the packages that see other backends.
//
// Trap: the sampler's Sink has two implementations and neither reaches a
// pool; the handler's pool is not the sampler's.
package inferdisagree

import (
	"database/sql"
	"net/http"
	"time"
)

type Cache interface {
	Get(k string) string
}

type dbCache struct{ db *sql.DB }

func (c *dbCache) Get(k string) string { // want Get:`reaches\(inferdisagree\.dbCache\.db\(no lane\)\)`
	var v string
	c.db.QueryRow("SELECT v FROM cache WHERE k = $1", k).Scan(&v)
	return v
}

type memCache struct{ m map[string]string }

func (c *memCache) Get(k string) string { return c.m[k] }

type API struct{ cache Cache }

func (a *API) ServeHTTP(w http.ResponseWriter, r *http.Request) { a.cache.Get(r.URL.Path) } // want ServeHTTP:`reaches\(via \(inferdisagree\.Cache\)\.Get\)`

type Warmer struct{ cache Cache }

func (w *Warmer) Run() { // want Run:`loops\(sleep loop\)` Run:`reaches\(via \(inferdisagree\.Cache\)\.Get\)`
	for {
		time.Sleep(time.Minute)
		w.cache.Get("hot")
	}
}

type Sink interface{ Put(v int) }

type memSink struct{ vals []int }

func (s *memSink) Put(v int) { s.vals = append(s.vals, v) }

type logSink struct{}

func (logSink) Put(v int) { println(v) }

var _ Sink = logSink{}

type Sampler struct{ sink Sink }

func (s *Sampler) Run() { // want Run:`loops\(sleep loop\)` Run:`reaches\(via \(inferdisagree\.Sink\)\.Put\)`
	for {
		time.Sleep(time.Second)
		s.sink.Put(1)
	}
}

func Start(useDB bool) { // want Start:`creates\(inferdisagree\.dbCache\.db\)` Start:`reaches\(via \(inferdisagree\.Cache\)\.Get, via \(inferdisagree\.Sink\)\.Put\)`
	db, _ := sql.Open("postgres", "app") // want `inferdisagree.dbCache.db, a database pool created once, serves both interactive and background work.*\(\*inferdisagree\.dbCache\)\.Get`
	var c Cache = &memCache{m: map[string]string{}}
	if useDB {
		c = &dbCache{db: db}
	}
	http.Handle("/", &API{cache: c})
	go (&Warmer{cache: c}).Run()
	go (&Sampler{sink: &memSink{}}).Run()
}
