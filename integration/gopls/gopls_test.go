package gopls_test

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

const (
	heldCode  = "ERR_CONN_HELD_ACROSS_NETWORK_CALL"
	retryCode = "ERR_MISSING_RETRY_AFTER"
)

// storeHeld holds a transaction across an HTTP call (heldconn) and sheds
// without Retry-After (retryafter, which offers a fix).
const storeHeld = `package shop

import (
	"context"
	"database/sql"
	"net/http"
)

// Pay records a payment.
func Pay(ctx context.Context, db *sql.DB, c *http.Client, req *http.Request) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if _, err := tx.ExecContext(ctx, "UPDATE orders SET paid = true"); err != nil {
		return err
	}
	return tx.Commit()
}

// Shed turns a request away.
func Shed(w http.ResponseWriter, r *http.Request) {
	w.WriteHeader(http.StatusServiceUnavailable)
}
`

// storeFixed makes the HTTP call before the transaction starts.
var storeFixed = strings.Replace(strings.Replace(storeHeld,
	"\tresp, err := c.Do(req)\n\tif err != nil {\n\t\treturn err\n\t}\n\tresp.Body.Close()\n", "", 1),
	"\ttx, err := db.BeginTx(ctx, nil)\n",
	"\tresp, err := c.Do(req)\n\tif err != nil {\n\t\treturn err\n\t}\n\tresp.Body.Close()\n\ttx, err := db.BeginTx(ctx, nil)\n", 1)

// workspace is a module where suppression, malformed directives and
// .bhlint.yml each have a finding or a silence that shows them working.
var workspace = map[string]string{
	"go.mod": "module example.com/shop\n\ngo 1.26\n",
	".bhlint.yml": `catalog:
  network-calls: ["(*example.com/shop/rpc.Client).Call"]   # Audit below holds a transaction across it
deploy:
  replicas: 4        # cmd/shop's two pools of 20, four times, are more than main allows
databases:
  main:
    max-connections: 100
    reserved: 3
`,
	"cmd/shop/main.go": `package main

import (
	"database/sql"
	"net/http"

	"example.com/shop"
)

func main() {
	orders, _ := sql.Open("postgres", "postgres://orders")
	orders.SetMaxOpenConns(20)
	reports, _ := sql.Open("postgres", "postgres://reports")
	reports.SetMaxOpenConns(20)
	go shop.Work(reports)
	http.ListenAndServe(":8080", shop.Routes(orders))
}
`,
	"probe.go": `package shop

import (
	"context"
	"database/sql"
	"net/http"
)

// Routes serves orders and a probe that pings the orders pool.
func Routes(db *sql.DB) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/orders", func(w http.ResponseWriter, r *http.Request) {
		db.QueryRowContext(r.Context(), "SELECT 1")
	})
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) {
		if db.PingContext(r.Context()) != nil {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	})
	return mux
}

const claim = "SELECT id, tenant_id FROM jobs WHERE status = 'queued' ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED"

// Work claims the oldest job of any tenant.
func Work(db *sql.DB) {
	var id, tenant int64
	db.QueryRowContext(context.Background(), claim).Scan(&id, &tenant)
}
`,
	"store.go": storeHeld,
	"ignores.go": `package shop

import (
	"context"
	"database/sql"
	"net/http"
)

// Notify is suppressed with a reason.
func Notify(ctx context.Context, db *sql.DB, c *http.Client, req *http.Request) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	resp, err := c.Do(req) //bhlint:ignore ERR_CONN_HELD_ACROSS_NETWORK_CALL loopback sidecar, 50 ms timeout
	if err != nil {
		return err
	}
	resp.Body.Close()
	return tx.Commit()
}

// Stale has an ignore that suppresses nothing.
//
//bhlint:ignore ERR_CONN_HELD_ACROSS_NETWORK_CALL left over from a refactor
func Stale() {}

//bhlint:ignore ERR_CONN_HELD_ACROSS_NETWORK_CALL
func noReason() {}

// Fanout starts a goroutine per item (unboundedqueue is on here).
func Fanout(items []string, f func(string)) {
	for _, it := range items {
		go f(it)
	}
}
`,
	"audit.go": `package shop

import (
	"context"
	"database/sql"

	"example.com/shop/rpc"
)

// Audit holds a transaction across a call .bhlint.yml names as network I/O.
func Audit(ctx context.Context, db *sql.DB, c *rpc.Client) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	c.Call("audit")
	return tx.Commit()
}
`,
	"rpc/rpc.go": "package rpc\n\n// Client is an in-house RPC client.\ntype Client struct{}\n\n// Call calls.\nfunc (*Client) Call(string) {}\n",
	// The same Fanout under a .bhlint.yml that turns unboundedqueue off.
	"fan/.bhlint.yml": "analyzers:\n  unboundedqueue: false\n",
	"fan/fan.go": `package fan

import "net/http"

// Fanout starts a goroutine per item; .bhlint.yml here turns unboundedqueue off.
func Fanout(items []string, f func(string)) {
	for _, it := range items {
		go f(it)
	}
}

// Shed turns a request away.
func Shed(w http.ResponseWriter, r *http.Request) {
	w.WriteHeader(http.StatusTooManyRequests)
}
`,
}

