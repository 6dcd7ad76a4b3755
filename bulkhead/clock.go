package bulkhead

import "time"

// Clock is the time source of an executor and a retry guard. Tests inject a
// controllable one with [WithClock] so queue timeouts and lane states can be
// tested without sleeping.
type Clock interface {
	Now() time.Time
	// AfterFunc calls f in its own goroutine once d has passed and returns a
	// func that stops the timer (reporting whether it did). It must never call
	// f before returning: executors call it while holding their lock.
	AfterFunc(d time.Duration, f func()) (stop func() bool)
}

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

func (realClock) AfterFunc(d time.Duration, f func()) func() bool {
	return time.AfterFunc(d, f).Stop
}
