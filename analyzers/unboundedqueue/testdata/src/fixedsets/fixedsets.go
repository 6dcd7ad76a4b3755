// Package fixedsets holds fan-outs over lists fixed when the process
// starts (by configuration, by the code that calls with a written-out
// list) and the look-alikes whose lists a request fills.
package fixedsets

import (
	"context"
	"net/http"
	"sync"
)

func post(ctx context.Context, url string) error { // want post:"waitsOnNetwork"
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// ---- a field set from configuration ----

type BrokerConfig struct{ Shards []string }

type Broker struct {
	shards []string
	subs   []string
}

// NewBroker copies the configured shards: as many as the operator listed.
func NewBroker(config BrokerConfig) *Broker {
	return &Broker{shards: config.Shards}
}

// fansOutOverConfiguredShards: one goroutine per shard the configuration
// names, set once when the broker is built.
func (b *Broker) fansOutOverConfiguredShards(ctx context.Context) {
	for _, s := range b.shards {
		go post(ctx, s)
	}
}

// Subscribe appends what a request asks for.
func (b *Broker) Subscribe(w http.ResponseWriter, r *http.Request) {
	b.subs = append(b.subs, r.FormValue("callback"))
}

// notifySubscribers fans out over a field every request appends to.
func (b *Broker) notifySubscribers(ctx context.Context) {
	for _, s := range b.subs {
		go post(ctx, s) // want `goroutine per item: this go statement starts one goroutine for every element of b.subs`
	}
}

// ---- a variadic list written out by its callers ----

type PauseResumer interface{ Pause(context.Context) error }

// fansOutOverWrittenArguments: one goroutine per PauseResumer its callers
// list, argument by argument, joined before it returns.
func fansOutOverWrittenArguments(ctx context.Context, prs ...PauseResumer) error {
	errs := make(chan error, len(prs))
	for _, p := range prs {
		go func(p PauseResumer) { errs <- p.Pause(ctx) }(p)
	}
	return nil
}

func pauseBoth(ctx context.Context, engine, app PauseResumer) error {
	return fansOutOverWrittenArguments(ctx, engine, app)
}

// notifyAll is handed a request's list with urls... below.
func notifyAll(ctx context.Context, urls ...string) {
	for _, u := range urls {
		go post(ctx, u) // want `goroutine per item: this go statement starts one goroutine for every element of urls`
	}
}

// Notify spreads the request's callbacks into notifyAll.
func Notify(w http.ResponseWriter, r *http.Request) {
	notifyAll(r.Context(), r.Form["callback"]...)
}

// ---- a field written where the struct is built, per request ----

type batch struct{ items []string }

func newBatch(items []string) *batch { return &batch{items: items} }

// run fans out over whatever the batch was built with.
func (b *batch) run(ctx context.Context) {
	var wg sync.WaitGroup
	for _, it := range b.items {
		wg.Add(1)
		go func() { // want `goroutine per item: this go statement starts one goroutine for every element of b.items`
			defer wg.Done()
			post(ctx, it)
		}()
	}
}

// Handle builds a batch from the request.
func Handle(w http.ResponseWriter, r *http.Request) {
	newBatch(r.Form["item"]).run(r.Context())
}
