// Package infersetupmodels keeps its pools in package-level variables that
// a setup function opens: the program calls Setup, never gorm.Open.
package infersetupmodels

import (
	"gorm.io/gorm"
)

type sqlite struct{}

func (sqlite) Name() string { return "sqlite" }

var db *gorm.DB

// reportDB is the background work's own pool.
var reportDB *gorm.DB

// replica is a second handle kept for failover.
var replica *gorm.DB

// Setup opens the pool every handler and worker shares.
func Setup() error { // want Setup:`creates\(infersetupmodels\.db\)`
	var err error
	db, err = gorm.Open(sqlite{})
	return err
}

// SetupReports opens the reports pool, through a helper of its own.
func SetupReports() { // want SetupReports:`creates\(infersetupmodels\.reportDB\)`
	openReports()
}

func openReports() {
	reportDB, _ = gorm.Open(sqlite{})
}

// UseReplica copies one pool variable into another: no pool is
// opened, so it creates nothing.
func UseReplica() {
	db = replica
}

func GetUser() { // want GetUser:`reaches\(infersetupmodels\.db\(no lane\)\)`
	db.Find(nil)
}

func QueueJobs() { // want QueueJobs:`reaches\(infersetupmodels\.db\(no lane\)\)`
	db.Create("job")
}

func Export() { // want Export:`reaches\(infersetupmodels\.reportDB\(no lane\)\)`
	reportDB.Create("row")
}
