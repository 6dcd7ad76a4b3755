// Package megadriver logs in through a dependency that starts a goroutine // want package:`noContextWaitsReported\(1\)`
// per call: the line to change is the module's call into the dependency,
// not the dependency's go statement.
package megadriver

import (
	"net/http"

	"example.org/megalike"
)

type Driver struct{ m *megalike.Mega }

func (d *Driver) login(user string) error { // want login:"detachesPerCall"
	return d.m.Login(user) // want `goroutine per request: this \(\*megalike.Mega\).Login call \(it starts a goroutine at megalike.go:\d+\) starts a goroutine on every request that reaches it \(through \(\*megadriver.Driver\).login\)`
}

// handle logs in on every request.
func (d *Driver) handle(w http.ResponseWriter, r *http.Request) {
	_ = d.login(r.FormValue("user"))
}

// Routes registers handle.
func (d *Driver) Routes(mux *http.ServeMux) { mux.HandleFunc("/login", d.handle) }
