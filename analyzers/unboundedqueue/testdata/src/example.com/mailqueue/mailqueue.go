// Package mailqueue hands batches of mail to a consumer over an unbuffered
// channel, behind an interface implemented in the same package.
package mailqueue

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

func (mw *MailWorker) Start() {
	for ms := range mw.queue {
		_ = ms
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
