// Package wiring builds healthiface's handler values and registers them: // want package:`pendingProbes\(probes: \(\*healthiface.Checker\).Check: \(healthiface.TargetService\).IsReady, \(\*healthiface.CachedChecker\).Check: \(healthiface.StatusSource\).Healthy; resolved 0`
// the type it stores in the interface is the implementation the probe runs.
package wiring

import (
	"github.com/gin-gonic/gin"

	"gormstore"
	"healthiface"
)

func Routes(db *gormstore.GormDatabase, addr string) {
	g := gin.New()
	api := healthiface.API{DB: db}
	g.GET("/health", api.Health) // want `health probe \(\*healthiface.API\).Health \(route "/health"\) reaches the database pool GormDatabase.DB .*\(\(\*healthiface.API\).Health → \(healthiface.Database\).Ping → \(\*gormstore.GormDatabase\).Ping → \(\*sql.DB\).Ping\)`

	// boundByDedicatedConnection: the value built here dials its own
	// connection; that GormDatabase also implements Database does not
	// matter.
	own := &healthiface.API{DB: gormstore.TCPPinger{Addr: addr}}
	g.GET("/livez", own.Health)
}
