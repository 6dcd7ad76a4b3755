// Package infersetup wires a program whose pool a setup function of // want package:`lanes\(infersetup\.users@interactive, infersetup\.refresh@background, infersetup\.export@background\)`
// another package opens into a package-level variable: the finding is at
// the call of that function, the line of the wiring that creates the pool.
package infersetup

import (
	"net/http"
	"time"

	"infersetupmodels"
)

func users(w http.ResponseWriter, r *http.Request) { infersetupmodels.GetUser() }

func refresh() {
	for range time.Tick(time.Minute) {
		infersetupmodels.QueueJobs()
	}
}

// export uses the reports pool only, which no handler reaches: the call of
// SetupReports, which creates it, is not reported.
func export() {
	for range time.Tick(time.Hour) {
		infersetupmodels.Export()
	}
}

func Main() { // want Main:`creates\(infersetupmodels\.db, infersetupmodels\.reportDB\)` Main:`reaches\(infersetupmodels\.db\(no lane\), infersetupmodels\.reportDB\(no lane\)\)`
	infersetupmodels.SetupReports()
	if err := infersetupmodels.Setup(); err != nil { // want `infersetupmodels.db, a database pool created once, serves both interactive and background work`
		panic(err)
	}
	http.HandleFunc("/users", users)
	go refresh()
	go export()
}
