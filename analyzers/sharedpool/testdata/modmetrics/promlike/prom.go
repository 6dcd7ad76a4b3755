// Package promlike is a metrics library shaped as client_golang: a
// registry gathers its collectors through an interface, and one collector
// it ships reads a database pool it is handed.
package promlike

import "database/sql"

type Collector interface{ Collect() }

type Registry struct{ cs []Collector }

func (r *Registry) Register(c Collector) { r.cs = append(r.cs, c) }

func (r *Registry) Gather() {
	for _, c := range r.cs {
		c.Collect()
	}
}

type dbStatsCollector struct{ db *sql.DB }

// NewDBStatsCollector reports the pool it is handed.
func NewDBStatsCollector(db *sql.DB) Collector { return &dbStatsCollector{db: db} }

func (c *dbStatsCollector) Collect() { _ = c.db.Ping() }

type goCollector struct{}

func NewGoCollector() Collector { return goCollector{} }

func (goCollector) Collect() {}
