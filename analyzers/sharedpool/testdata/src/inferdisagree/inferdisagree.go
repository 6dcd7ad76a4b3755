// Package inferdisagree reaches a pool through an interface whose // want package:`lanes\(\(\*inferdisagree\.API\)\.ServeHTTP@interactive, \(\*inferdisagree\.Warmer\)\.Run@background\)`
// implementations disagree: one uses the pool, the other a map. Which one
// runs decides whether the pool is shared, so bhlint stays silent. The
// calls of Cache.Get are not carried in facts either (ServeHTTP, Run and
// Start have no reaches fact): one implementation reaching no pool is known
// here, so no importer can resolve them to a pool.
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

func (a *API) ServeHTTP(w http.ResponseWriter, r *http.Request) { a.cache.Get(r.URL.Path) }

type Warmer struct{ cache Cache }

func (w *Warmer) Run() { // want Run:`loops\(sleep loop\)`
	for {
		time.Sleep(time.Minute)
		w.cache.Get("hot")
	}
}

func Start(useDB bool) { // want Start:`creates\(inferdisagree\.dbCache\.db\)`
	db, _ := sql.Open("postgres", "app")
	var c Cache = &memCache{m: map[string]string{}}
	if useDB {
		c = &dbCache{db: db}
	}
	http.Handle("/", &API{cache: c})
	go (&Warmer{cache: c}).Run()
}
