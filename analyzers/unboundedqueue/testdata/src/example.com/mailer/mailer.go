// Package mailer is shaped as pocketbase's tools/mailer: an interface whose
// SMTP implementation, in the same package, talks to a server with no
// deadline (net/smtp has no context).
package mailer

import "net/smtp"

type Message struct {
	To   string
	Body []byte
}

// Mailer sends mail: its SMTP client waits on the network.
type Mailer interface {
	Send(m *Message) error // want Send:"waitsOnNetwork"
}

type SMTPClient struct{ Host string }

func (c *SMTPClient) Send(m *Message) error { // want Send:"waitsOnNetwork"
	return smtp.SendMail(c.Host, nil, "noreply@example.com", []string{m.To}, m.Body)
}

// Renderer is a look-alike whose implementations stay in memory: no fact.
type Renderer interface {
	Render(m *Message) error
}

type Template struct{}

func (Template) Render(m *Message) error { m.Body = append(m.Body, '\n'); return nil }
