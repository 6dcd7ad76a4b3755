// Package wiredtest builds the service for tests: wiredByTestHarness. // want package:`pendingProbes\(probes: \(\*healthiface.Checker\).Check: \(healthiface.TargetService\).IsReady, \(\*healthiface.CachedChecker\).Check: \(healthiface.StatusSource\).Healthy; resolved 0`
// It imports testing, so the probes it wires answer no load balancer:
// they are resolved where the service runs (wiredmain), not here.
package wiredtest

import (
	"testing"

	"gormstore"
	"healthiface"
	"service"
)

func NewForTest(t *testing.T) *healthiface.Checker {
	t.Helper()
	return &healthiface.Checker{TargetService: service.New(&gormstore.GormDatabase{})}
}
