// Package svc is the service layer between the handlers and the queue: it
// hands each new answer's notification to the queue.
package svc

import (
	"context"

	"example.com/queuesend/noticeq"
)

type AnswerService struct {
	Log     noticeq.Logger
	Notices noticeq.Queue
	Ctx     *noticeq.CtxQueue
	Waker   *noticeq.Waker
	Counter *noticeq.Counter
}

func (s *AnswerService) Add(ctx context.Context, body string) { // want Add:"parksOnSend\\(q.ch via \\(noticeq.Queue\\).Send\\)"
	s.Notices.Send(ctx, &noticeq.Msg{To: "asker", Body: body})
}

func (s *AnswerService) AddCtx(ctx context.Context, body string) {
	_ = s.Ctx.Send(ctx, &noticeq.Msg{To: "asker", Body: body})
}

// Trap: the logger's test double queues; the production one does not, and
// which is wired in is not this package's to know.
func (s *AnswerService) Note(msg string) { // want Note:"parksOnSend\\(m.msgs via \\(noticeq.Logger\\).Info\\)"
	s.Log.Info(msg)
}

func (s *AnswerService) Touch() { // want Touch:"parksOnSend\\(w.wake via \\(\\*noticeq.Waker\\).Poke\\)"
	s.Waker.Poke()
	s.Counter.Hit("answer")
}

func (s *AnswerService) Announce(body string) { // want Announce:"parksOnSend\\(Created via noticeq.Announce\\)"
	noticeq.Announce(&noticeq.Msg{Body: body})
}

// Invite notifies each invitee in a goroutine of its own, on every call:
// the goroutine waits for the queue's consumer, and a request that
// reaches Invite leaves one more waiting.
func (s *AnswerService) Invite(ctx context.Context, ids []string) { // want Invite:"startsGoroutine" Invite:"detachesPerCall\\(svc.go:46\\)"
	go s.notifyInvitees(ctx, ids) // want `goroutine per request: this go statement starts a goroutine on every request that reaches it \(through \(\*svc.AnswerService\).Invite\), which waits for a consumer to take its value \(a send on q.ch \(through \(\*svc.AnswerService\).notifyInvitees\)\) with no deadline`
}

func (s *AnswerService) notifyInvitees(ctx context.Context, ids []string) { // want notifyInvitees:"parksOnSend\\(q.ch via \\(noticeq.Queue\\).Send\\)"
	for _, id := range ids {
		s.Notices.Send(ctx, &noticeq.Msg{To: id, Body: "invited"})
	}
}

// Traps: a goroutine whose send gives up with the context, and one that
// only signals.
func (s *AnswerService) InviteCtx(ctx context.Context, ids []string) { // want InviteCtx:"startsGoroutine"
	go s.AddCtx(ctx, "invited")
	go s.Waker.Poke()
}

// InviteAll does what Invite does from a function literal: its work parks on
// the queue as notifyInvitees does.
func (s *AnswerService) InviteAll(ctx context.Context, ids []string) { // want InviteAll:"startsGoroutine" InviteAll:"detachesPerCall\\(svc.go:65\\)"
	go func() { // want `goroutine per request: this go statement starts a goroutine on every request that reaches it \(through \(\*svc.AnswerService\).InviteAll\), which waits for a consumer to take its value \(a send on q.ch \(through \(noticeq.Queue\).Send\)\) with no deadline`
		for _, id := range ids {
			s.Notices.Send(ctx, &noticeq.Msg{To: id, Body: "invited"})
		}
	}()
}

// Traps: literals whose send gives up with the context, that only signal,
// or that hand the send to a literal of their own, which may never run.
func (s *AnswerService) InviteAllCtx(ctx context.Context, ids []string) { // want InviteAllCtx:"startsGoroutine"
	go func() {
		for range ids {
			s.AddCtx(ctx, "invited")
		}
		s.Waker.Poke()
		later := func() { s.Notices.Send(ctx, &noticeq.Msg{Body: "later"}) }
		_ = later
	}()
}
