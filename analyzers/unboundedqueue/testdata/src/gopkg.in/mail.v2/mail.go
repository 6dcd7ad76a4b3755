// Package mail stubs gopkg.in/mail.v2: the Dialer sends over SMTP.
package mail

type Message struct{ header map[string][]string }

func NewMessage() *Message { return &Message{header: map[string][]string{}} }

func (m *Message) SetHeader(field string, value ...string) { m.header[field] = value }

type Dialer struct {
	Host string
	Port int
}

func NewDialer(host string, port int, username, password string) *Dialer {
	return &Dialer{Host: host, Port: port}
}

func (d *Dialer) DialAndSend(m ...*Message) error { return nil }
