package service

import (
	"context"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"
)

// scoreQueue is the fraud lane's degradation: when the lane is full, its
// breaker is open or the fraud service fails, the caller is told
// pending_fraud and the score is computed later by a fixed number of
// workers reading a bounded queue. A full queue rejects (429).
//
// The workers call the fraud service only while the lane's breaker is
// closed (ready), and together at most drainRate scores a second, so after
// an outage the backlog drains at a limited rate instead of hitting a
// vendor that has just recovered with everything at once. A score whose
// call fails is retried (after a short backoff, and again only once the
// breaker is closed): a queued score is never dropped while the service
// runs. Jobs still queued when the service stops are counted as dropped.
type scoreQueue struct {
	s     *Server
	jobs  chan ScoreRequest
	stop  chan struct{}
	ready func() bool
	tick  *time.Ticker
	wg    sync.WaitGroup
	once  sync.Once

	queued  atomic.Int64 // accepted by offer
	scored  atomic.Int64 // scored and recorded
	failed  atomic.Int64 // failed attempts (each retried)
	dropped atomic.Int64 // given up on at shutdown
}

// asyncScoreTimeout bounds one queued score, as the sync path's deadline does.
const asyncScoreTimeout = 2 * time.Second

func newScoreQueue(s *Server, workers, capacity int, drainRate float64, ready func() bool) *scoreQueue {
	q := &scoreQueue{
		s: s, jobs: make(chan ScoreRequest, capacity), stop: make(chan struct{}), ready: ready,
		tick: time.NewTicker(time.Duration(float64(time.Second) / drainRate)),
	}
	for range workers {
		q.wg.Add(1)
		go q.work()
	}
	return q
}

// offer queues req if there is room, without waiting.
func (q *scoreQueue) offer(req ScoreRequest) bool {
	select {
	case q.jobs <- req:
		q.queued.Add(1)
		return true
	default:
		return false
	}
}

//bhlint:lane fraud
func (q *scoreQueue) work() {
	defer q.wg.Done()
	for {
		select {
		case <-q.stop:
			return
		case req := <-q.jobs:
			if !q.score(req) {
				q.dropped.Add(1)
				return
			}
		}
	}
}

// score scores req, retrying until it is done; false if the queue stopped first.
//
//bhlint:lane fraud
func (q *scoreQueue) score(req ScoreRequest) bool {
	backoff := 100 * time.Millisecond
	for {
		if !q.waitTurn() {
			return false
		}
		ctx, cancel := context.WithTimeout(context.Background(), asyncScoreTimeout)
		_, err := q.s.scoreCard(ctx, req)
		cancel()
		if err == nil {
			q.scored.Add(1)
			return true
		}
		q.failed.Add(1)
		// Full jitter, capped at 2 s: the retries of both workers do not
		// line up, and the breaker gate above stops them while it is open.
		if !q.sleep(rand.N(backoff) + time.Millisecond) {
			return false
		}
		backoff = min(2*backoff, 2*time.Second)
	}
}

// waitTurn waits until the breaker is closed and the drain rate allows one
// more call; false if the queue stopped first.
func (q *scoreQueue) waitTurn() bool {
	for !q.ready() {
		if !q.sleep(100 * time.Millisecond) {
			return false
		}
	}
	select {
	case <-q.stop:
		return false
	case <-q.tick.C:
		return true
	}
}

func (q *scoreQueue) sleep(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-q.stop:
		return false
	case <-t.C:
		return true
	}
}

// close stops the workers; jobs still queued are dropped (they are
// pending_fraud and will be rescored by the settlement batch) and counted.
func (q *scoreQueue) close() {
	q.once.Do(func() { close(q.stop) })
	q.wg.Wait()
	q.tick.Stop()
	q.dropped.Add(int64(len(q.jobs)))
}

func (q *scoreQueue) snapshot() QueueSnapshot {
	return QueueSnapshot{Len: len(q.jobs), Cap: cap(q.jobs), Queued: q.queued.Load(), Scored: q.scored.Load(),
		Failed: q.failed.Load(), Dropped: q.dropped.Load(), Ready: q.ready()}
}
