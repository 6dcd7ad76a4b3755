// Command inferelsewhere opens its store through a registry of openers (a // want package:`lanes\(jobs\.Run@background\)`
// map of functions, as storage drivers register themselves), so no call
// of main's leads to the pool by static calls: the finding sits where the
// provider package opens the pool, the line to change, and not at main.
package main

import (
	"inferelsewhere/api"
	"inferelsewhere/jobs"
	"inferelsewhere/provider"
)

func main() {
	provider.Open("pg", "app")
	provider.OpenSessions("sessions")
	provider.OpenAudit("audit")
	go jobs.Run()
	api.Serve()
}
