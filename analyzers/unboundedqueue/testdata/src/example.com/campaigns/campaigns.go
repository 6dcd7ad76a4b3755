// Package campaigns is a background worker behind an interface: launching
// a campaign hands its mail to the mailer's queue.
package campaigns

import "example.com/mailqueue"

type Campaign struct{ ID int64 }

// Worker is implemented by DefaultWorker below.
type Worker interface {
	LaunchCampaign(c Campaign) // want LaunchCampaign:"parksOnSend\\(mw.queue via \\(mailqueue.Mailer\\).Queue\\)"
	LaunchOrReject(c Campaign) bool
	LaunchLocal(c Campaign)
	LaunchBounded(c Campaign)
}

type DefaultWorker struct {
	mailer mailqueue.Mailer
	sem    chan struct{}
}

func (w *DefaultWorker) mails(c Campaign) []mailqueue.Mail {
	return []mailqueue.Mail{{To: "a@example.com"}}
}

// LaunchCampaign waits until the mailer's consumer takes the batch.
func (w *DefaultWorker) LaunchCampaign(c Campaign) { // want LaunchCampaign:"parksOnSend\\(mw.queue via \\(mailqueue.Mailer\\).Queue\\)"
	ms := w.mails(c)
	w.mailer.Queue(ms)
}

// LaunchOrReject hands over only when the consumer is free.
func (w *DefaultWorker) LaunchOrReject(c Campaign) bool {
	return w.mailer.TryQueue(w.mails(c))
}

// LaunchLocal queues to a mailer it made, whose consumer it starts: the
// queue is this call's own.
func (w *DefaultWorker) LaunchLocal(c Campaign) { // want LaunchLocal:"startsGoroutine" LaunchLocal:"detachesPerCall\\(campaigns.go:41\\)"
	mw := mailqueue.New()
	go mw.Start()
	mw.Queue(w.mails(c))
}

// LaunchBounded takes a slot of a shared semaphore: waiting for it is the
// bound, not a queue.
func (w *DefaultWorker) LaunchBounded(c Campaign) { // want LaunchBounded:"takesSlot" LaunchBounded:"parksOnSend\\(w.sem\\)"
	w.sem <- struct{}{}
	defer func() { <-w.sem }()
}
