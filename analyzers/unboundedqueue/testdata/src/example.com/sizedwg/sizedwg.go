// Package sizedwg is a wait group with a size, after remeh/sizedwaitgroup:
// Add sends a token into a channel field that Done drains, a semaphore
// written as a struct.
package sizedwg

import (
	"context"
	"sync"
)

type SizedWaitGroup struct {
	current chan struct{}
	wg      sync.WaitGroup
}

func New(limit int) SizedWaitGroup {
	return SizedWaitGroup{current: make(chan struct{}, limit)}
}

func (s *SizedWaitGroup) Add() { s.AddWithContext(context.Background()) }

func (s *SizedWaitGroup) AddWithContext(ctx context.Context) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case s.current <- struct{}{}:
	}
	s.wg.Add(1)
	return nil
}

func (s *SizedWaitGroup) Done() {
	<-s.current
	s.wg.Done()
}

func (s *SizedWaitGroup) Wait() { s.wg.Wait() }
