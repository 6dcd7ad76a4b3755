// Package smtpmail sends mail through a gomail-style dialer behind an
// interface implemented in the same package, and a container holding the
// current mailer: no call on the way reaches net/smtp statically.
package smtpmail

import "gopkg.in/mail.v2"

type Message struct{ To, Subject string }

// Mailer is implemented by DialerMailer below, which dials the SMTP server.
type Mailer interface {
	SendMail(m *Message) error // want SendMail:"waitsOnNetwork"
}

type DialerMailer struct{ dialer *mail.Dialer }

func NewDialerMailer(host string, port int) *DialerMailer {
	return &DialerMailer{dialer: mail.NewDialer(host, port, "", "")}
}

func (m *DialerMailer) SendMail(msg *Message) error { // want SendMail:"waitsOnNetwork"
	out := mail.NewMessage()
	out.SetHeader("To", msg.To)
	return m.dialer.DialAndSend(out)
}

// Container holds the mailer the configuration chose.
type Container struct{ Current Mailer }

var Default = &Container{}

func (c *Container) SendMail(m *Message) error { // want SendMail:"waitsOnNetwork"
	return c.Current.SendMail(m)
}
