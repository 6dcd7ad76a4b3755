package fanout

import (
	"net/http"

	"golang.org/x/sync/errgroup"

	"example.com/chansem"
	"example.com/jobqueue"
	"example.com/sizedwg"
)

// After tusd's S3 store: parts are uploaded by an errgroup with no limit,
// but the loop takes a slot of the store's semaphore, through a wrapper of
// its Acquire (acquiresSlot, transitive), before each start, and each
// goroutine releases it: bounded, silent.
type partStore struct{ uploads chansem.Semaphore }

func (s *partStore) acquire() { s.uploads.Acquire() } // want acquire:"acquiresSlot" acquire:"takesSlot"

func (s *partStore) release() { s.uploads.Release() }

func (s *partStore) uploadParts(parts <-chan string) error { // want uploadParts:"waitsOnNetwork"
	var eg errgroup.Group
	for {
		s.acquire()
		part, more := <-parts
		if !more {
			s.release()
			break
		}
		eg.Go(func() error {
			defer s.release()
			_, err := http.Post("http://s3/"+part, "application/octet-stream", nil)
			return err
		})
	}
	return eg.Wait()
}

// acquireAndRelease gives its slot back before returning: no acquire for
// its caller, and a loop that calls it first is not bounded by it.
func (s *partStore) acquireAndRelease() {
	s.uploads.Acquire()
	s.uploads.Release()
}

func (s *partStore) uploadPartsUnbounded(parts <-chan string) error { // want uploadPartsUnbounded:"waitsOnNetwork"
	var eg errgroup.Group
	for part := range parts {
		s.acquireAndRelease()
		eg.Go(func() error { // want `errgroup without a limit`
			_, err := http.Post("http://s3/"+part, "application/octet-stream", nil)
			return err
		})
	}
	return eg.Wait()
}

// After atlantis's project command pool: a sized wait group's Add takes a
// token of the channel field its Done drains (acquiresSlot on a struct
// semaphore) before each start: bounded, silent.
func runProjects(cmds []string) { // want runProjects:"acquiresSlot" runProjects:"takesSlot"
	wg := sizedwg.New(4)
	for _, c := range cmds {
		wg.Add()
		go func() {
			defer wg.Done()
			http.Get("http://runner/" + c)
		}()
	}
	wg.Wait()
}

// A queue's Submit sends the job into a field the worker reads and uses:
// no slot, and the goroutines are one per item.
func submitEach(q *jobqueue.Queue, items []string) {
	for _, it := range items {
		q.Submit(it)
		go func() { // want `goroutine per item`
			http.Get("http://x/" + it)
		}()
	}
}
