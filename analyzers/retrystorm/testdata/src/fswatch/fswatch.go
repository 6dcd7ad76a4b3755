// Package fswatch stands in for a file watcher (fsnotify): it imports no
// network or database package.
package fswatch

import (
	"errors"
	"os"
)

type Watcher struct{ names []string }

func (w *Watcher) Add(name string) error {
	if _, err := os.Stat(name); err != nil {
		return err
	}
	w.names = append(w.names, name)
	return nil
}

// Do runs op: what op does is the caller's.
func Do(op func() error) error {
	if op == nil {
		return errors.New("no op")
	}
	return op()
}
