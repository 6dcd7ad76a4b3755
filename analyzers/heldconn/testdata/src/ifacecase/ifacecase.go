// Package ifacecase calls transaction helpers through interfaces whose // want package:`implements\(holds \(appcore\.App\)\.RunInTransaction by \(\*appcore\.BaseApp\)\.RunInTransaction, holds \(appcore\.Runner\)\.Run by \(appcore\.TxRunner\)\.Run, holds \(appcore\.Transactor\)\.WithTx by \(\*appcore\.PgTransactor\)\.WithTx\)`
// implementations live in appcore.
package ifacecase

import (
	"context"
	"net/http"
	"os/exec"

	"appcore"
	"pgstore"
	"ports"
)

// ---- positives ----

func avatarInsideRunInTransaction(app appcore.App, url string) error {
	return app.RunInTransaction(func(txApp appcore.App) error {
		resp, err := http.Get(url) // want `the function passed to \(appcore.App\).RunInTransaction calls http.Get while the transaction it runs in is held \(held through its implementation \(\*appcore.BaseApp\).RunInTransaction → \(\*appcore.BaseApp\).runInTransaction → \(\*appcore.DB\).Transactional\)`
		if err != nil {
			return err
		}
		resp.Body.Close()
		return txApp.Save(url)
	})
}

type Service struct {
	tx appcore.Transactor
}

func (s *Service) gitInsideWithTx(ctx context.Context) error {
	return s.tx.WithTx(ctx, func(ctx context.Context) error {
		return exec.CommandContext(ctx, "git", "commit").Run() // want `the function passed to \(appcore.Transactor\).WithTx calls \(\*exec.Cmd\).Run, which waits for a subprocess to finish while the transaction it runs in is held \(held through its implementation \(\*appcore.PgTransactor\).WithTx\)`
	})
}

// withApp passes its callback on to the interface method: a holder too.
func withApp(app appcore.App, fn func(appcore.App) error) error { // want withApp:"holdsDuringCallback\\(\\[1\\]\\)"
	return app.RunInTransaction(fn)
}

func throughWrapper(app appcore.App) error {
	return withApp(app, func(appcore.App) error {
		_, err := http.Get("https://avatars.example") // want `the function passed to ifacecase.withApp calls http.Get while the transaction it runs in is held \(held through \(appcore.App\).RunInTransaction \[implemented by \(\*appcore.BaseApp\).RunInTransaction\] → \(\*appcore.BaseApp\).runInTransaction`
		return err
	})
}

// Runner's implementations disagree (TxRunner holds, DirectRunner does not):
// the caller cannot tell which it gets, so the one that holds is followed and
// named.
func runnerWithOneHoldingImplementation(ctx context.Context, r appcore.Runner) error {
	return r.Run(ctx, func(ctx context.Context) error {
		_, err := http.Get("https://tax.example") // want `the function passed to \(appcore.Runner\).Run calls http.Get while the transaction it runs in is held \(held through its implementation \(appcore.TxRunner\).Run; \(appcore.DirectRunner\).Run holds nothing\)`
		return err
	})
}

// ---- traps ----

// Every visible implementation of Batcher runs the callback with nothing
// held (a fake, an in-memory store): the call is not followed.
func onlyBareImplementations(ctx context.Context, b appcore.Batcher) error {
	return b.Batch(ctx, func(ctx context.Context) error {
		_, err := http.Get("https://tax.example")
		return err
	})
}

// The call after a holding implementation returns is fine.
func runnerCallAfterRun(ctx context.Context, r appcore.Runner) error {
	if err := r.Run(ctx, func(ctx context.Context) error { return nil }); err != nil {
		return err
	}
	_, err := http.Get("https://tax.example")
	return err
}

// No implementation of Hooks is visible: nothing is assumed.
func unknownHooks(h appcore.Hooks) error {
	return h.OnSave(func() error {
		_, err := http.Get("https://hooks.example")
		return err
	})
}

// The call after the transaction ends is fine.
func avatarAfterTransaction(app appcore.App, url string) error {
	if err := app.RunInTransaction(func(txApp appcore.App) error {
		return txApp.Save(url)
	}); err != nil {
		return err
	}
	_, err := http.Get(url)
	return err
}

// A goroutine started in the callback does not make it wait.
func goroutineInCallback(app appcore.App) error {
	return app.RunInTransaction(func(txApp appcore.App) error {
		go http.Get("https://webhook.example")
		return nil
	})
}

// ---- an implementation in a package the call site imports ----

var _ ports.UnitOfWork = (*pgstore.UnitOfWork)(nil)

func callThroughPortWithImplInSight(ctx context.Context, uow ports.UnitOfWork) error {
	return uow.Do(ctx, func(ctx context.Context) error {
		_, err := http.Get("https://tax.example") // want `the function passed to \(ports.UnitOfWork\).Do calls http.Get while the transaction it runs in is held \(held through its implementation \(\*pgstore.UnitOfWork\).Do\)`
		return err
	})
}
