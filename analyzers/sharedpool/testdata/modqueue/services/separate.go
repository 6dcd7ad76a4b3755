package services // want package:`lanes\(\)`

import (
	"database/sql"

	"example.com/queuelite"
)

// Separate is the same wiring with a pool per lane: one for the admin
// pages, one for the queue's workers, opened by the same helper and handed
// through the same library fields. Two pools, each serving one lane.
type Separate struct {
	Admin *sql.DB
	Queue *sql.DB
	Tasks *queuelite.Client
}

func NewSeparate() *Separate { // want NewSeparate:`creates\(services.Separate.Admin, services.Separate.Queue\)` NewSeparate:`reaches\(queuelite.ClientConfig.DB\(no lane\), services.Separate.Queue\(no lane\)\)`
	s := &Separate{}
	s.Admin, _ = openDB("sqlite3", "dbs/admin.db")
	s.Queue, _ = openDB("sqlite3", "dbs/queue.db")
	s.Tasks, _ = queuelite.NewClient(queuelite.ClientConfig{DB: s.Queue, NumWorkers: 2})
	return s
}
