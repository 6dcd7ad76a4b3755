// Package jobs keeps the pool it is handed in its queue's field and polls
// it for the life of the process.
package jobs

import (
	"database/sql"
	"time"
)

type Queue struct{ db *sql.DB }

func New(db *sql.DB) *Queue { return &Queue{db: db} } // want New:`storesParam\(inferlinked/jobs\.Queue\.db\)`

func (q *Queue) Run() { // want Run:`loops\(sleep loop\)`
	for {
		time.Sleep(time.Second)
		q.db.Exec("DELETE FROM jobs WHERE done")
	}
}

// Metrics is the background's own pool, opened apart.
type Metrics struct{ db *sql.DB }

func NewMetrics(db *sql.DB) *Metrics { return &Metrics{db: db} } // want NewMetrics:`storesParam\(inferlinked/jobs\.Metrics\.db\)`

func (m *Metrics) Run() { // want Run:`loops\(sleep loop\)`
	for {
		time.Sleep(time.Minute)
		m.db.Exec("INSERT INTO samples VALUES (1)")
	}
}
