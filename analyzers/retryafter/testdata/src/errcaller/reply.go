package errcaller

import (
	"io"
	"net/http"

	"smtpreply"
)

// ---- a status is HTTP only when it can reach an HTTP response ----

// httpError is an error of this package, which reaches net/http: its Code
// is the status an error handler writes.
type httpError struct {
	Code int
	Msg  string
}

func (e *httpError) Error() string { return e.Msg }

func refuse(r *http.Request, busy bool) error {
	if busy {
		return &httpError{Code: http.StatusServiceUnavailable, Msg: "busy"} // want `refuse builds an error carrying HTTP 503 Service Unavailable`
	}
	return nil
}

type session struct{ rcpt []string }

// smtpReplyCode: the SMTP reply 503 (bad sequence of commands) is an error
// of a package that never reaches net/http; no HTTP response carries it.
func (s *session) smtpReplyCode(r io.Reader) error {
	if len(s.rcpt) == 0 {
		return &smtpreply.SMTPError{Code: 503, Message: "Need RCPT TO command before DATA"}
	}
	if _, err := io.ReadAll(r); err != nil {
		return smtpreply.BadSequence{}
	}
	return nil
}
