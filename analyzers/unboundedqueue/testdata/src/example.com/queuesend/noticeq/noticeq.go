// Package noticeq is shaped as a notification queue behind an interface
// (apache/answer's notice_queue): Send hands the message to one consumer
// that delivers it, with no deadline on the send. Look-alikes: a Send that
// gives up with the caller's context, a wake-up signal of struct{}, an
// actor's mailbox whose loop only counts, and a channel the package makes
// for its importers to read.
package noticeq

import (
	"context"
	"net/smtp"
)

type Msg struct{ To, Body string }

type Queue interface {
	Send(ctx context.Context, m *Msg) // want Send:"parksOnSend\\(q.ch via \\(\\*noticeq.queue\\).Send\\)"
}

type queue struct {
	ch chan *Msg
}

func New() Queue { // want New:"startsGoroutine" New:"detachesPerCall\\(noticeq.go:26\\)"
	q := &queue{ch: make(chan *Msg, 128)}
	go q.work()
	return q
}

func (q *queue) Send(ctx context.Context, m *Msg) { // want Send:"parksOnSend\\(q.ch\\)"
	q.ch <- m // want `send with no deadline on every request: \(\*api.Handler\).PostAnswer reaches this send through \(\*svc.AnswerService\).Add and waits here until a consumer takes its value from q.ch`
}

func (q *queue) work() { // want work:"waitsOnNetwork"
	for m := range q.ch {
		_ = smtp.SendMail("mail:25", nil, "noreply", []string{m.To}, []byte(m.Body))
	}
}

// CtxQueue's Send gives up with the caller's context.
type CtxQueue struct{ ch chan *Msg }

func (q *CtxQueue) Send(ctx context.Context, m *Msg) error {
	select {
	case q.ch <- m:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Waker's Poke is a signal: struct{} carries no work to wait for.
type Waker struct{ wake chan struct{} }

func (w *Waker) Poke() { // want Poke:"parksOnSend\\(w.wake\\)"
	w.wake <- struct{}{}
}

func (w *Waker) Loop() { // want Loop:"waitsOnNetwork"
	for range w.wake {
		_ = smtp.SendMail("mail:25", nil, "noreply", nil, nil)
	}
}

// Counter is an actor: its loop only counts between receives.
type Counter struct {
	hits chan string
	n    map[string]int
}

func (c *Counter) Hit(path string) {
	c.hits <- path
}

func (c *Counter) Loop() {
	for p := range c.hits {
		c.n[p]++
	}
}

// Created is read by the program that imports the package, which this
// package cannot see.
var Created = make(chan *Msg)

func Announce(m *Msg) { // want Announce:"parksOnSend\\(Created\\)"
	Created <- m
}

// Logger has a production implementation that writes at once and a test
// double whose writes go to a channel the test reads.
type Logger interface {
	Info(msg string) // want Info:"parksOnSend\\(m.msgs via \\(\\*noticeq.mockLogger\\).Info\\)"
}

type stderrLogger struct{}

func (stderrLogger) Info(msg string) { println(msg) }

type mockLogger struct{ msgs chan string }

func (m *mockLogger) Info(msg string) { // want Info:"parksOnSend\\(m.msgs\\)"
	m.msgs <- msg
}
