package fanout

import (
	"context"
	"database/sql"
	"log/slog"
	"sync"

	"asyncpost"
	"example.com/cluster/membership"
	"iolimit"

	"github.com/bhlint/bhlint/bulkhead"
	"github.com/jackc/pgx/v5"
	"golang.org/x/sync/errgroup"
	"golang.org/x/sync/semaphore"
)

type Order struct{ ID string }

// sink delivers notifications; a call through it may wait on anything, so
// a goroutine running notify can pile up.
var sink interface {
	Notify(context.Context, Order) error
}

func notify(ctx context.Context, o Order) error { return sink.Notify(ctx, o) }

// ---- shape 1: goroutine per item ----

func goroutinePerOrder(ctx context.Context, orders []Order) {
	var wg sync.WaitGroup
	for _, o := range orders {
		wg.Add(1)
		go func() { // want `ERR_UNBOUNDED_QUEUE_DETECTED: goroutine per item: this go statement starts one goroutine for every element of orders, with nothing bounding how many run at once; take a slot`
			defer wg.Done()
			notify(ctx, o)
		}()
	}
	wg.Wait()
}

func goroutinePerJob(ctx context.Context, jobs <-chan Order) {
	for o := range jobs {
		go notify(ctx, o) // want `goroutine per item: this go statement starts one goroutine for every value received from jobs`
	}
}

func goroutinePerRow(ctx context.Context, rows *sql.Rows) {
	for rows.Next() {
		var o Order
		rows.Scan(&o.ID)
		go notify(ctx, o) // want `goroutine per item: .* every row of rows`
	}
}

func goroutinePerPgxRow(ctx context.Context, rows pgx.Rows) {
	for rows.Next() {
		go notify(ctx, Order{}) // want `every row of rows`
	}
}

// recordIter is a store's own cursor (a key-value store's iterator over
// its records): each round of Next is one more stored record.
type recordIter struct{ left []Order }

func (it *recordIter) Next() bool   { return len(it.left) > 0 }
func (it *recordIter) Value() Order { o := it.left[0]; it.left = it.left[1:]; return o }

func goroutinePerStoredRecord(ctx context.Context, it *recordIter) {
	for it.Next() {
		o := it.Value()
		go notify(ctx, o) // want `goroutine per item: this go statement starts one goroutine for every item of it`
	}
}

// Trap: a slot taken before each start bounds the goroutines, whatever
// the cursor yields.
func slotPerStoredRecord(ctx context.Context, it *recordIter) {
	sem := make(chan struct{}, 10)
	for it.Next() {
		o := it.Value()
		sem <- struct{}{}
		go func() {
			defer func() { <-sem }()
			notify(ctx, o)
		}()
	}
}

func waitGroupGoPerOrder(ctx context.Context, orders map[string]Order) {
	var wg sync.WaitGroup
	for _, o := range orders {
		wg.Go(func() { notify(ctx, o) }) // want `goroutine per item: this \(\*sync.WaitGroup\).Go starts one goroutine for every element of orders`
	}
	wg.Wait()
}

func (s *sender) handle(ctx context.Context, o Order) { notify(ctx, o) }

type sender struct{}

func methodPerOrder(ctx context.Context, s *sender, orders []Order) {
	for _, o := range orders {
		go s.handle(ctx, o) // want `goroutine per item`
	}
}

// Traps: bounded fan-outs that must stay silent.

func loopOverConstantArray(ctx context.Context) {
	regions := [3]string{"eu", "us", "ap"}
	for _, r := range regions {
		go notify(ctx, Order{ID: r})
	}
	for _, r := range []string{"a", "b"} {
		go notify(ctx, Order{ID: r})
	}
}

func workerPoolByCountedLoop(ctx context.Context, jobs <-chan Order, workers int) {
	for i := 0; i < workers; i++ {
		go func() {
			for o := range jobs {
				notify(ctx, o)
			}
		}()
	}
	for range workers {
		go func() {}()
	}
}

func channelSemaphoreBeforeGo(ctx context.Context, orders []Order) {
	sem := make(chan struct{}, 10)
	for _, o := range orders {
		sem <- struct{}{}
		go func() {
			defer func() { <-sem }()
			notify(ctx, o)
		}()
	}
}

