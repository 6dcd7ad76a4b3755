// Package assert stands in for testify's: an assertion library imports
// net/http for its HTTP helpers and calls through its own interfaces
// (tHelper, implemented by *testing.T). It is test code, which no load
// balancer's probe runs: healthprobe exports nothing for it (a trap: a
// callsThrough fact here would travel in every test package's facts).
package assert

import (
	"net/http"
	"net/http/httptest"
)

type TestingT interface {
	Errorf(format string, args ...any)
}

type tHelper interface {
	Helper()
}

// Fail calls through tHelper: what a fact would name.
func Fail(t TestingT, msg string) bool {
	if h, ok := t.(tHelper); ok {
		h.Helper()
	}
	t.Errorf("%s", msg)
	return false
}

// HTTPStatusCode serves one request in memory: why the package imports
// net/http.
func HTTPStatusCode(handler http.HandlerFunc, method, url string) int {
	w := httptest.NewRecorder()
	req, _ := http.NewRequest(method, url, nil)
	handler(w, req)
	return w.Code
}
