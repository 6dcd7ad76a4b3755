// Package batchsvc is shaped as readflow's article registry: creating one
// article starts, on every call, a goroutine that notifies the user's
// devices over HTTP with no deadline.
package batchsvc

import (
	"context"
	"net/http"
)

type Registry struct {
	Client *http.Client
	Slots  chan struct{}
	Quota  map[string]int
}

func (r *Registry) Create(ctx context.Context, url string) { // want Create:"detachesPerCall\\(batchsvc.go:21\\)"
	if r.Quota[url] > 100 {
		return // over the quota: state decides whether a goroutine starts
	}
	go func() { // want `goroutine per request: this go statement starts a goroutine on every request that reaches it \(through \(\*batchsvc.Registry\).CreateAll\)`
		resp, err := r.Client.Get(url)
		if err == nil {
			resp.Body.Close()
		}
	}()
}

// CreateAll creates each article of a batch: one goroutine per article.
func (r *Registry) CreateAll(ctx context.Context, urls []string) { // want CreateAll:"detachesPerCall\\(batchsvc.go:21\\)"
	for _, u := range urls {
		r.Create(ctx, u)
	}
}

// Trap: a slot is taken for each article before its goroutine starts.
func (r *Registry) CreateAllLimited(ctx context.Context, urls []string) { // want CreateAllLimited:"parksOnSend\\(r.Slots\\)"
	for _, u := range urls {
		r.Slots <- struct{}{}
		r.Create(ctx, u)
	}
}

// Object is read through the goroutine Open starts for it.
type Object struct {
	req chan int
	res chan []byte
}

// Open starts the goroutine that serves the object it returns (minio's
// GetObject): one per handle the caller holds, paced by its reads.
func (r *Registry) Open(ctx context.Context, url string) *Object {
	if r.Quota[url] > 100 {
		return nil
	}
	req, res := make(chan int), make(chan []byte)
	go func() {
		for range req {
			resp, err := r.Client.Get(url)
			if err != nil {
				close(res)
				return
			}
			resp.Body.Close()
			res <- nil
		}
	}()
	return &Object{req: req, res: res}
}

// Trap: each object is read to its end before the next is opened.
func (r *Registry) ReadAll(ctx context.Context, urls []string) { // want ReadAll:"parksOnSend\\(o.req\\)"
	for _, u := range urls {
		o := r.Open(ctx, u)
		if o == nil {
			continue
		}
		o.req <- 1
		<-o.res
	}
}
