package service

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// scoreQueue is the fraud lane's degradation: when the lane is
// full, the score is computed later by a fixed number of workers reading a
// bounded queue, and the caller is told pending_fraud. A full queue rejects.
type scoreQueue struct {
	s      *Server
	jobs   chan ScoreRequest
	stop   chan struct{}
	wg     sync.WaitGroup
	once   sync.Once
	scored atomic.Int64
	failed atomic.Int64
}

// asyncScoreTimeout bounds one queued score, as the sync path's deadline does.
const asyncScoreTimeout = 2 * time.Second

func newScoreQueue(s *Server, workers, capacity int) *scoreQueue {
	q := &scoreQueue{s: s, jobs: make(chan ScoreRequest, capacity), stop: make(chan struct{})}
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
			ctx, cancel := context.WithTimeout(context.Background(), asyncScoreTimeout)
			if _, err := q.s.scoreCard(ctx, req); err != nil {
				q.failed.Add(1)
			} else {
				q.scored.Add(1)
			}
			cancel()
		}
	}
}

// close stops the workers; jobs still queued are dropped (they are
// pending_fraud and will be rescored by the settlement batch).
func (q *scoreQueue) close() {
	q.once.Do(func() { close(q.stop) })
	q.wg.Wait()
}

func (q *scoreQueue) snapshot() QueueSnapshot {
	return QueueSnapshot{Len: len(q.jobs), Cap: cap(q.jobs), Scored: q.scored.Load(), Failed: q.failed.Load()}
}