// A slot taken inside the goroutine bounds the notifications that run, not
// the goroutines: every order's waits for its token, holding the order.
func channelSemaphoreInsideGoroutine(ctx context.Context, orders []Order) {
	sem := make(chan struct{}, 10)
	for _, o := range orders {
		go func() { // want `goroutine per item: this go statement starts one goroutine for every element of orders`
			sem <- struct{}{}
			defer func() { <-sem }()
			notify(ctx, o)
		}()
	}
}

func weightedSemaphoreBeforeGo(ctx context.Context, orders []Order, sem *semaphore.Weighted) { // want weightedSemaphoreBeforeGo:"takesSlot"
	for _, o := range orders {
		if err := sem.Acquire(ctx, 1); err != nil {
			return
		}
		go func() {
			defer sem.Release(1)
			notify(ctx, o)
		}()
	}
}

type Webhooks struct{}

func (Webhooks) Spec() bulkhead.LaneSpec { return bulkhead.LaneSpec{MaxConcurrent: 10} }

func executorInsideGoroutine(ctx context.Context, orders []Order, ex *bulkhead.Executor[Webhooks]) {
	for _, o := range orders {
		go func() {
			_ = ex.Do(ctx, func(ctx context.Context) error { return notify(ctx, o) })
		}()
	}
}

func lengthCheckedBeforeLoop(ctx context.Context, orders []Order) {
	if len(orders) > 16 {
		return
	}
	for _, o := range orders {
		go notify(ctx, o)
	}
}

// ---- shape 2: errgroup without a limit ----

func errgroupPerOrder(ctx context.Context, orders []Order) error {
	g, ctx := errgroup.WithContext(ctx)
	for _, o := range orders {
		g.Go(func() error { return notify(ctx, o) }) // want `errgroup without a limit: g.Go runs once for every element of orders and g has no SetLimit before the loop, so every item runs at once; call g.SetLimit\(n\)`
	}
	return g.Wait()
}

func errgroupZeroValue(ctx context.Context, orders []Order) error {
	var g errgroup.Group
	for _, o := range orders {
		g.Go(func() error { return notify(ctx, o) }) // want `errgroup without a limit`
	}
	return g.Wait()
}

func errgroupLimitOnOnePath(ctx context.Context, orders []Order, small bool) error {
	g := new(errgroup.Group)
	if small {
		g.SetLimit(4)
	}
	for _, o := range orders {
		g.Go(func() error { return notify(ctx, o) }) // want `errgroup without a limit`
	}
	return g.Wait()
}

func errgroupNegativeLimit(ctx context.Context, orders []Order) error {
	g := &errgroup.Group{}
	g.SetLimit(-1)
	for _, o := range orders {
		g.Go(func() error { return notify(ctx, o) }) // want `errgroup without a limit`
	}
	return g.Wait()
}

// Traps.

func errgroupWithSetLimit(ctx context.Context, orders []Order) error {
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(8)
	for _, o := range orders {
		g.Go(func() error { return notify(ctx, o) })
	}
	return g.Wait()
}

func exactlyThreeGoCalls(ctx context.Context) error {
	g, ctx := errgroup.WithContext(ctx)
	g.Go(func() error { return notify(ctx, Order{ID: "auth"}) })
	g.Go(func() error { return notify(ctx, Order{ID: "fraud"}) })
	g.Go(func() error { return notify(ctx, Order{ID: "tax"}) })
	return g.Wait()
}

func groupFromCaller(ctx context.Context, g *errgroup.Group, orders []Order) {
	for _, o := range orders {
		g.Go(func() error { return notify(ctx, o) })
	}
}

// Trap: each goroutine waits for a slot of the semaphore with the caller's
// context, and the function waits for them all: the work runs under the
// semaphore's cap, and the waiting goroutines end with the call.
func semaphoreInsideGroupGo(ctx context.Context, orders []Order, sem *semaphore.Weighted) error {
	var g errgroup.Group
	for _, o := range orders {
		g.Go(func() error {
			if err := sem.Acquire(ctx, 1); err != nil {
				return err
			}
			defer sem.Release(1)
			return notify(ctx, o)
		})
	}
	return g.Wait()
}

// The same slot waited for by goroutines nothing joins: they pile up in the
// wait, each holding its order, after the function has returned.
func semaphoreInsideNotJoined(ctx context.Context, orders []Order, sem *semaphore.Weighted) {
	for _, o := range orders {
		go func() { // want `goroutine per item: this go statement starts one goroutine for every element of orders`
			if err := sem.Acquire(ctx, 1); err != nil {
				return
			}
			defer sem.Release(1)
			notify(ctx, o)
		}()
	}
}