// TestGoplsWithBhlint opens a file with a transaction held across an HTTP
// call in a gopls built with bhlint's analyzers, fixes it in the buffer
// without saving, and asks for retryafter's fix as a code action.
func TestGoplsWithBhlint(t *testing.T) {
	bin := goplsBin(t)
	root := tempModule(t, workspace)
	c := start(t, root, nil, bin)
	uri := fileURI(filepath.Join(root, "store.go"))
	c.open(uri, storeHeld)

	opened := c.waitFor(uri, "a heldconn diagnostic after didOpen", func(p publish) bool {
		return len(p.bySource("heldconn")) > 0
	})
	held := opened.bySource("heldconn")[0]
	if held.Code != heldCode || held.Range.Start.Line != 15 || held.Severity != 2 ||
		!strings.HasPrefix(held.Message, heldCode+": transaction from (*sql.DB).BeginTx is still held during (*http.Client).Do") {
		t.Errorf("heldconn diagnostic = %+v; want code %s, a warning on line 16 (0-based 15), the message starting with the code", held, heldCode)
	}

	// Fix it in the buffer, unsaved: heldconn clears, retryafter's finding
	// (same file, untouched) shows the new version was analysed.
	sent := time.Now()
	c.change(uri, 2, storeFixed)
	fixed := c.waitFor(uri, "version 2 analysed (a retryafter diagnostic)", func(p publish) bool {
		return p.Version == 2 && len(p.bySource("retryafter")) > 0
	})
	t.Logf("didChange → diagnostics of the new version: %v", fixed.at.Sub(sent).Round(time.Millisecond))
	if got := fixed.bySource("heldconn"); len(got) > 0 {
		t.Errorf("after the fix (unsaved), heldconn still reports: %+v", got)
	}

	// retryafter's suggested fix is offered as a quick fix.
	shed := fixed.bySource("retryafter")[0]
	if shed.Code != retryCode {
		t.Errorf("retryafter diagnostic code = %q, want %s", shed.Code, retryCode)
	}
	var actions []struct {
		Title string          `json:"title"`
		Kind  string          `json:"kind"`
		Edit  json.RawMessage `json:"edit"`
	}
	var rng json.RawMessage
	{
		var d struct {
			Range json.RawMessage `json:"range"`
		}
		json.Unmarshal(shed.Raw, &d)
		rng = d.Range
	}
	if err := c.conn.Call(c.ctx, "textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": uri},
		"range":        rng,
		"context":      map[string]any{"diagnostics": []json.RawMessage{shed.Raw}, "only": []string{"quickfix"}},
	}, &actions); err != nil {
		t.Fatalf("codeAction: %v", err)
	}
	found := false
	for _, a := range actions {
		if a.Title == "set Retry-After: 5 before writing the status" && a.Kind == "quickfix" {
			found = true
			if !strings.Contains(string(a.Edit), `w.Header().Set(\"Retry-After\", \"5\")`) {
				t.Errorf("the quick fix's edit does not set Retry-After: %s", a.Edit)
			}
		}
	}
	if !found {
		t.Errorf("no quick fix \"set Retry-After: 5 before writing the status\" among %+v", actions)
	}
}

