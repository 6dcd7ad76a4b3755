// Package dispatch keeps each backend's functions in a package-level map
// and calls them by key: a call looked up in the tables may run any
// function they store under its key.
package dispatch

import "net/http"

const (
	fetch = "fetch"
	name  = "name"
)

var remote = map[string]interface{}{
	fetch: remoteFetch,
	name:  remoteName,
}

var local = map[string]interface{}{
	fetch: localFetch,
	name:  localName,
}

var useRemote bool

func current() map[string]interface{} {
	if useRemote {
		return remote
	}
	return local
}

func remoteFetch(url string) error { // want remoteFetch:`mayNetwork\(http.Get\)`
	_, err := http.Get(url)
	return err
}

func localFetch(string) error { return nil }

func remoteName() string { return "remote" }

func localName() string { return "local" }

// Fetch runs the current backend's fetch: the remote one calls out.
func Fetch(url string) error { // want Fetch:`mayNetwork\(dispatch.remoteFetch → http.Get\)`
	return current()[fetch].(func(string) error)(url)
}

// Name runs the current backend's name, which no table's function sends.
func Name() string {
	return current()[name].(func() string)()
}

// Unknown looks up a key no table has.
func Unknown() {
	if f, ok := current()["other"].(func()); ok {
		f()
	}
}
