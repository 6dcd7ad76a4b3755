package reach_test

import (
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/bhlint/bhlint/internal/lanes"
	"github.com/bhlint/bhlint/internal/reach"
	"github.com/bhlint/bhlint/internal/testpkgs"
)

// load computes the dependencies of the test packages as `bhlint lanes`
// does.
func load(t *testing.T, patterns ...string) map[string]lanes.Dependency {
	t.Helper()
	pkgs := testpkgs.Load(t, packages.LoadAllSyntax, patterns...)
	deps, err := reach.Dependencies(pkgs)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]lanes.Dependency{}
	for _, d := range deps {
		out[d.Name] = d
	}
	return out
}

func caller(d lanes.Dependency, entry string) (lanes.DepCaller, bool) {
	for _, c := range d.Callers {
		if c.Entry == entry {
			return c, true
		}
	}
	return lanes.DepCaller{}, false
}

func stalled(d lanes.Dependency) []string {
	var out []string
	for _, s := range d.Stalls {
		out = append(out, s.Entry)
	}
	slices.Sort(out)
	return out
}

func held(c lanes.DepCaller) []string {
	var out []string
	for _, h := range c.Held {
		out = append(out, h.Noun+" of "+h.Name)
	}
	return out
}

func TestDependencies(t *testing.T) {
	deps := load(t, "shop", "taxapi")
	names := slices.Sorted(func(yield func(string) bool) {
		for n := range deps {
			if !yield(n) {
				return
			}
		}
	})
	t.Logf("dependencies: %q", names)

	// The tax API, through the other package's client: reached inside InTx's
	// callback (a user's transaction helper) and inside checkout's own
	// transaction; every other user of the orders pool stalls.
	tax, ok := deps["taxapi.Client.http"]
	if !ok {
		t.Fatalf("no taxapi.Client.http among %q", names)
	}
	if tax.Noun != "HTTP client" || !strings.HasPrefix(tax.Pos, "taxapi.go:") {
		t.Errorf("tax API = %+v", tax)
	}
	q, ok := caller(tax, "shop.quote")
	if !ok {
		t.Fatalf("shop.quote does not call the tax API: %+v", tax.Callers)
	}
	if q.Class != "interactive" || !slices.Equal(held(q), []string{"transaction of shop.DB"}) {
		t.Errorf("quote's call: class %q, held %q; want interactive, the transaction of shop.DB", q.Class, held(q))
	}
	if want := "shop.quote → (*taxapi.Client).Quote → taxapi.Client.http"; q.Path != want {
		t.Errorf("quote's path = %q, want %q", q.Path, want)
	}
	if c, ok := caller(tax, "shop.checkout"); !ok || !slices.Equal(held(c), []string{"transaction of shop.DB"}) {
		t.Errorf("checkout's call on the tax API: %+v, want it holding the transaction of shop.DB", c)
	}
	if got := stalled(tax); !slices.Contains(got, "shop.browse") || slices.Contains(got, "shop.auditLoop") {
		t.Errorf("tax API stalls %q; want shop.browse (it needs shop.DB) and not the audit loop", got)
	}

	// Trap: the webhooks are called after the commit, through a helper
	// given the client: named in the caller, holding nothing.
	hooks, ok := deps["shop.Webhooks"]
	if !ok {
		t.Fatalf("no webhooks dependency among %q", names)
	}
	if c, ok := caller(hooks, "shop.checkout"); !ok || len(c.Held) != 0 {
		t.Errorf("webhooks' caller = %+v, want shop.checkout holding nothing (after the commit)", c)
	}
	if len(hooks.Stalls) != 0 {
		t.Errorf("webhooks stall %q, want nobody", stalled(hooks))
	}

	// Trap: the audit service is reached only from the background loop,
	// which holds a transaction of a pool no handler uses: no interactive
	// entry point stalls.
	audit, ok := deps["shop.Audit → audit.example.com"]
	if !ok {
		t.Fatalf("no audit dependency among %q", names)
	}
	if c, ok := caller(audit, "shop.auditLoop"); !ok || c.Class != "background" || !slices.Equal(held(c), []string{"transaction of shop.ReportsDB"}) {
		t.Errorf("audit's caller = %+v, want the background loop holding the reporting transaction", c)
	}
	if len(audit.Stalls) != 0 {
		t.Errorf("audit stalls %q, want nobody", stalled(audit))
	}

	// Trap: a call in a goroutine holds nothing of its parent's
	// transaction, and the parent does not wait on it.
	mail, ok := deps["shop.Webhooks → mail.example.com"]
	if c, found := caller(mail, "shop.signup"); !ok || !found || !c.Async || len(c.Held) != 0 || len(mail.Stalls) != 0 {
		t.Errorf("welcome mail = %+v, want shop.signup's call, in a goroutine, holding nothing, stalling nobody", mail)
	}

	// No entry point reaches the payment API: the handler nothing registers
	// where bhlint sees is listed instead, with what it holds, and stalls
	// nobody (it is not known to run).
	pay, ok := deps["shop.Handler.Pay → pay.example.com"]
	if c, found := caller(pay, "(*shop.Handler).ServeHTTP"); !ok || !found || !c.Root || !slices.Equal(held(c), []string{"transaction of shop.DB"}) || len(pay.Stalls) != 0 {
		t.Errorf("payment API = %+v, want the uncalled (*shop.Handler).ServeHTTP holding the transaction of shop.DB, stalling nobody", pay)
	}

	// Async through another package's function; a handler literal
	// registered in Main is its own entry point, not a call of Main.
	for _, c := range hooks.Callers {
		if c.Entry == "func literal in shop.Main" && !c.Async {
			t.Errorf("the refund handler's call through taxapi.PostAsync = %+v, want it async", c)
		}
		if c.Entry == "shop.Main" {
			t.Errorf("shop.Main listed as calling the webhooks: %+v", c)
		}
	}
	if _, ok := caller(hooks, "func literal in shop.Main"); !ok {
		t.Errorf("webhooks callers = %+v, want the refund handler (a func literal registered in Main)", hooks.Callers)
	}

	// A generated gRPC client's interface is the dependency, named by its
	// variable; so is a Redis client's.
	billing, ok := deps["shop.Billing"]
	if c, found := caller(billing, "shop.pay"); !ok || billing.Noun != "gRPC client" || !found || !slices.Equal(held(c), []string{"transaction of shop.DB"}) {
		t.Errorf("billing = %+v, want a gRPC client shop.pay calls holding the transaction of shop.DB", billing)
	}
	cache, ok := deps["shop.Cache"]
	if c, found := caller(cache, "shop.pay"); !ok || cache.Noun != "Redis client" || !found || len(c.Held) != 0 {
		t.Errorf("cache = %+v, want a Redis client shop.pay calls holding nothing", cache)
	}

	// Trap: a loop a request starts is part of the request.
	for _, c := range deps["shop.Audit → audit.example.com"].Callers {
		if strings.HasPrefix(c.Entry, "func literal in shop.export") {
			t.Errorf("a loop started by a request is a background entry point: %+v", c)
		}
	}
	if c, found := caller(deps["shop.Audit → audit.example.com"], "shop.export"); !found || !c.Async || c.Class != "interactive" {
		t.Errorf("the export loop's call = %+v, want it under shop.export, in a goroutine", c)
	}

	// A subprocess, named by its command.
	if conv, ok := deps["subprocess convert"]; !ok || len(conv.Callers) != 1 || conv.Callers[0].Entry != "shop.thumbnail" {
		t.Errorf("subprocess convert = %+v (among %q)", conv, names)
	}
}

