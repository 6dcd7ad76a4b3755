package bulkhead

import (
	"context"
	"log/slog"
	"time"
)

// AlertRecoveryLag is the name of the recovery-lag alert: the event
// (EventRecoveryLag), the log line's message and the Prometheus alert.
const AlertRecoveryLag = "ALERT_BULKHEAD_RECOVERY_LAG"

// resetTimeout bounds one pool's reset when a lane reports recovery lag.
const resetTimeout = 10 * time.Second

// PoolResetter is a lane's pool that can be reset when the lane lags in
// recovering: lanedb.DB and lanepgx.Pool drop their idle connections and
// end the sessions stuck in a transaction past their leak threshold.
type PoolResetter interface {
	ResetPool(ctx context.Context) error
}

// ResetOnRecoveryLag registers the lane's pools to reset when the lane
// reports recovery lag. It may be called at any time, typically once the
// pools are open.
func (e *Executor[L]) ResetOnRecoveryLag(pools ...PoolResetter) {
	e.l.mu.Lock()
	e.l.resetters = append(e.l.resetters, pools...)
	e.l.mu.Unlock()
}

// WithLogger sets where the executor writes its warnings (stuck work) and
// alerts (recovery lag). Default slog.Default() at the time of writing.
func WithLogger(lg *slog.Logger) Option { return func(o *options) { o.logger = lg } }

func (l *limiter) logger() *slog.Logger {
	if l.log != nil {
		return l.log
	}
	return slog.Default()
}

// Recovery lag, as the package documentation defines it, is tracked in
// episodes. An episode starts when the lane turns SATURATED or its breaker
// opens while at least Baseline calls run. The dependency has answered
// once, after that, a call ends without a failure while the
// breaker (if any) is closed, or the breaker closes; a failure takes that
// back. RecoveryLag after the answer the lane is checked; the episode ends
// when fewer than Baseline calls run.

// Where an incident stands, in limiter.lag.
const (
	lagIdle     uint32 = iota // no incident
	lagAwaiting               // an incident; the dependency has not answered normally yet
	lagAnswered               // it has; the lag check is scheduled or done
)

// lagEnd is an episode's end, to report once the lock is released.
type lagEnd struct {
	ended bool // a lagging episode ended
	after time.Duration
}

// noteDisturbed starts an episode. Callers hold l.mu.
func (l *limiter) noteDisturbed() {
	if !l.trackLag || l.lagging || l.active < l.spec.Baseline {
		return // a lag already reported stands until the lane is below its baseline
	}
	l.lag.Store(lagAwaiting)
	l.answeredAt = time.Time{}
	l.answerSeq++ // a pending check belongs to an answer that no longer counts
}

// noteBreaker follows the lane's breaker. Callers hold l.mu.
func (l *limiter) noteBreaker(to BreakerState) {
	switch to {
	case BreakerOpen:
		l.noteDisturbed()
	case BreakerClosed:
		if l.lag.Load() != lagIdle {
			l.answered()
		}
	}
}

// noteOutcome is told how a call ended during an incident; the
// call still holds its slot.
func (l *limiter) noteOutcome(failure bool) {
	if !failure && l.lag.Load() == lagAnswered {
		return // the common case while busy after an answer: no lock
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.lag.Load() == lagIdle:
	case failure:
		if !l.answeredAt.IsZero() && !l.lagging {
			l.answeredAt = time.Time{}
			l.answerSeq++
			l.lag.Store(lagAwaiting)
		}
	case l.active-1 < l.spec.Baseline && l.queue.Len() == 0:
		// This call's release ends the episode: no lag to watch for.
	case l.breaker == nil || l.breakerState == BreakerClosed:
		l.answered()
	}
}

// answered notes the first normal answer of an episode and schedules the
// lag check. Callers hold l.mu.
func (l *limiter) answered() {
	if !l.answeredAt.IsZero() || l.lagging {
		return
	}
	l.answeredAt = l.clock.Now()
	l.answerSeq++
	l.lag.Store(lagAnswered)
	seq := l.answerSeq
	l.clock.AfterFunc(l.spec.RecoveryLag, func() { l.lagCheck(seq) })
}

// atBaseline ends the episode once fewer than Baseline calls run. Callers
// hold l.mu; release calls it.
func (l *limiter) atBaseline() lagEnd {
	if l.active >= l.spec.Baseline {
		return lagEnd{}
	}
	l.lag.Store(lagIdle)
	l.answerSeq++
	var end lagEnd
	if l.lagging {
		end = lagEnd{ended: true, after: l.clock.Now().Sub(l.answeredAt)}
	}
	l.answeredAt, l.lagging = time.Time{}, false
	return end
}

// lagCheck runs RecoveryLag after the dependency answered: a lane still at
// or above its Baseline lags.
func (l *limiter) lagCheck(seq uint64) {
	l.mu.Lock()
	if l.lag.Load() != lagAnswered || seq != l.answerSeq || l.lagging || l.active < l.spec.Baseline {
		l.mu.Unlock()
		return
	}
	l.lagging = true
	active, since := l.active, l.clock.Now().Sub(l.answeredAt)
	pools := append([]PoolResetter(nil), l.resetters...)
	l.mu.Unlock()

	l.logger().Error(AlertRecoveryLag, "lane", l.spec.Name, "active", active, "baseline", l.spec.Baseline,
		"since_dependency_answered", since, "pools_to_reset", len(pools),
		"meaning", "the lane's dependency answers normally again, yet the lane has not come back below its baseline")
	if len(l.observers) > 0 {
		l.emit(Event{Kind: EventRecoveryLag, Lane: l.spec.Name, Wait: since, Active: active, At: l.clock.Now()})
	}
	for _, p := range pools {
		ctx, cancel := context.WithTimeout(context.Background(), resetTimeout)
		err := p.ResetPool(ctx)
		cancel()
		if err != nil {
			l.logger().Error("bulkhead: resetting a pool after recovery lag failed", "lane", l.spec.Name, "err", err)
		}
	}
}

// emitLag reports the end of a lagging episode.
func (l *limiter) emitLag(c lagEnd) {
	if !c.ended {
		return
	}
	l.logger().Info("bulkhead: lane is back below its baseline after recovery lag",
		"lane", l.spec.Name, "baseline", l.spec.Baseline, "after_dependency_answered", c.after)
	if len(l.observers) > 0 {
		l.emit(Event{Kind: EventRecoveryLagEnded, Lane: l.spec.Name, Wait: c.after, At: l.clock.Now()})
	}
}