// Trap: a request's fan-out under a server-wide semaphore, joined through
// the results channel the goroutines fill (closed once the WaitGroup is
// done).
func semaphoreInsideJoined(ctx context.Context, orders []Order, sem *semaphore.Weighted) int {
	results := make(chan error, len(orders))
	var wg sync.WaitGroup
	for _, o := range orders {
		wg.Go(func() {
			if err := sem.Acquire(ctx, 1); err != nil {
				results <- err
				return
			}
			defer sem.Release(1)
			results <- notify(ctx, o)
		})
	}
	go func() {
		wg.Wait()
		close(results)
	}()
	failed := 0
	for err := range results {
		if err != nil {
			failed++
		}
	}
	return failed
}

// Trap: each goroutine only tries for a slot and ends when none is free.
func slotTriedInsideGoroutine(ctx context.Context, orders []Order, sem *semaphore.Weighted) {
	for _, o := range orders {
		go func() {
			if !sem.TryAcquire(1) {
				return
			}
			defer sem.Release(1)
			notify(ctx, o)
		}()
	}
}

// Trap: the token is offered in a select with a default; no goroutine
// waits for it.
func tokenOfferedInsideGoroutine(ctx context.Context, orders []Order, sem chan struct{}) {
	for _, o := range orders {
		go func() {
			select {
			case sem <- struct{}{}:
			default:
				return
			}
			defer func() { <-sem }()
			notify(ctx, o)
		}()
	}
}

// admitter only tries for its slots.
type admitter struct{ slots *semaphore.Weighted }

func (a *admitter) admit() bool { return a.slots.TryAcquire(1) } // want admit:"takesSlot\\(tries\\)"

// Trap: the goroutine's first call only tries for a slot (a fact).
func slotTriedThroughCall(ctx context.Context, orders []Order, a *admitter) {
	for _, o := range orders {
		go func() {
			if !a.admit() {
				return
			}
			defer a.slots.Release(1)
			notify(ctx, o)
		}()
	}
}

// auditEvents is called with at most five events per request.
//
//bhlint:ignore ERR_UNBOUNDED_QUEUE_DETECTED the caller passes at most five events
func auditEvents(ctx context.Context, events []Order) {
	for _, e := range events {
		go notify(ctx, e)
	}
}

// Traps: the loop waits for what it started before the next item.

func oneAtATime(ctx context.Context, orders []Order) {
	for _, o := range orders {
		done := make(chan struct{})
		go func() {
			defer close(done)
			notify(ctx, o)
		}()
		<-done
	}
}

func inBatches(ctx context.Context, orders []Order) {
	var wg sync.WaitGroup
	for i, o := range orders {
		wg.Go(func() { notify(ctx, o) })
		if i%10 == 9 {
			wg.Wait()
		}
	}
	wg.Wait()
}

// Trap: hooks registered by code run once each at shutdown.
type Server struct{ onShutdown []func() }

func (s *Server) Shutdown() {
	for _, f := range s.onShutdown {
		go f()
	}
}

// goroutinePerFileBoundedInside: each goroutine takes an iolimit token
// before reading (a fact from another package): bounded, silent.
func goroutinePerFileBoundedInside(names []string) {
	for _, n := range names {
		go iolimit.ReadFile(n)
	}
}

// goroutinePerFileThatOnlySends: sending a result is not a limiter.
func goroutinePerFileThatOnlySends(names []string, out chan<- string) {
	for _, n := range names {
		go iolimit.Publish(out, n) // want `goroutine per item: this go statement starts one goroutine for every element of names`
	}
}

// ---- what sets the number of goroutines (issue 18) ----

// Trap, after hydra's test driver: a local list the code wrote ({pg, mysql,
// crdb}) is as fixed as a literal ranged over directly.
func fanOutOverFixedLocalList(ctx context.Context, pg, mysql, crdb Order) {
	dbs := []Order{pg, mysql, crdb}
	clean := func() {
		var wg sync.WaitGroup
		for _, db := range dbs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				notify(ctx, db)
			}()
		}
		wg.Wait()
	}
	clean()
}

// A local list that grows with the input is not fixed.
func fanOutOverLocalListAppended(ctx context.Context, in []Order) {
	list := []Order{}
	for _, o := range in {
		list = append(list, o)
	}
	for _, o := range list {
		go notify(ctx, o) // want `goroutine per item: this go statement starts one goroutine for every element of list`
	}
}

func chunk(orders []Order, size int) [][]Order { return nil }

