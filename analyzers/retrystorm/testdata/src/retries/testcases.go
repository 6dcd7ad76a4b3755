package retries

import (
	"context"
	"testing"
)

// A test harness kept in a production package: caseRunner returns the
// function that t.Run runs. The literal takes the test, so its body is test
// code, bounded by the test binary's -timeout, as a function declared with a
// *testing.T is; the package's other files are production code and keep
// their findings.

// ---- trap: must stay silent ----

func caseRunner(ctx context.Context) func(t *testing.T) {
	return func(t *testing.T) {
		for {
			if err := charge(ctx); err == nil {
				return
			}
		}
	}
}

// caseRunnerTB takes the testing.TB interface; silent too.
func caseRunnerTB(ctx context.Context) func(tb testing.TB) {
	return func(tb testing.TB) {
		for {
			if err := charge(ctx); err == nil {
				return
			}
		}
	}
}

// productionLoop beside them is not test code: the literal it starts takes
// no test, and its retry is reported.
func productionLoop(ctx context.Context) {
	go func() {
		for { // want `this loop retries retries.charge .* with no pause between attempts`
			if err := charge(ctx); err == nil {
				return
			}
		}
	}()
}
