// Package gocheckhelper is a package of test helpers written against a test
// framework other than testing (gocheck, as kafka-pixy's kafkahelper): every
// file of it uses the framework. Like testdb, nothing here is reported.
package gocheckhelper

import (
	"database/sql"
	"sync"

	. "gopkg.in/check.v1"
)

var shared *sql.DB

type T struct{ c *C }

// Open keeps a pool without a maximum: silent in test support.
func (t *T) Open(dsn string) {
	var err error
	shared, err = sql.Open("pgx", dsn)
	t.c.Assert(err, IsNil)
}

// PutMessages starts one producer per key of the test's map: silent.
func (t *T) PutMessages(messages map[string]int, produce func(string, int)) {
	var wg sync.WaitGroup
	for key, n := range messages {
		wg.Add(1)
		go func() {
			defer wg.Done()
			produce(key, n)
		}()
	}
	wg.Wait()
}