// Trap, after pocketbase's realtime broadcast: one goroutine per chunk of
// 150 clients, each ranging over its chunk, all joined by group.Wait before
// the function returns.
func chunkedFanOutJoined(ctx context.Context, orders []Order) error {
	group := new(errgroup.Group)
	for _, part := range chunk(orders, 150) {
		group.Go(func() error {
			for _, o := range part {
				notify(ctx, o)
			}
			return nil
		})
	}
	return group.Wait()
}

// The same chunks, never waited for: the goroutines outlive the call, and
// calls pile them up.
func chunkedFanOutNotJoined(ctx context.Context, orders []Order) {
	for _, part := range chunk(orders, 150) {
		go func() { // want `goroutine per item: this go statement starts one goroutine for every element of chunk\(orders, 150\)`
			for _, o := range part {
				notify(ctx, o)
			}
		}()
	}
}

// Joined is not enough when each goroutine handles one item: a request with
// 10,000 orders still runs 10,000 at once.
func perItemJoined(ctx context.Context, orders []Order) {
	var wg sync.WaitGroup
	for _, o := range orders {
		wg.Add(1)
		go func() { // want `goroutine per item: this go statement starts one goroutine for every element of orders`
			defer wg.Done()
			notify(ctx, o)
		}()
	}
	wg.Wait()
}

// Trap, after openfga's ListUsers: one goroutine per operand only drains
// that operand's channel (the work runs in a bounded pool elsewhere), joined
// by wg.Wait.
func drainEachProducerJoined(results []chan Order) map[string]bool {
	var mu sync.Mutex
	seen := map[string]bool{}
	var wg sync.WaitGroup
	wg.Add(len(results))
	for _, ch := range results {
		go func(ch chan Order) {
			defer wg.Done()
			for o := range ch {
				mu.Lock()
				seen[o.ID] = true
				mu.Unlock()
			}
		}(ch)
	}
	wg.Wait()
	return seen
}

// A non-empty check is no cap (miniflux's edit-tag handler: the entries of
// the request, one goroutine each, behind len > 0).
func fanOutBehindNonEmptyCheck(ctx context.Context, starred []Order) {
	if len(starred) > 0 {
		for _, o := range starred {
			go notify(ctx, o) // want `goroutine per item: this go statement starts one goroutine for every element of starred`
		}
	}
}

// Nor is an emptiness test written the other way round.
func fanOutAfterEmptyReturn(ctx context.Context, starred []Order) {
	if len(starred) == 0 {
		return
	}
	for _, o := range starred {
		go notify(ctx, o) // want `goroutine per item`
	}
}

// A result or an error sent on a channel is not a semaphore's token: any
// number of goroutines send.
func errorSentIsNotASemaphore(ctx context.Context, orders []Order) error {
	errs := make(chan error, len(orders))
	for _, o := range orders {
		go func() { // want `goroutine per item: this go statement starts one goroutine for every element of orders`
			if err := notify(ctx, o); err != nil {
				errs <- err
			}
		}()
	}
	return <-errs
}

func counterSentIsNotASemaphore(ctx context.Context, orders []Order, seq chan int) {
	for i, o := range orders {
		seq <- i
		go notify(ctx, o) // want `goroutine per item`
	}
}

// A constant token on a channel is a semaphore.
func boolTokenSemaphore(ctx context.Context, orders []Order) {
	sem := make(chan bool, 8)
	for _, o := range orders {
		sem <- true
		go func() {
			defer func() { <-sem }()
			notify(ctx, o)
		}()
	}
}

// Nor one written against 1.
func fanOutBehindAtLeastOne(ctx context.Context, starred []Order) {
	if 1 <= len(starred) {
		for _, o := range starred {
			go notify(ctx, o) // want `goroutine per item`
		}
	}
}

const maxModules = 1

// Trap, after openfga's module authorization: the caller rejects more than
// a constant number (one) before calling the function that fans out.
func authorizeWrite(ctx context.Context, modules []Order) error {
	if len(modules) > maxModules {
		return context.Canceled
	}
	return authorizeModules(ctx, modules)
}

func authorizeModules(ctx context.Context, modules []Order) error {
	var wg sync.WaitGroup
	for _, m := range modules {
		wg.Add(1)
		go func() {
			defer wg.Done()
			notify(ctx, m)
		}()
	}
	wg.Wait()
	return nil
}

// One caller that does not cap is enough for the fan-out to be reported.
func notifyCapped(ctx context.Context, orders []Order) {
	if len(orders) > 16 {
		return
	}
	notifyAll(ctx, orders)
}

