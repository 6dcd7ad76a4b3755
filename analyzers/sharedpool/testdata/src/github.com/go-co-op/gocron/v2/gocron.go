// Package gocron is a stub of github.com/go-co-op/gocron/v2.
package gocron

import "time"

type JobDefinition interface{}
type Task func() (any, []any)
type Job interface{ ID() string }
type JobOption func() error
type SchedulerOption func() error

type Scheduler interface {
	NewJob(JobDefinition, Task, ...JobOption) (Job, error)
	Start()
}

func NewScheduler(options ...SchedulerOption) (Scheduler, error) { return nil, nil }
func NewTask(function any, parameters ...any) Task               { return nil }
func DurationJob(duration time.Duration) JobDefinition           { return nil }
