// Package main is the first package that sees the implementations behind // want package:`pendingProbes\(probes: \(\*healthiface.CachedChecker\).Check: \(healthiface.StatusSource\).Healthy; resolved 1; `
// healthiface's gRPC health checks: it reports the one that reaches a pool,
// where it builds the checker.
package main

import (
	"gormstore"
	"healthiface"
	"memstatus"
	"service"
)

func main() {
	db := &gormstore.GormDatabase{}
	_ = &healthiface.Checker{TargetService: service.New(db)} // want `health probe \(\*healthiface.Checker\).Check \(the gRPC health service's Check\) reaches the database pool GormDatabase.DB .*\(\(\*healthiface.Checker\).Check → \(healthiface.TargetService\).IsReady → \(\*service.Server\).IsReady → \(service.Datastore\).Ping → \(\*gormstore.GormDatabase\).Ping → \(\*sql.DB\).Ping\)`
	// boundByInMemoryImplementations: the only StatusSource is memstatus's.
	_ = &healthiface.CachedChecker{Src: &memstatus.Status{}}
}
