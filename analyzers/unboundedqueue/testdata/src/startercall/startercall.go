// Package startercall hands a send to the service's own runner in a // want package:`noContextWaitsReported\(1\)`
// function that a handler calls: the line to change is the runner's call,
// and the finding names that call (there is no go statement here).
package startercall

import (
	"context"
	"net/http"

	"asyncpost"
	"example.com/mails"
)

type App struct {
	mails   *mails.App
	backend *asyncpost.Backend
}

func (a *App) notifyAsync(email string) { // want notifyAsync:`detachesPerCall\(asyncpost.go:\d+\)`
	a.backend.Go(func(ctx context.Context) { // want `goroutine per request: this \(\*asyncpost.Backend\).Go call starts a goroutine on every request that reaches it \(through \(\*startercall.App\).notifyAsync\)`
		_ = mails.SendOTP(a.mails, email)
	})
}

func (a *App) resetPassword(w http.ResponseWriter, r *http.Request) {
	a.notifyAsync(r.FormValue("email"))
}
