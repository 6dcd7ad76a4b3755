package lanepool

import "fmt"

// ResetReport says what resetting a lane's pool did. A lane resets its
// pools when it reports recovery lag (bulkhead.Executor.ResetOnRecoveryLag).
type ResetReport struct {
	Lane, Resource string
	// IdleClosed is how many idle connections were closed.
	IdleClosed int
	// Ended is how many of the pool's sessions were ended on the server
	// because they sat in a transaction, waiting for their holder, for
	// longer than the pool's LeakThreshold.
	Ended int
}

func (r ResetReport) String() string {
	return fmt.Sprintf("%s of lane %q reset: %d idle connections closed, %d sessions stuck in a transaction ended",
		r.Resource, r.Lane, r.IdleClosed, r.Ended)
}

// EndStuckSessionsSQL ends the sessions of one application_name ($1) that
// are idle in a transaction that began more than $2 seconds ago, other than
// the session running it, and returns how many it ended. PostgreSQL only.
// An idle-in-transaction session is waiting for its client: the work that
// holds it is stuck elsewhere, and the server keeps its locks and snapshot
// meanwhile. Ending it makes the holder's next statement fail, so the
// holder gives the connection back.
const EndStuckSessionsSQL = `SELECT count(*) FILTER (WHERE pg_terminate_backend(pid))
FROM pg_stat_activity
WHERE application_name = $1
  AND state IN ('idle in transaction', 'idle in transaction (aborted)')
  AND xact_start < now() - make_interval(secs => $2)
  AND pid <> pg_backend_pid()`

// ResetSessionName is the application_name of the short session a reset
// opens to end stuck sessions: the pool's own connections may all be held
// by exactly the work that is stuck.
func ResetSessionName(app string) string { return app + ":reset" }
