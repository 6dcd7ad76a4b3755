package retries

import (
	"context"
	"errors"
	"time"
)

// ---- the error decided by a type switch, a sentinel or errors.Is ----

type ConditionFailedError struct{ Msg string }

func (e *ConditionFailedError) Error() string { return e.Msg }

var ErrConflict = errors.New("conflict")

// Queue is a persistence interface: each call is a database round trip.
type Queue interface {
	UpdateAckLevel(ctx context.Context, level int64) error
}

func updateAckLevel(ctx context.Context, q Queue, level int64) error {
	return q.UpdateAckLevel(ctx, level)
}

// updateAckLevelWithRetry is temporal's namespace replication queue: a
// conditional write retried at once, for ever, on a condition failure.
func updateAckLevelWithRetry(ctx context.Context, q Queue, level int64) error {
conditionFailedRetry:
	for { // want `this loop retries retries.updateAckLevel when it fails with no bound on attempts, with no pause between attempts`
		err := updateAckLevel(ctx, q, level)
		switch err.(type) {
		case *ConditionFailedError:
			continue conditionFailedRetry
		}
		return err
	}
}

// conflictForever retries a conflict at once, for ever (errors.Is).
func conflictForever(ctx context.Context, q Queue) error {
	for { // want `this loop retries \(retries.Queue\).UpdateAckLevel when it fails with no bound on attempts, with no pause`
		err := q.UpdateAckLevel(ctx, 1)
		if errors.Is(err, ErrConflict) {
			continue
		}
		return err
	}
}

// sentinelForever: the same with a comparison.
func sentinelForever(ctx context.Context) error {
	for { // want `this loop retries retries.charge \(a network call: → http.Post\) when it fails with no bound on attempts, with no pause`
		err := charge(ctx)
		if err != ErrConflict {
			return err
		}
	}
}

// conflictBounded: at most 10 attempts of a local write, at once — a
// bounded loop on a local operation, as openfga's SQLite busyRetry.
func conflictBounded(ctx context.Context, q Queue) error {
	for retries := 0; ; retries++ {
		err := q.UpdateAckLevel(ctx, 1)
		if err == nil {
			return nil
		}
		var cf *ConditionFailedError
		if errors.As(err, &cf) {
			if retries < 10 {
				continue
			}
			return err
		}
		return err
	}
}

// conflictBackoff: unbounded attempts would be reported, but the context
// and a growing pause bound it.
func conflictBackoff(ctx context.Context, q Queue) error {
	delay := time.Millisecond
	for ctx.Err() == nil {
		err := q.UpdateAckLevel(ctx, 1)
		if !errors.Is(err, ErrConflict) {
			return err
		}
		time.Sleep(delay)
		delay *= 2
	}
	return ctx.Err()
}

// ---- an iterator's Next advances: skipping is not retrying ----

var ErrSkip = errors.New("skip")

type Cursor interface {
	Next(ctx context.Context) (string, error)
}

// nextSkipping skips the records the cursor cannot decode.
func nextSkipping(ctx context.Context, c Cursor) (string, error) {
	for {
		v, err := c.Next(ctx)
		if errors.Is(err, ErrSkip) {
			continue
		}
		return v, err
	}
}

// firstDecodable: the same with a type switch.
func firstDecodable(ctx context.Context, c Cursor) (string, error) {
	for {
		v, err := c.Next(ctx)
		switch err.(type) {
		case *ConditionFailedError:
			continue
		}
		return v, err
	}
}
