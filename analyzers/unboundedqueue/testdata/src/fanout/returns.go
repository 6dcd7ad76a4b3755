package fanout

import (
	"context"
	"net/http"
)

type pod struct {
	Name    string
	Running bool
}

type podLogs struct{ lines chan string }

// tail starts one goroutine per call (a fact its callers' loops read).
func (l *podLogs) tail(ctx context.Context, p pod) error { // want tail:"startsGoroutine"
	go func() {
		_ = notify(ctx, Order{ID: p.Name})
	}()
	return nil
}

// TailJobLogs ranges over a job's pods but returns on the first one it
// tails (after testkube's TailJobLogs): one goroutine per call, silent.
func (l *podLogs) TailJobLogs(w http.ResponseWriter, r *http.Request, pods []pod) error {
	for _, p := range pods {
		switch {
		case p.Running:
			return l.tail(r.Context(), p)
		default:
			if p.Name == "" {
				continue
			}
			return l.tail(r.Context(), p)
		}
	}
	return nil
}

// FirstOrder starts one notification and returns: silent.
func FirstOrder(w http.ResponseWriter, r *http.Request, orders []Order) {
	for _, o := range orders {
		go notify(r.Context(), o)
		return
	}
}

// SomeOrders returns only after the last order, and continues first: one
// goroutine per order, reported.
func SomeOrders(w http.ResponseWriter, r *http.Request, orders []Order) {
	for _, o := range orders {
		go notify(r.Context(), o) // want `goroutine per item: this go statement starts one goroutine for every element of orders`
		if o.ID != "" {
			continue
		}
		return
	}
}

// Informer runs until its stop channel closes, as Kubernetes' informers do.
type Informer interface {
	Run(stopCh <-chan struct{})
	Process(item string)
}

// StartInformers starts one runner per informer the caller built (one per
// watched namespace): each runs until stop closes, silent.
func StartInformers(informers []Informer, stop <-chan struct{}) {
	for _, inf := range informers {
		go inf.Run(stop)
	}
}

// ProcessAll starts one goroutine per item for the informers' work:
// reported.
func ProcessAll(inf Informer, items []string) {
	for _, it := range items {
		go inf.Process(it) // want `goroutine per item: this go statement starts one goroutine for every element of items`
	}
}
