package localwait

import (
	"fswatch"
	"remotecfg"
	"time"
)

// Trap: waiting for a file to come back (a ConfigMap's symlink swap) and
// watching it again, for ever, every 50ms: the watcher's package reaches no
// network or database, so the loop loads nothing remote.
func waitForReplacement(w *fswatch.Watcher, name string) {
	for {
		if err := w.Add(name); err == nil {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// A package that imports the network may reach it behind calls bhlint
// does not see: retried for ever, still reported.
func waitForKey(key string) {
	for { // want `this loop retries remotecfg.Lookup when it fails with no bound on attempts`
		if err := remotecfg.Lookup(key); err == nil {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// A local package handed a function: what it runs is the caller's.
func retryThrough(op func() error) {
	for { // want `this loop retries fswatch.Do when it fails with no bound on attempts`
		if err := fswatch.Do(op); err == nil {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}