func notifyUncapped(ctx context.Context, orders []Order) { notifyAll(ctx, orders) }

func notifyAll(ctx context.Context, orders []Order) {
	for _, o := range orders {
		go notify(ctx, o) // want `goroutine per item`
	}
}

type Settings struct{ Peers []Order }

type registry struct{ cfg *Settings }

func (r *registry) Config() *Settings { return r.cfg }

// Trap, after hydra's JWKS endpoint: one goroutine per key set named in the
// configuration, a list set at start-up by whoever runs the service.
func perConfiguredKeySet(ctx context.Context, r *registry) {
	sets := r.Config().Peers
	done := make(chan error, len(sets))
	for _, s := range sets {
		go func() { done <- notify(ctx, s) }()
	}
	for range sets {
		<-done
	}
}

// A list from the request is input, even copied into a local.
func perRequestedKeySet(ctx context.Context, req struct{ Sets []Order }) {
	sets := req.Sets
	for _, s := range sets {
		go notify(ctx, s) // want `goroutine per item: this go statement starts one goroutine for every element of sets`
	}
}

func ping(ctx context.Context, addr string) bool { return true }

// Trap, after temporal's deep health check (frontend/health_check.go): one
// RPC per member host of the service ring, all answers received before it
// returns; the ring is as large as the operator runs the cluster, not input.
func deepHealthCheck(ctx context.Context, monitor membership.Monitor) int {
	resolver, err := monitor.GetResolver("history")
	if err != nil {
		return 0
	}
	hosts := resolver.AvailableMembers()
	if len(hosts) == 0 {
		return 0
	}
	answers := make(chan bool, len(hosts))
	for _, host := range hosts {
		go func(addr string) { answers <- ping(ctx, addr) }(host.GetAddress())
	}
	failed := 0
	for range hosts {
		if !<-answers {
			failed++
		}
	}
	return failed
}

type groupStore struct{}

func (groupStore) AvailableMembers(ctx context.Context, group string) []Order { return nil }

// The same shape over a group's members read from a store is data: as many
// goroutines as rows.
func notifyGroupMembers(ctx context.Context, st groupStore, group string) {
	members := st.AvailableMembers(ctx, group)
	for _, m := range members {
		go notify(ctx, m) // want `goroutine per item: this go statement starts one goroutine for every element of members`
	}
}

// ---- a goroutine started by a callee, once per item ----

// After memos' dispatchMemoRelatedWebhook: one PostAsync per webhook row of
// the user, each a goroutine doing an HTTP POST, nothing capping them.
func postToEachWebhook(hooks []asyncpost.Payload) {
	for _, h := range hooks {
		asyncpost.PostAsync(&h) // want `goroutine per item: this asyncpost.PostAsync call \(it starts a goroutine at asyncpost.go:\d+\) starts one goroutine for every element of hooks`
	}
}

// auditEachRole writes one audit line per role a request changed, each in
// a goroutine AuditAsync starts: the goroutines only log, so they end on
// their own however slow a dependency is. Silent.
func auditEachRole(roles []string) {
	for _, r := range roles {
		asyncpost.AuditAsync(r)
	}
}

// logEachItem: the same with the go statement in the loop. Silent.
func logEachItem(items []string) {
	for _, it := range items {
		go func() { slog.Info("item", "name", it) }()
	}
}

// After pocketbase's realtime broadcast: one FireAndForget per client.
func sendToEachClient(ctx context.Context, clients map[string]Order) {
	for _, cl := range clients {
		asyncpost.FireAndForget(func() { notify(ctx, cl) }) // want `goroutine per item: this asyncpost.FireAndForget call`
	}
}

// The work handed to FireAndForget waits for a slot first: the goroutines
// are not bounded by it.
func fireAndForgetWithSlot(ctx context.Context, clients []Order, sem chan struct{}) {
	for _, cl := range clients {
		asyncpost.FireAndForget(func() { // want `goroutine per item: this asyncpost.FireAndForget call`
			sem <- struct{}{}
			defer func() { <-sem }()
			notify(ctx, cl)
		})
	}
}

