// Package chansem is a semaphore written as a channel type: Acquire sends
// on the receiver, Release receives from it.
package chansem

type Semaphore chan struct{}

func New(n int) Semaphore { return make(chan struct{}, n) }

func (s Semaphore) Acquire() { // want Acquire:"acquiresSlot" Acquire:"takesSlot"
	s <- struct{}{}
}

func (s Semaphore) Release() {
	<-s
}
