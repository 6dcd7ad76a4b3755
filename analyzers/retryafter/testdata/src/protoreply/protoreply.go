// Package protoreply is a chat server that speaks its own protocol over a
// websocket, after tinode: a full queue refuses with a control message
// whose code is 503.
package protoreply

import (
	"net/http"
	"time"
)

type ClientMsg struct {
	ID    string
	Topic string
}

type Ctrl struct {
	ID         string
	Code       int
	Text       string
	RetryAfter time.Duration
}

type ServerMsg struct{ Ctrl *Ctrl }

// ErrUnavailableExplicit and ErrUnavailable build the 503 reply, the first
// by a literal, the second through the first.
func ErrUnavailableExplicit(id string) *ServerMsg {
	return &ServerMsg{Ctrl: &Ctrl{ID: id, Code: http.StatusServiceUnavailable, Text: "service unavailable"}}
}

func ErrUnavailable(msg *ClientMsg) *ServerMsg { return ErrUnavailableExplicit(msg.ID) }

func ErrTooMany(msg *ClientMsg) *ServerMsg {
	return &ServerMsg{Ctrl: &Ctrl{ID: msg.ID, Code: 429, Text: "too many requests"}}
}

// ErrUnavailableLater says when to come back.
func ErrUnavailableLater(msg *ClientMsg) *ServerMsg {
	return &ServerMsg{Ctrl: &Ctrl{ID: msg.ID, Code: http.StatusServiceUnavailable, RetryAfter: 5 * time.Second}}
}

func ErrMalformed(msg *ClientMsg) *ServerMsg {
	return &ServerMsg{Ctrl: &Ctrl{ID: msg.ID, Code: http.StatusBadRequest}}
}

type Session struct {
	out  chan *ServerMsg
	join chan *ClientMsg
	pub  chan *ClientMsg
}

func (s *Session) queueOut(m *ServerMsg) {
	select {
	case s.out <- m:
	default:
	}
}

// The sheds: the hub's queue is full and the client gets a 503 or a 429
// with no hint.
func (s *Session) subscribe(msg *ClientMsg) {
	select {
	case s.join <- msg:
	default:
		s.queueOut(ErrUnavailable(msg)) // want `ERR_MISSING_RETRY_AFTER: the queue is full and this refusal answers 503 Service Unavailable \(ErrUnavailable builds it\) with no retry hint`
	}
}

func (s *Session) publish(msg *ClientMsg) {
	select {
	case s.pub <- msg:
	default:
		s.queueOut(ErrTooMany(msg)) // want `answers 429 Too Many Requests \(ErrTooMany builds it\)`
	}
}

// Look-alikes: a shed whose reply says when to come back, a full queue
// answered with another status, a 503 outside any shed (a topic that is
// switched off), and a select that only receives.
func (s *Session) subscribeLater(msg *ClientMsg) {
	select {
	case s.join <- msg:
	default:
		s.queueOut(ErrUnavailableLater(msg))
	}
}

func (s *Session) publishMalformed(msg *ClientMsg) {
	select {
	case s.pub <- msg:
	default:
		s.queueOut(ErrMalformed(msg))
	}
}

func (s *Session) disabled(msg *ClientMsg) {
	s.queueOut(ErrUnavailable(msg))
}

func (s *Session) wait(msg *ClientMsg, done chan struct{}) {
	select {
	case <-done:
	default:
		s.queueOut(ErrUnavailable(msg))
	}
}
