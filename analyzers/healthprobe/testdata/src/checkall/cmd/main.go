// Command cmd wires the health server with every service's checker: the // want package:`pendingProbes\(probes: ; resolved 1; impls: \)`
// finding names each checker that reaches a pool.
package main

import (
	"checkall"
	"checkall/connectors"
	"checkall/pipelines"
)

func main() {
	_ = checkall.New(map[string]checkall.Checker{ // want `health probe \(\*checkall.HealthServer\).Check \(the gRPC health service's Check\) reaches the database pool Service.db`
		"pipelines":  &pipelines.Service{},
		"connectors": &connectors.Service{},
		"plugins":    &connectors.Plugins{},
	})
}