// TestSameFindingsAsBhlint opens every file of the workspace in gopls and
// checks that it publishes exactly what the bhlint command reports:
// suppressed findings silent, the stale ignore and the malformed directive
// reported with the same text, .bhlint.yml honoured per directory.
func TestSameFindingsAsBhlint(t *testing.T) {
	bin := goplsBin(t)
	root := tempModule(t, workspace)
	want := bhlintFindings(t, buildBhlint(t), root)
	for _, must := range []string{
		"ignores.go:26:1: " + heldCode + ": this //bhlint:ignore suppresses nothing",
		"ignores.go:29:1: ERR_MALFORMED_DIRECTIVE: //bhlint:ignore " + heldCode + " needs a reason",
		"ignores.go:35:3: ERR_UNBOUNDED_QUEUE_DETECTED",
		"audit.go:17:2: " + heldCode + ": transaction from (*sql.DB).BeginTx is still held during (*rpc.Client).Call",
		"fan/fan.go:14:2: " + retryCode,
		"probe.go:16:6: ERR_HEALTH_PROBE_SHARES_FAILURE_DOMAIN",
		"probe.go:23:15: ERR_FIFO_CLAIM_ACROSS_TENANTS",
		"cmd/shop/main.go:10:6: ERR_POOL_BUDGETS_EXCEED_DATABASE: 4 replicas",
	} {
		if !slices.ContainsFunc(want, func(s string) bool { return strings.HasPrefix(s, must) }) {
			t.Errorf("bhlint's own findings lack %q (the fixture no longer shows what it should):\n%s", must, strings.Join(want, "\n"))
		}
	}

	c := start(t, root, nil, bin)
	var got []string
	for _, name := range []string{"store.go", "ignores.go", "audit.go", "fan/fan.go", "probe.go", "cmd/shop/main.go"} {
		uri := fileURI(filepath.Join(root, name))
		c.open(uri, workspace[name])
		// Every file has a finding of bhlint's, so its analysed publish has one.
		p := c.waitFor(uri, "bhlint's findings", func(p publish) bool {
			return slices.ContainsFunc(p.Diagnostics, func(d diagnostic) bool { return strings.HasPrefix(d.Code, "ERR_") })
		})
		for _, d := range p.Diagnostics {
			if strings.HasPrefix(d.Code, "ERR_") {
				got = append(got, fmt.Sprintf("%s:%d:%d: %s (%s)", name, d.Range.Start.Line+1, d.Range.Start.Character+1, d.Message, d.Source))
			}
		}
	}
	slices.Sort(got)
	if slices.ContainsFunc(got, func(s string) bool { return strings.HasPrefix(s, "fan/fan.go:8:3: ERR_UNBOUNDED_QUEUE_DETECTED") }) {
		t.Errorf("gopls reported Fanout in fan/, where its .bhlint.yml turns unboundedqueue off")
	}
	if !slices.Equal(got, want) {
		t.Errorf("gopls published\n%s\n\nbhlint reports\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestAnalysesSetting turns heldconn off through gopls's own "analyses"
// setting: its finding goes, the other analyzers' stay.
func TestAnalysesSetting(t *testing.T) {
	bin := goplsBin(t)
	root := tempModule(t, workspace)
	c := start(t, root, map[string]any{"analyses": map[string]any{"heldconn": false}}, bin)
	uri := fileURI(filepath.Join(root, "store.go"))
	c.open(uri, storeHeld)
	p := c.waitFor(uri, "retryafter's finding", func(p publish) bool { return len(p.bySource("retryafter")) > 0 })
	if got := p.bySource("heldconn"); len(got) > 0 {
		t.Errorf(`"analyses": {"heldconn": false} did not turn heldconn off: %+v`, got)
	}
}

// bhlintFindings runs the bhlint command in dir and returns its findings as
// "file:line:col: CODE: message (analyzer)", sorted.
func bhlintFindings(t *testing.T, bhlint, dir string) []string {
	cmd := exec.Command(bhlint, "./...")
	cmd.Dir = dir
	out, err := cmd.Output()
	if e, ok := err.(*exec.ExitError); !ok || e.ExitCode() != 1 {
		t.Fatalf("bhlint ./...: %v, want exit 1 (findings)\n%s", err, out)
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if strings.Contains(l, ": ERR_") {
			lines = append(lines, l)
		}
	}
	slices.Sort(lines)
	return lines
}

// TestPaymentCoreCheck runs `gopls check` on every Go file of
// examples/payment-core and compares bhlint's findings in its output with
// the bhlint command's.
func TestPaymentCoreCheck(t *testing.T) {
	bin := goplsBin(t)
	dir, err := filepath.Abs(filepath.Join("..", "..", "examples", "payment-core"))
	if err != nil {
		t.Fatal(err)
	}
	want := bhlintFindings(t, buildBhlint(t), dir)
	for i, l := range want { // the analyzer's name: gopls check does not print it
		want[i] = l[:strings.LastIndex(l, " (")]
	}
	var files []string
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if d != nil && d.IsDir() && d.Name() == "testdata" {
			return filepath.SkipDir
		}
		if err == nil && strings.HasSuffix(path, ".go") {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, append([]string{"check"}, files...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("gopls check: %v\n%s", err, out)
	}
	// "/abs/file.go:L:C[-E]: CODE: message"; related positions ("- …") and
	// gopls's own analyzers are left out.
	pos := regexp.MustCompile(`^(.*?):(\d+):(\d+)(?:-[\d:]+)?: (ERR_.*)$`)
	var got []string
	for _, l := range strings.Split(string(out), "\n") {
		if m := pos.FindStringSubmatch(l); m != nil {
			rel, _ := filepath.Rel(dir, m[1])
			got = append(got, fmt.Sprintf("%s:%s:%s: %s", rel, m[2], m[3], m[4]))
		}
	}
	slices.Sort(got)
	got = slices.Compact(got) // a file in a package and its test variant
	if len(want) == 0 || !slices.Equal(got, want) {
		t.Errorf("gopls check reports\n%s\n\nbhlint reports\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestConfigEdit edits fan/.bhlint.yml while gopls runs: the next analysis
// follows it (gopls keeps analysis results by content, so the patch puts the
// package's .bhlint.yml in the key), and a file bhlint cannot use is an
// error on the package clause instead of silently turning the checks off.
func TestConfigEdit(t *testing.T) {
	bin := goplsBin(t)
	root := tempModule(t, workspace)
	c := start(t, root, nil, bin)
	uri := fileURI(filepath.Join(root, "fan", "fan.go"))
	text := workspace["fan/fan.go"]
	c.open(uri, text)
	p := c.waitFor(uri, "retryafter's finding", func(p publish) bool { return len(p.bySource("retryafter")) > 0 })
	if got := p.bySource("unboundedqueue"); len(got) > 0 {
		t.Errorf("unboundedqueue reported where fan/.bhlint.yml turns it off: %+v", got)
	}

	config := filepath.Join(root, "fan", ".bhlint.yml")
	writeFiles(t, root, map[string]string{"fan/.bhlint.yml": "analyzers:\n  unboundedqueue: true\n"})
	c.change(uri, 2, text+"// edited\n")
	c.waitFor(uri, "unboundedqueue's finding once .bhlint.yml turns it on", func(p publish) bool {
		return p.Version == 2 && len(p.bySource("unboundedqueue")) > 0 && len(p.bySource("retryafter")) > 0
	})

	writeFiles(t, root, map[string]string{"fan/.bhlint.yml": "analyzerz:\n  unboundedqueue: true\n"})
	c.change(uri, 3, text+"// edited again\n")
	p = c.waitFor(uri, "the broken .bhlint.yml reported", func(p publish) bool {
		return p.Version == 3 && len(p.bySource("bhlintconfig")) > 0
	})
	bad := p.bySource("bhlintconfig")[0]
	if bad.Severity != 1 || bad.Range.Start.Line != 0 ||
		!strings.Contains(bad.Message, config+`: line 1: unknown key "analyzerz"`) {
		t.Errorf("bhlintconfig diagnostic = %+v; want an error on the package clause naming %s, the line and the key", bad, config)
	}
	if got := p.bySource("retryafter", "unboundedqueue"); len(got) > 0 {
		t.Errorf("bhlint's analyzers reported under a .bhlint.yml that does not load: %+v", got)
	}
}
