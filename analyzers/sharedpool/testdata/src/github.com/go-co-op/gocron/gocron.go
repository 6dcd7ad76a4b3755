// Package gocron is a stub of github.com/go-co-op/gocron (v1).
package gocron

import "time"

type Scheduler struct{}
type Job struct{}

func NewScheduler(loc *time.Location) *Scheduler                                { return &Scheduler{} }
func (s *Scheduler) Every(interval interface{}) *Scheduler                      { return s }
func (s *Scheduler) Minute() *Scheduler                                         { return s }
func (s *Scheduler) Do(jobFun interface{}, params ...interface{}) (*Job, error) { return nil, nil }
func (s *Scheduler) StartAsync()                                                {}