// TestDeclaredLanes: a lane executor's slot is held inside Do, and its
// other users stall; once lanes are declared, the inferred entry points
// (the handlers) are left out.
func TestDeclaredLanes(t *testing.T) {
	// A lane executor's slot is held inside Do: the executor's other users
	// stall.
	deps := load(t, "laned")
	fraud, ok := deps["laned.Fraud → fraud.example.com"]
	if !ok {
		t.Fatalf("no fraud dependency among %v", deps)
	}
	c, ok := caller(fraud, "the func literal passed to (*bulkhead.Executor[L]).Do in laned.score")
	if !ok || c.Lane != "scoring" || !slices.Equal(held(c), []string{"executor slot of the executor of lane scoring"}) {
		t.Errorf("fraud's callers = %+v, want the func literal in score, lane scoring, holding a slot", fraud.Callers)
	}
	if got := stalled(fraud); !slices.Contains(got, "the func literal passed to (*bulkhead.Executor[L]).Do in laned.rescore") {
		t.Errorf("fraud stalls %q, want rescore's work (another user of the executor)", got)
	}

	if got := stalled(fraud); slices.Contains(got, "laned.score") {
		t.Errorf("fraud stalls %q: laned.score is the entry point that hands the caller to the executor", got)
	}
	for _, c := range fraud.Callers {
		if c.Class != "" {
			t.Errorf("inferred caller %+v despite declared lanes", c)
		}
	}
	ledger, ok := deps["laned.Ledger → ledger.example.com"]
	settle, found := caller(ledger, "laned.Settle")
	if !ok || !found || settle.Lane != "settlement" || len(settle.Held) != 0 {
		t.Errorf("ledger = %+v, want the declared entry laned.Settle holding nothing", ledger)
	}
	for _, c := range ledger.Callers {
		if c.Class != "" {
			t.Errorf("inferred caller %+v despite declared lanes", c)
		}
	}
	// A user's wrapper of Executor.Do: the work it runs holds a slot.
	refund, found := caller(ledger, "laned.Refund")
	if !found || !slices.Equal(held(refund), []string{"executor slot of the executor of lane scoring"}) {
		t.Errorf("laned.Refund's call = %+v, want it holding a slot of the scoring executor (through inScoring)", refund)
	}
}

// The text, JSON and DOT renderings of the dependencies.
func TestRender(t *testing.T) {
	deps := load(t, "shop", "taxapi")
	m := &lanes.Map{}
	for _, d := range deps {
		m.Dependencies = append(m.Dependencies, d)
	}
	lanes.SortDependencies(m.Dependencies)
	var text, js, dot strings.Builder
	if err := m.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if err := m.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	if err := m.WriteDOT(&dot); err != nil {
		t.Fatal(err)
	}
	t.Logf("text:\n%s\njson:\n%s\ndot:\n%s", text.String(), js.String(), dot.String())
}

// A lane declared in .bhlint.yml makes an entry point as a directive does.
func TestConfiguredLane(t *testing.T) {
	deps := load(t, "configured")
	gw, ok := deps["configured.Gateway → gateway.example.com"]
	if c, found := caller(gw, "configured.Charge"); !ok || !found || c.Lane != "billing" {
		t.Errorf("gateway = %+v, want configured.Charge of lane billing (from .bhlint.yml)", gw)
	}
}
