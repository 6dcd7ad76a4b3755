// Package nolimit calls the same library on a pool nothing in the program // want package:"pendingWaits\\(1\\)"
// gives a maximum: it opens a connection per caller instead of queueing
// them (the pool's own finding says what it lacks). Its wait stays pending:
// no package that gives a pool a maximum imports it.
package nolimit

import (
	"net/http"

	"example.org/gorplike"
)

type API struct{ dbmap *gorplike.DbMap }

// Trap: no maximum, no wait for a slot.
func (a *API) CreateTask(w http.ResponseWriter, r *http.Request) { // want CreateTask:"waitsOnNetwork"
	_, _ = a.dbmap.Begin()
}
