// Package smtpreply is a mail protocol's reply: an error with an integer
// Code that is an SMTP reply code, declared in a package that never reaches
// net/http.
package smtpreply

// SMTPError is returned by a session's command handlers; the SMTP server
// writes "Code EnhancedCode Message" on the connection.
type SMTPError struct {
	Code    int
	Message string
}

func (e *SMTPError) Error() string { return e.Message }

// ReplyError has a status method that returns an SMTP code.
type ReplyError struct{}

func (ReplyError) Error() string { return "service not available" }

func (ReplyError) Code() int { return 421 }

// BadSequence is the reply to DATA before RCPT TO.
type BadSequence struct{}

func (BadSequence) Error() string { return "bad sequence of commands" }

func (BadSequence) Code() int { return 503 }
