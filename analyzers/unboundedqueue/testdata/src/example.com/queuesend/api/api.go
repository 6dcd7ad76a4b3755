// Package api registers the handlers: every request reaches the service's // want package:`noContextWaitsReported\(3\)`
// calls, and through them the queue's send.
package api

import (
	"context"
	"net/http"
	"time"

	"example.com/queuesend/svc"
	"example.com/queuesend/wire"
)

type Handler struct {
	Answers *svc.AnswerService
}

func (h *Handler) PostAnswer(w http.ResponseWriter, r *http.Request) { // want PostAnswer:"parksOnSend\\(q.ch via \\(\\*svc.AnswerService\\).Add\\)"
	h.Answers.Add(r.Context(), "new answer")
}

// A second handler reaching the same send: reported once.
func (h *Handler) EditAnswer(w http.ResponseWriter, r *http.Request) { // want EditAnswer:"parksOnSend\\(q.ch via \\(\\*svc.AnswerService\\).Add\\)"
	h.Answers.Add(r.Context(), "edited answer")
}

// Traps: the send gives up with the request; a signal; an actor; a channel
// for the importers.
func (h *Handler) PostAnswerCtx(w http.ResponseWriter, r *http.Request) { // want PostAnswerCtx:"parksOnSend\\(w.wake via \\(\\*svc.AnswerService\\).Touch\\)"
	h.Answers.AddCtx(r.Context(), "new answer")
	h.Answers.Touch()
	h.Answers.Announce("new answer")
	h.Answers.Note("new answer")
}

// Trap: no request's path; the digest job sends from the background.
func Digest(ctx context.Context, s *svc.AnswerService) { // want Digest:"parksOnSend\\(q.ch via \\(\\*svc.AnswerService\\).Add\\)"
	for range time.Tick(time.Hour) {
		s.Add(ctx, "digest")
	}
}

func (h *Handler) Invite(w http.ResponseWriter, r *http.Request) {
	h.Answers.Invite(r.Context(), []string{"a", "b"})
	h.Answers.InviteCtx(r.Context(), []string{"a", "b"})
	h.Answers.InviteAll(r.Context(), []string{"a", "b"})
	h.Answers.InviteAllCtx(r.Context(), []string{"a", "b"})
}

// Trap: a login dials its own connection, whose reader parks on that
// connection's own channel.
func (h *Handler) Login(w http.ResponseWriter, r *http.Request) { // want Login:"waitsOnNetwork"
	conn, err := wire.Dial("ldap:389")
	if err != nil {
		return
	}
	_ = conn
}

func Routes(h *Handler) *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("/answers", h.PostAnswer)
	mux.HandleFunc("/answers/edit", h.EditAnswer)
	mux.HandleFunc("/answers/ctx", h.PostAnswerCtx)
	mux.HandleFunc("/invite", h.Invite)
	mux.HandleFunc("/login", h.Login)
	return mux
}
