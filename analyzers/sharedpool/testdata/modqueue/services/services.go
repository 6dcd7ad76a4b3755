// Package services wires the program: one database pool, handed to the
// task queue's workers (and, by the handlers, to its admin pages).
package services

import (
	"database/sql"

	"example.com/queuelite"
)

type Container struct {
	Database *sql.DB
	Tasks    *queuelite.Client
}

func NewContainer() *Container { // want NewContainer:`creates\(services.Container.Database\)` NewContainer:`reaches\(queuelite.ClientConfig.DB\(no lane\), services.Container.Database\(no lane\)\)`
	c := &Container{}
	c.initDatabase()
	c.initTasks()
	return c
}

func (c *Container) initDatabase() {
	var err error
	c.Database, err = openDB("sqlite3", "dbs/main.db")
	if err != nil {
		panic(err)
	}
}

func openDB(driver, dsn string) (*sql.DB, error) {
	return sql.Open(driver, dsn)
}

func (c *Container) initTasks() {
	c.Tasks, _ = queuelite.NewClient(queuelite.ClientConfig{DB: c.Database, NumWorkers: 2})
}
