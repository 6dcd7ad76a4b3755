// Package handler serves requests on a provider it is handed; it neither // want package:"pendingWaits\\(1\\)"
// gives the pool a maximum nor imports the package that does (utask's
// api/handler and utask/db): the maximum is the program's, and the server
// that wires both reports the wait here.
package handler

import (
	"net/http"

	"example.org/zestylike"
)

type Tasks struct{ DBP zestylike.DBProvider }

func (t *Tasks) Resolve(w http.ResponseWriter, r *http.Request) {
	if err := t.DBP.Tx(); err != nil { // want `wait with no deadline: \(zestylike.DBProvider\).Tx \(\(\*sql.DB\).Begin inside it\) waits for a pool slot with no context, in a dependency that takes none, and a request reaches it`
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	_ = t.DBP.Commit()
}
