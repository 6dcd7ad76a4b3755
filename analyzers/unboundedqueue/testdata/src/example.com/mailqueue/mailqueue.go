// Package mailqueue hands batches of mail to a consumer over an unbuffered
// channel, behind an interface implemented in the same package.
package mailqueue

import "net/smtp"

type Mail struct{ To string }

// Mailer queues batches; MailWorker's Queue waits for the consumer.
type Mailer interface {
	Queue(ms []Mail) // want Queue:"parksOnSend\\(mw.queue via \\(\\*mailqueue.MailWorker\\).Queue\\)"
	TryQueue(ms []Mail) bool
}

type MailWorker struct {
	queue chan []Mail
}

func New() *MailWorker { return &MailWorker{queue: make(chan []Mail)} }

// Start sends each batch over SMTP before it takes the next: a slow mail
// server leaves every Queue caller waiting.
func (mw *MailWorker) Start() { // want Start:"waitsOnNetwork"
	for ms := range mw.queue {
		for _, m := range ms {
			_ = smtp.SendMail("mail.example:25", nil, "noreply@example.com", []string{m.To}, nil)
		}
	}
}

func (mw *MailWorker) Queue(ms []Mail) { // want Queue:"parksOnSend\\(mw.queue\\)"
	mw.queue <- ms
}

// TryQueue gives up when the consumer is busy: it never parks.
func (mw *MailWorker) TryQueue(ms []Mail) bool {
	select {
	case mw.queue <- ms:
		return true
	default:
		return false
	}
}
