package bulkhead

import (
	"fmt"
	"time"
)

// State is a lane's health as the payment spec's lane states define it.
//
//   - NORMAL → SATURATED when every slot is busy and the queue is full.
//   - SATURATED → RECOVERING when fewer than 60% of the slots are busy. The
//     gap between 100% and 60% is the hysteresis: a lane hovering near its
//     limit does not flap.
//   - RECOVERING → NORMAL once fewer than 60% of the slots have stayed busy
//     for RecoverAfter (10s) in a row; reaching 60% restarts the count.
//   - RECOVERING → SATURATED when the lane is full again.
//
// While SATURATED the lane does not queue: work that finds no free slot is
// rejected at once with ReasonSaturated instead of waiting behind stalled
// work. Work that finds a free slot runs, so recovery needs no churn.
//
// The spec calls a lane below 80% NORMAL. Here a lane between 80% and 100%
// keeps the state it had: 80% is not a transition, because falling back to
// SATURATED (and so to failing fast) at 80% would switch off the queue of a
// small lane, where 80% of 1 to 4 slots is all of them, whenever it is busy.
type State uint8

const (
	// StateNormal: admitting as usual.
	StateNormal State = iota
	// StateSaturated: was full (every slot busy, queue full); fails fast until below 60%.
	StateSaturated
	// StateRecovering: below 60% after saturation, on probation for RecoverAfter.
	StateRecovering
)

func (s State) String() string {
	switch s {
	case StateNormal:
		return "NORMAL"
	case StateSaturated:
		return "SATURATED"
	case StateRecovering:
		return "RECOVERING"
	}
	return fmt.Sprintf("State(%d)", uint8(s))
}

// States lists every State, for metrics that export one series per state.
var States = [3]State{StateNormal, StateSaturated, StateRecovering}

// stateChange is a transition to report once the lock is released. It is
// kept small: every admission and release returns one.
type stateChange struct {
	from, to State
	seq      uint64
}

// updateState applies the spec's lane states after active or queued changed. Callers hold l.mu.
func (l *limiter) updateState() stateChange {
	limit := l.spec.MaxConcurrent
	full := l.active >= limit && l.queue.Len() >= l.spec.MaxQueued
	switch l.state {
	case StateNormal:
		if full {
			return l.setState(StateSaturated)
		}
	case StateSaturated:
		if l.active*100 < 60*limit {
			return l.setState(StateRecovering)
		}
	case StateRecovering:
		if full {
			return l.setState(StateSaturated)
		}
		l.trackBelow()
	}
	return stateChange{}
}

// trackBelow keeps belowSince, the start of the current run below 60%, and
// makes sure a timer will look at it once RecoverAfter has passed.
func (l *limiter) trackBelow() {
	if l.active*100 >= 60*l.spec.MaxConcurrent {
		l.belowSince = time.Time{}
		return
	}
	if l.belowSince.IsZero() {
		l.belowSince = l.clock.Now()
	}
	if !l.recoverTimer {
		l.recoverTimer = true
		l.clock.AfterFunc(l.belowSince.Add(l.spec.RecoverAfter).Sub(l.clock.Now()), l.recoverCheck)
	}
}

func (l *limiter) setState(to State) stateChange {
	c := stateChange{from: l.state, to: to}
	l.state = to
	l.stateSeq++
	c.seq = l.stateSeq
	l.belowSince = time.Time{}
	switch to {
	case StateRecovering:
		l.trackBelow()
	case StateSaturated:
		l.noteDisturbed() // recovery lag starts counting from here (recoverylag.go)
	}
	return c
}

// recoverCheck runs when a RECOVERING lane may have been below 60% long enough.
func (l *limiter) recoverCheck() {
	l.mu.Lock()
	l.recoverTimer = false
	c := l.checkRecovered()
	if l.state == StateRecovering && !l.belowSince.IsZero() {
		l.trackBelow() // not long enough yet: look again when it will be
	}
	l.mu.Unlock()
	l.emitState(c)
}

// checkRecovered moves a lane that has been below 60% for RecoverAfter to
// NORMAL. Callers hold l.mu.
func (l *limiter) checkRecovered() stateChange {
	if l.state != StateRecovering || l.belowSince.IsZero() {
		return stateChange{}
	}
	if l.clock.Now().Sub(l.belowSince) < l.spec.RecoverAfter {
		return stateChange{}
	}
	return l.setState(StateNormal)
}

// emitState reports a state change; small enough to inline on the fast path.
func (l *limiter) emitState(c stateChange) {
	if c.from != c.to && len(l.observers) > 0 {
		l.emitStateChange(c)
	}
}

// emitStateChange reads the clock outside the lock: At may trail the change
// by the time it takes to release the lock, which Seq makes harmless.
func (l *limiter) emitStateChange(c stateChange) {
	l.emit(Event{Kind: EventStateChanged, Lane: l.spec.Name, From: c.from, To: c.to, At: l.clock.Now(), Seq: c.seq})
}
