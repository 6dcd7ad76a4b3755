// Package fixedsets holds fan-outs over lists fixed when the process
// starts (by configuration, by the code that calls with a written-out
// list) and the look-alikes whose lists a request fills.
package fixedsets

import (
	"context"
	"net/http"
	"sync"

	"example.com/gossip/memberlist"
	"example.com/routing/config"
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

// ---- a field filled from values of a configuration package's type ----

type inhibitRule struct{ target string }

func newInhibitRule(cr config.InhibitRule) *inhibitRule { return &inhibitRule{target: cr.TargetURL} }

type Inhibitor struct{ rules []*inhibitRule }

// NewInhibitor builds one rule per inhibition rule of the configuration
// (alertmanager's NewInhibitor(rs []config.InhibitRule)): as many as the
// operator wrote, however the constructor is named or its parameter.
func NewInhibitor(rs []config.InhibitRule) *Inhibitor {
	ih := &Inhibitor{}
	for _, cr := range rs {
		r := newInhibitRule(cr)
		ih.rules = append(ih.rules, r)
	}
	return ih
}

// Run: one goroutine per configured rule.
func (ih *Inhibitor) Run(ctx context.Context) {
	for _, r := range ih.rules {
		go post(ctx, r.target)
	}
}

type targetsRequest struct{ Targets []string }

type Prober struct{ targets []*inhibitRule }

// Load fills the same kind of field from a request's body: input.
func (p *Prober) Load(w http.ResponseWriter, r *http.Request) {
	var req targetsRequest
	for _, t := range req.Targets {
		p.targets = append(p.targets, &inhibitRule{target: t})
	}
}

func (p *Prober) Run(ctx context.Context) {
	for _, t := range p.targets {
		go post(ctx, t.target) // want `goroutine per item: this go statement starts one goroutine for every element of p.targets`
	}
}

// ---- a list of stages: behaviours the code assembled, not data ----

type Stage interface {
	Exec(ctx context.Context) error // want Exec:"waitsOnNetwork"
}

type webhookStage struct{ url string }

func (w webhookStage) Exec(ctx context.Context) error { return post(ctx, w.url) } // want Exec:"waitsOnNetwork"

// FanoutStage runs its stages at once (alertmanager's notify pipeline): as
// many goroutines as stages the pipeline was built with.
type FanoutStage []Stage

func (fs FanoutStage) Exec(ctx context.Context) error {
	var wg sync.WaitGroup
	for _, s := range fs {
		wg.Add(1)
		go func(s Stage) {
			defer wg.Done()
			_ = s.Exec(ctx)
		}(s)
	}
	wg.Wait()
	return nil
}

// An unnamed slice of an interface may hold entities: here one client per
// connection, as many as connect.
type Client interface {
	Send(ctx context.Context) error // want Send:"waitsOnNetwork"
}

type conn struct{ url string }

func (c conn) Send(ctx context.Context) error { return post(ctx, c.url) } // want Send:"waitsOnNetwork"

type Broker2 struct{ clients []Client }

func (b *Broker2) Connect(w http.ResponseWriter, r *http.Request) {
	b.clients = append(b.clients, conn{url: r.FormValue("url")})
}

func (b *Broker2) Flush(ctx context.Context) {
	for _, c := range b.clients {
		go c.Send(ctx) // want `goroutine per item: this go statement starts one goroutine for every element of b.clients`
	}
}

// A map of the same interface is keyed by something: here one entry per
// subscriber a request registered.
type Hub struct{ subscribers map[string]Stage }

func (h *Hub) Register(w http.ResponseWriter, r *http.Request) {
	h.subscribers[r.FormValue("id")] = webhookStage{url: r.FormValue("url")}
}

func (h *Hub) Broadcast(ctx context.Context) {
	for _, s := range h.subscribers {
		go s.Exec(ctx) // want `goroutine per item: this go statement starts one goroutine for every element of h.subscribers`
	}
}

// ---- the cluster's members, from a func field ----

type Channel struct {
	peers   func() []*memberlist.Node
	clients func() []*client
}

type client struct{ addr string }

// sendOversize: one goroutine per member of the gossip cluster, as many as
// its operator runs (alertmanager's handleOverSizedMessages).
func (c *Channel) sendOversize(ctx context.Context) {
	for _, n := range c.peers() {
		go post(ctx, n.Addr)
	}
}

// The same shape over the clients a func field lists is data.
func (c *Channel) sendClients(ctx context.Context) {
	for _, cl := range c.clients() {
		go post(ctx, cl.addr) // want `goroutine per item: this go statement starts one goroutine for every element of c.clients\(\)`
	}
}

// ---- a module the framework configures through a handle ----

// Blocklists is a module configured once, when the process reads its
// configuration (maddy's DNSBL).
type Blocklists struct {
	inline []string
	zones  []string
}

// Init is handed the configuration: it runs when the process is
// configured, whatever its name or receiver. One test goroutine per
// configured zone.
func (b *Blocklists) Init(cfg *config.Map) error {
	nodes, err := cfg.Process()
	if err != nil {
		return err
	}
	for _, z := range b.inline {
		go post(context.Background(), z)
		b.zones = append(b.zones, z)
	}
	for _, n := range nodes {
		b.readZone(n)
	}
	return nil
}

// readZone parses one block of the configuration.
func (b *Blocklists) readZone(node config.Node) {
	for _, z := range append([]string{node.Name}, node.Args...) {
		go post(context.Background(), z)
		b.zones = append(b.zones, z)
	}
}

// Check runs per message over the zones only configuration code fills.
func (b *Blocklists) Check(ctx context.Context) {
	for _, z := range b.zones {
		go post(ctx, z)
	}
}

// Reconfigure is handed a context as well: a caller that may come once per
// request, so its list is input.
func (b *Blocklists) Reconfigure(ctx context.Context, cfg *config.Map, extra []string) {
	for _, z := range extra {
		go post(ctx, z) // want `goroutine per item: this go statement starts one goroutine for every element of extra`
	}
}

// ---- a map set from configuration, then added to by index ----

type RouterConfig struct{ Routes map[string]string }

type Router struct{ routes map[string]string }

// NewRouter copies the configured routes.
func NewRouter(config RouterConfig) *Router { return &Router{routes: config.Routes} }

// AddRoute adds a request's route to that map: an index assignment is a
// write, and this one grows the map per request.
func (rt *Router) AddRoute(w http.ResponseWriter, r *http.Request) {
	rt.routes[r.FormValue("name")] = r.FormValue("url")
}

func (rt *Router) pingRoutes(ctx context.Context) {
	for _, u := range rt.routes {
		go post(ctx, u) // want `goroutine per item: this go statement starts one goroutine for every element of rt.routes`
	}
}

type Mirrors struct{ urls map[string]string }

// NewMirrors fills its map entry by entry from the configuration: as many
// entries as the operator listed.
func NewMirrors(config RouterConfig) *Mirrors {
	m := &Mirrors{urls: map[string]string{}}
	for name, url := range config.Routes {
		m.urls[name] = url
	}
	return m
}

// boundedByConfiguredMirrors: one goroutine per configured mirror.
func (m *Mirrors) boundedByConfiguredMirrors(ctx context.Context) {
	for _, u := range m.urls {
		go post(ctx, u)
	}
}
