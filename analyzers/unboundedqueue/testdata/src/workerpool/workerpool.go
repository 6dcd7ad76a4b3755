// Package workerpool is a fixed set of workers fed by an unbuffered
// channel, after miniflux's worker.Pool.
package workerpool

import (
	"context"
	"time"
)

type Job struct{ FeedID int64 }

type Pool struct {
	queue    chan Job
	shutdown chan struct{}
}

func New(workers int) *Pool {
	p := &Pool{queue: make(chan Job), shutdown: make(chan struct{})}
	for range workers {
		go p.run()
	}
	return p
}

func (p *Pool) run() {
	for range p.queue {
	}
}

// Push waits until a worker takes each job, or the pool shuts down.
func (p *Pool) Push(jobs []Job) { // want Push:"parksOnSend\\(p.queue\\)"
	for _, job := range jobs {
		select {
		case p.queue <- job:
		case <-p.shutdown:
			return
		}
	}
}

// Enqueue waits too: a plain send.
func (p *Pool) Enqueue(job Job) { // want Enqueue:"parksOnSend\\(p.queue\\)"
	p.queue <- job
}

// TryPush gives up when every worker is busy.
func (p *Pool) TryPush(job Job) bool {
	select {
	case p.queue <- job:
		return true
	default:
		return false
	}
}

// PushContext gives up when the caller's context ends.
func (p *Pool) PushContext(ctx context.Context, job Job) error {
	select {
	case p.queue <- job:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// PushWithin gives up after a while.
func (p *Pool) PushWithin(job Job, d time.Duration) bool {
	select {
	case p.queue <- job:
		return true
	case <-time.After(d):
		return false
	}
}

// Local sends on a channel of its own: it bounds only itself.
func Local(job Job) {
	ch := make(chan Job, 1)
	ch <- job
}