// Traps: callees that start one goroutine in all (sync.Once), hand the work
// to a bounded pool, take a slot inside their goroutine, wait for it, or
// start one only on some calls.
func postThroughBoundedCallees(d *asyncpost.Dispatcher, p *asyncpost.Pool, l *asyncpost.Limited, hooks []asyncpost.Payload) {
	for _, h := range hooks {
		d.Send(&h)
		p.Submit(func() { _ = asyncpost.Post(&h) })
		l.Go(func() { _ = asyncpost.Post(&h) })
		_ = asyncpost.PostWait(&h)
		asyncpost.PostMaybe(&h, false)
	}
}

// Trap: a go statement of the starter itself is the go statement's case,
// reported once, at the go statement.
func goPostAsync(hooks []asyncpost.Payload) {
	for _, h := range hooks {
		go asyncpost.PostAsync(&h) // want `goroutine per item: this go statement`
	}
}

// Trap: a fixed list of targets, as for a go statement.
func postToFixedTargets(a, b asyncpost.Payload) {
	for _, h := range []asyncpost.Payload{a, b} {
		asyncpost.PostAsync(&h)
	}
}

// Traps: a callee that starts its goroutines only on the first call (a
// guard that returns), and callees that hand back what joins their
// goroutine (a WaitGroup waited at once, a channel).
func startReceivers(rs []*asyncpost.Receiver, chans []<-chan *asyncpost.Payload) {
	for _, r := range rs {
		r.Start()
	}
	for _, ch := range chans {
		asyncpost.Drain(ch).Wait()
		asyncpost.Drain(asyncpost.Merge(chans))
	}
}

// ---- a reader per source: each goroutine loops for its source's life ----

type Shard struct{ events chan Order }

// readerPerShard: one long-lived reader per shard the code set up; the
// goroutines are as many as the shards, not as the events.
func readerPerShard(ctx context.Context, shards []*Shard) {
	for _, s := range shards {
		go func() {
			for e := range s.events {
				notify(ctx, e)
			}
		}()
	}
}

func (s *Shard) pump(ctx context.Context) {
	for {
		select {
		case e := <-s.events:
			notify(ctx, e)
		case <-ctx.Done():
			return
		}
	}
}

// pumpPerShardMethod: the same through a method that loops until the
// context ends.
func pumpPerShardMethod(ctx context.Context, shards map[string]*Shard) {
	for _, s := range shards {
		go s.pump(ctx)
	}
}

// next takes the shard's next event: it waits for one on every call.
func (s *Shard) next() (Order, bool) {
	e, ok := <-s.events
	return e, ok
}

// readerPerShardViaHelper: the reader loop takes each event through a
// helper that receives it; still one reader per shard. Silent.
func readerPerShardViaHelper(ctx context.Context, shards []*Shard) {
	for _, s := range shards {
		go func() {
			for {
				e, ok := s.next()
				if !ok {
					return
				}
				notify(ctx, e)
			}
		}()
	}
}

// tryNext takes an event if one is there, and does not wait.
func (s *Shard) tryNext() (Order, bool) {
	select {
	case e := <-s.events:
		return e, true
	default:
		return Order{}, false
	}
}

// drainPerOrder: each goroutine's loop polls without waiting and ends
// when the shard is empty: work per order, not a reader.
func drainPerOrder(ctx context.Context, s *Shard, batch []Order) {
	for range batch {
		go func() { // want `goroutine per item: this go statement starts one goroutine for every element of batch`
			for {
				e, ok := s.tryNext()
				if !ok {
					return
				}
				notify(ctx, e)
			}
		}()
	}
}

// sendPerEvent: the work returns after one send; one goroutine per event
// is work queued per input, whatever the events' source.
func sendPerEvent(ctx context.Context, s *Shard, batch []Order) {
	for _, e := range batch {
		go func() { // want `goroutine per item: this go statement starts one goroutine for every element of batch`
			s.events <- e
		}()
	}
}

// Trap: a range statement's expression runs once, before the first round:
// one Snapshot, one goroutine (ferretdb's telemetry over GetResponses()).
func sumSnapshot() int {
	n := 0
	for _, v := range asyncpost.Snapshot() {
		n += v
	}
	return n
}

// Trap: the channel is closed before the loop, which drains what is
// buffered and ends (maddy's pool clean-up of a stale key).
func closeAndDrain(ctx context.Context, idle chan Order) {
	close(idle)
	for o := range idle {
		go notify(ctx, o)
	}
}

// The same loop over a channel someone else closes, later: as many values
// as its producers send.
func drainOpen(ctx context.Context, idle chan Order) {
	for o := range idle {
		go notify(ctx, o) // want `goroutine per item: this go statement starts one goroutine for every value received from idle`
	}
}
