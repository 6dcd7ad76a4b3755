package detached

import (
	"net/http"
	"testing"

	"example.com/mails"
)

// Trap: go statements in tests are not checked.
func handlerForTest(w http.ResponseWriter, r *http.Request) {
	go func() { _ = mails.SendOTP(nil, "t@example.com") }()
}

func TestHandler(t *testing.T) { handlerForTest(nil, nil) }
