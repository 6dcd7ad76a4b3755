// Package svc is the service layer between the handlers and the queue: it
// hands each new answer's notification to the queue.
package svc

import (
	"context"

	"example.com/queuesend/noticeq"
)

type AnswerService struct {
	Notices noticeq.Queue
	Ctx     *noticeq.CtxQueue
	Waker   *noticeq.Waker
	Counter *noticeq.Counter
}

func (s *AnswerService) Add(ctx context.Context, body string) { // want Add:"parksOnSend\\(q.ch via \\(noticeq.Queue\\).Send\\)"
	s.Notices.Send(ctx, &noticeq.Msg{To: "asker", Body: body})
}

func (s *AnswerService) AddCtx(ctx context.Context, body string) {
	s.Ctx.Send(ctx, &noticeq.Msg{To: "asker", Body: body})
}

func (s *AnswerService) Touch() { // want Touch:"parksOnSend\\(w.wake via \\(\\*noticeq.Waker\\).Poke\\)"
	s.Waker.Poke()
	s.Counter.Hit("answer")
}

func (s *AnswerService) Announce(body string) { // want Announce:"parksOnSend\\(Created via noticeq.Announce\\)"
	noticeq.Announce(&noticeq.Msg{Body: body})
}
