// Package errcaller holds handlers that answer through errhelper, whose
// shed depends on the error each one passes.
package errcaller

import (
	"encoding/json"
	"net/http"

	"errhelper"
)

// statusChosenByErrorIdentity: the helper writes 429 only for ErrQueueFull;
// this handler passes a decoding error, which never is. Silent here: the
// shed is reported in the helper.
func statusChosenByErrorIdentity(w http.ResponseWriter, r *http.Request) {
	var body map[string]any
	if err := json.NewDecoder(r.Body).Decode(&body); errhelper.HTTPError(w, err) {
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// statusChosenByErrorIdentityLock passes the lock's error, which can be
// ErrQueueFull: the helper's write is where the header belongs, and it is
// reported there, once, not at each call.
func statusChosenByErrorIdentityLock(w http.ResponseWriter, r *http.Request) {
	if errhelper.HTTPError(w, errhelper.Lock(r.URL.Path, len(r.URL.Query()))) {
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// statusTypeChosenByErrorIdentity: the same for a helper that tests the
// error's type.
func statusTypeChosenByErrorIdentity(w http.ResponseWriter, r *http.Request) {
	errhelper.WriteErr(w, json.Unmarshal([]byte(r.URL.RawQuery), new(int)))
	errhelper.StatusOf(w, nil)
}

// serveThroughHelper passes its own error on to the helper: a helper of a
// helper chooses nothing either.
func serveThroughHelper(w http.ResponseWriter, r *http.Request) {
	render(w, json.Unmarshal([]byte(r.URL.RawQuery), new(int)))
}

func render(w http.ResponseWriter, err error) {
	errhelper.HTTPError(w, err)
}

// ---- positive: a helper's own shed, whatever the error ----

func overloadedOnAnyError(w http.ResponseWriter, r *http.Request) {
	errhelper.Overloaded(w, nil) // want `handler overloadedOnAnyError writes 503 Service Unavailable on a path where Retry-After was not set`
}
