// Package jobqueue hands jobs to a worker through a channel field: Submit
// sends a job in, the worker receives it and runs it. A queue, not a
// semaphore: what is sent is data, and what is received is used.
package jobqueue

type Queue struct{ jobs chan string }

func New() *Queue { return &Queue{jobs: make(chan string, 16)} }

func (q *Queue) Submit(job string) { q.jobs <- job }

func (q *Queue) Run(do func(string)) {
	for {
		job := <-q.jobs
		do(job)
	}
}
