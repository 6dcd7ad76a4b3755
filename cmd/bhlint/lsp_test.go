package main_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"
)

type pipes struct {
	io.ReadCloser
	io.WriteCloser
}

func (p pipes) Close() error { p.WriteCloser.Close(); return p.ReadCloser.Close() }

type lspPos struct{ Line, Character int }

type lspRange struct{ Start, End lspPos }

type lspDiag struct {
	Code               string            `json:"code"`
	Source             string            `json:"source"`
	Message            string            `json:"message"`
	Severity           int               `json:"severity"`
	Range              lspRange          `json:"range"`
	RelatedInformation []json.RawMessage `json:"relatedInformation"`
}

type publishParams struct {
	URI         string    `json:"uri"`
	Diagnostics []lspDiag `json:"diagnostics"`
}

type textEdit struct {
	Range   lspRange `json:"range"`
	NewText string   `json:"newText"`
	Snippet *struct {
		Kind  string `json:"kind"`
		Value string `json:"value"`
	} `json:"snippet"`
}

type codeAction struct {
	Title       string    `json:"title"`
	Kind        string    `json:"kind"`
	Diagnostics []lspDiag `json:"diagnostics"`
	Edit        struct {
		Changes         map[string][]textEdit `json:"changes"`
		DocumentChanges []struct {
			TextDocument struct {
				URI string `json:"uri"`
			} `json:"textDocument"`
			Edits []textEdit `json:"edits"`
		} `json:"documentChanges"`
	} `json:"edit"`
}

// lspClient is a real JSON-RPC client talking to `bhlint lsp` over stdio.
// It records what the server sends: diagnostics, log messages, progress,
// and the progress tokens it asked for.
type lspClient struct {
	t         *testing.T
	ctx       context.Context
	conn      *jsonrpc2.Conn
	cmd       *exec.Cmd
	published chan publishParams

	mu       sync.Mutex
	logs     []string // "type: message"
	progress []string // "kind: message"
	created  []string // tokens of window/workDoneProgress/create
}

func startLSP(t *testing.T, bin string, capabilities map[string]any) *lspClient {
	t.Helper()
	return startLSPWith(t, bin, map[string]any{"processId": nil, "rootUri": nil, "capabilities": capabilities})
}

// startLSPWith starts the server with these initialize parameters.
func startLSPWith(t *testing.T, bin string, initialize map[string]any) *lspClient {
	t.Helper()
	cmd := exec.Command(bin, "lsp")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	t.Cleanup(cancel)
	c := &lspClient{t: t, ctx: ctx, cmd: cmd, published: make(chan publishParams, 16)}
	handler := jsonrpc2.HandlerWithError(func(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
		var raw json.RawMessage
		if req.Params != nil {
			raw = *req.Params
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		switch req.Method {
		case "textDocument/publishDiagnostics":
			var p publishParams
			if err := json.Unmarshal(raw, &p); err == nil {
				c.published <- p
			}
		case "window/logMessage":
			var p struct {
				Type    int    `json:"type"`
				Message string `json:"message"`
			}
			json.Unmarshal(raw, &p)
			c.logs = append(c.logs, fmt.Sprintf("%d: %s", p.Type, p.Message))
		case "window/workDoneProgress/create":
			var p struct{ Token string }
			json.Unmarshal(raw, &p)
			c.created = append(c.created, p.Token)
		case "$/progress":
			var p struct {
				Token string
				Value struct{ Kind, Message string }
			}
			json.Unmarshal(raw, &p)
			if !slices.Contains(c.created, p.Token) {
				t.Errorf("$/progress with token %q, which the server never created", p.Token)
			}
			c.progress = append(c.progress, p.Value.Kind+": "+p.Value.Message)
		}
		return nil, nil
	})
	c.conn = jsonrpc2.NewConn(ctx, jsonrpc2.NewBufferedStream(pipes{stdout, stdin}, jsonrpc2.VSCodeObjectCodec{}), handler)
	var initResult struct {
		Capabilities map[string]any `json:"capabilities"`
	}
	if err := c.conn.Call(ctx, "initialize", initialize, &initResult); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	if initResult.Capabilities["textDocumentSync"] == nil || initResult.Capabilities["codeActionProvider"] == nil {
		t.Fatalf("initialize result lacks textDocumentSync or codeActionProvider: %+v", initResult)
	}
	c.conn.Notify(ctx, "initialized", map[string]any{})
	return c
}

// notifyAndWait sends didOpen or didSave for file and waits for the
// diagnostics published for it.
func (c *lspClient) notifyAndWait(method, file string) publishParams {
	c.t.Helper()
	uri := fileURI(file)
	doc := map[string]any{"uri": uri}
	if method == "textDocument/didOpen" {
		doc = map[string]any{"uri": uri, "languageId": "go", "version": 1, "text": ""}
	}
	c.conn.Notify(c.ctx, method, map[string]any{"textDocument": doc})
	for {
		select {
		case got := <-c.published:
			if got.URI == uri {
				return got
			}
		case <-c.ctx.Done():
			c.t.Fatalf("no publishDiagnostics for %s after %s", file, method)
		}
	}
}

func (c *lspClient) codeActions(file string, rng lspRange) []codeAction {
	c.t.Helper()
	var actions []codeAction
	err := c.conn.Call(c.ctx, "textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": fileURI(file)},
		"range":        rng,
		"context":      map[string]any{"diagnostics": []any{}},
	}, &actions)
	if err != nil {
		c.t.Fatalf("textDocument/codeAction: %v", err)
	}
	return actions
}

func (c *lspClient) recorded() (logs, progress, created []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.logs), slices.Clone(c.progress), slices.Clone(c.created)
}

// stop sends shutdown and exit and checks the server exits 0.
func (c *lspClient) stop() {
	c.t.Helper()
	if err := c.conn.Call(c.ctx, "shutdown", nil, nil); err != nil {
		c.t.Fatalf("shutdown: %v", err)
	}
	c.conn.Notify(c.ctx, "exit", nil)
	done := make(chan error, 1)
	go func() { done <- c.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			c.t.Fatalf("bhlint lsp exited with %v after shutdown/exit, want 0", err)
		}
	case <-c.ctx.Done():
		c.cmd.Process.Kill()
		c.t.Fatal("bhlint lsp did not exit after shutdown/exit")
	}
}

func fileURI(path string) string { return (&url.URL{Scheme: "file", Path: path}).String() }

// covered is the text of file a range covers (ASCII files: UTF-16 offsets
// are byte offsets).
func covered(t *testing.T, file string, r lspRange) string {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return string(src[offsetOf(string(src), r.Start):offsetOf(string(src), r.End)])
}

func offsetOf(src string, p lspPos) int {
	off := 0
	for range p.Line {
		off += strings.IndexByte(src[off:], '\n') + 1
	}
	return off + p.Character
}

// applyEdits applies LSP text edits to a file, last first.
func applyEdits(t *testing.T, file string, edits []textEdit, newText func(textEdit) string) {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	slices.SortFunc(edits, func(a, b textEdit) int { return offsetOf(s, b.Range.Start) - offsetOf(s, a.Range.Start) })
	for _, e := range edits {
		s = s[:offsetOf(s, e.Range.Start)] + newText(e) + s[offsetOf(s, e.Range.End):]
	}
	if err := os.WriteFile(file, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestLSP drives `bhlint lsp` (built once for all its parts) with real
// clients: a JSON-RPC client speaking the protocol, and Neovim's.
func TestLSP(t *testing.T) {
	bin := buildBhlint(t)
	t.Run("exchange", func(t *testing.T) { testLSPExchange(t, bin) })
	t.Run("code actions", func(t *testing.T) { testLSPCodeActions(t, bin) })
	t.Run("plain client", func(t *testing.T) { testLSPPlainClient(t, bin) })
	t.Run("neovim", func(t *testing.T) { testNeovim(t, bin) })
	t.Run("fleet and tenant checks", func(t *testing.T) { testLSPFleetAndTenant(t, bin) })
}

// testLSPFleetAndTenant: the probe, pool-budget and job-claim checks are
// published for the files that hold them, poolbudget's under the module's
// .bhlint.yml (testdata/e2e/tenancy). main.go is opened first, so the
// packages it imports have been vetted as its dependencies before they are
// opened (dependencies.go says why that once hid their findings).
func testLSPFleetAndTenant(t *testing.T, bin string) {
	c := startLSP(t, bin, map[string]any{})
	for _, fw := range [][2]string{
		{"main.go", "ERR_POOL_BUDGETS_EXCEED_DATABASE"},
		{"jobs/jobs.go", "ERR_FIFO_CLAIM_ACROSS_TENANTS"},
		{"api/api.go", "ERR_HEALTH_PROBE_SHARES_FAILURE_DOMAIN"},
	} {
		file, want := fw[0], fw[1]
		path, _ := filepath.Abs(filepath.Join("..", "..", "testdata", "e2e", "tenancy", file))
		got := c.notifyAndWait("textDocument/didOpen", path)
		if len(got.Diagnostics) != 1 || got.Diagnostics[0].Code != want {
			t.Errorf("%s: got %+v, want one %s", file, got.Diagnostics, want)
		}
	}
	c.stop()
}

// testLSPExchange: initialize, didOpen of a file with findings,
// publishDiagnostics whose ranges cover the offending calls, didSave,
// shutdown, exit — and the server exits 0.
func testLSPExchange(t *testing.T, bin string) {
	c := startLSP(t, bin, map[string]any{})
	file, _ := filepath.Abs(filepath.Join("..", "..", "testdata", "e2e", "heldconn", "store.go"))
	got := c.notifyAndWait("textDocument/didOpen", file)
	if len(got.Diagnostics) != 3 {
		t.Fatalf("got %d diagnostics for store.go, want 3 (the e2e expected.txt): %+v", len(got.Diagnostics), got.Diagnostics)
	}
	first := got.Diagnostics[0]
	if first.Code != "ERR_CONN_HELD_ACROSS_NETWORK_CALL" || first.Source != "bhlint/heldconn" || len(first.RelatedInformation) != 1 {
		t.Errorf("diagnostic = %+v; want the code, source bhlint/heldconn and the acquisition as related information", first)
	}
	// expected.txt has store.go:30:15, 53:13 and 86:16 (1-based); LSP is
	// 0-based. Each range covers the network call.
	want := map[int]string{29: "s.HC.Do(req)", 52: "http.Get(url)", 85: "http.Get(u)"}
	for _, d := range got.Diagnostics {
		if text, ok := want[d.Range.Start.Line]; !ok || covered(t, file, d.Range) != text {
			t.Errorf("diagnostic at %+v covers %q, want one of %v", d.Range, covered(t, file, d.Range), want)
		}
		delete(want, d.Range.Start.Line)
	}

	// On save the package is analysed again and published again.
	if saved := c.notifyAndWait("textDocument/didSave", file); len(saved.Diagnostics) != 3 {
		t.Errorf("after didSave: %d diagnostics, want 3", len(saved.Diagnostics))
	}
	c.stop()
}

// shedModule writes a module whose handler writes 503 without Retry-After.
// The nonce makes the file new to go vet's cache, so that go vet loads the
// package (and the server reports progress) whatever ran before.
func shedModule(t *testing.T) (dir, file string) {
	dir = t.TempDir()
	write(t, dir, "go.mod", "module example.com/shed\n\ngo 1.26\n")
	write(t, dir, "shed.go", fmt.Sprintf("// run %d\n", time.Now().UnixNano())+shedWithoutRetryAfter)
	return dir, filepath.Join(dir, "shed.go")
}

// testLSPCodeActions: for a client that shows progress and takes snippet
// edits, the first analysis reports progress and logs the package it
// loads; the suggested fix is a quick fix that, applied and saved, clears
// the finding; "suppress" is a snippet with a reason placeholder that,
// filled in and saved, suppresses it.
func testLSPCodeActions(t *testing.T, bin string) {
	c := startLSP(t, bin, map[string]any{
		"window":    map[string]any{"workDoneProgress": true},
		"workspace": map[string]any{"workspaceEdit": map[string]any{"snippetEditSupport": true, "documentChanges": true}},
	})
	_, file := shedModule(t)
	original, _ := os.ReadFile(file)
	got := c.notifyAndWait("textDocument/didOpen", file)
	if len(got.Diagnostics) != 1 || got.Diagnostics[0].Code != "ERR_MISSING_RETRY_AFTER" {
		t.Fatalf("diagnostics for shed.go = %+v, want one ERR_MISSING_RETRY_AFTER", got.Diagnostics)
	}
	diag := got.Diagnostics[0]
	if text := covered(t, file, diag.Range); text != "w.WriteHeader(http.StatusServiceUnavailable)" {
		t.Errorf("the diagnostic covers %q, want the WriteHeader call", text)
	}
	logs, progress, created := c.recorded()
	if len(created) != 1 || len(progress) < 3 || !strings.HasPrefix(progress[0], "begin: ") ||
		!strings.HasPrefix(progress[len(progress)-1], "end: 1 findings") ||
		!slices.ContainsFunc(progress, func(p string) bool {
			return strings.HasPrefix(p, "report: ") && strings.Contains(p, "example.com/shed")
		}) {
		t.Errorf("progress tokens %q, progress %q; want one token, begin, a report naming example.com/shed, end with the count", created, progress)
	}
	if !slices.Contains(logs, "4: bhlint: loading example.com/shed") {
		t.Errorf("log messages %q do not say that example.com/shed was loaded", logs)
	}

	actions := c.codeActions(file, lspRange{Start: diag.Range.Start, End: diag.Range.Start})
	if len(actions) != 2 {
		t.Fatalf("code actions = %+v, want the suggested fix and the suppression", actions)
	}
	fix, suppress := actions[0], actions[1]
	uri := fileURI(file)
	if fix.Kind != "quickfix" || !strings.Contains(fix.Title, "Retry-After") || len(fix.Edit.Changes[uri]) != 1 {
		t.Fatalf("fix action = %+v, want a quick fix setting Retry-After with one edit of %s", fix, uri)
	}
	applyEdits(t, file, fix.Edit.Changes[uri], func(e textEdit) string { return e.NewText })
	if after := c.notifyAndWait("textDocument/didSave", file); len(after.Diagnostics) != 0 {
		t.Errorf("after applying the quick fix and saving: %+v, want no diagnostics", after.Diagnostics)
	}

	if len(suppress.Edit.DocumentChanges) != 1 || len(suppress.Edit.DocumentChanges[0].Edits) != 1 {
		t.Fatalf("suppress action = %+v, want one snippet edit", suppress)
	}
	e := suppress.Edit.DocumentChanges[0].Edits[0]
	wantSnippet := "\t//bhlint:ignore ERR_MISSING_RETRY_AFTER ${1:reason}\n"
	if suppress.Kind != "quickfix" || e.Snippet == nil || e.Snippet.Kind != "snippet" || e.Snippet.Value != wantSnippet ||
		e.Range.Start != (lspPos{Line: diag.Range.Start.Line, Character: 0}) {
		t.Fatalf("suppress edit = %+v (snippet %+v), want the snippet %q at the start of line %d", e, e.Snippet, wantSnippet, diag.Range.Start.Line)
	}
	// Back to the file with the finding; the user types a reason over the
	// placeholder.
	if err := os.WriteFile(file, original, 0o644); err != nil {
		t.Fatal(err)
	}
	if again := c.notifyAndWait("textDocument/didSave", file); len(again.Diagnostics) != 1 {
		t.Fatalf("after restoring the file: %+v, want the finding back", again.Diagnostics)
	}
	applyEdits(t, file, []textEdit{e}, func(e textEdit) string {
		return strings.Replace(e.Snippet.Value, "${1:reason}", "the balancer retries elsewhere", 1)
	})
	if after := c.notifyAndWait("textDocument/didSave", file); len(after.Diagnostics) != 0 {
		src, _ := os.ReadFile(file)
		t.Errorf("after suppressing with a reason and saving: %+v, want no diagnostics; file:\n%s", after.Diagnostics, src)
	}
	c.stop()
}

// testLSPPlainClient: a client that announces neither progress nor snippet
// edits gets no progress, and a suppression without a reason, which does
// not suppress (the directive is reported until a reason is written). An
// error is logged once prefixed with "bhlint:".
func testLSPPlainClient(t *testing.T, bin string) {
	c := startLSP(t, bin, map[string]any{})
	_, file := shedModule(t)
	got := c.notifyAndWait("textDocument/didOpen", file)
	if len(got.Diagnostics) != 1 {
		t.Fatalf("diagnostics for shed.go = %+v, want one", got.Diagnostics)
	}
	if _, progress, created := c.recorded(); len(progress)+len(created) != 0 {
		t.Errorf("progress %q, tokens %q sent to a client without workDoneProgress", progress, created)
	}
	actions := c.codeActions(file, got.Diagnostics[0].Range)
	if len(actions) != 2 {
		t.Fatalf("code actions = %+v, want the fix and the suppression", actions)
	}
	uri := fileURI(file)
	edits := actions[1].Edit.Changes[uri]
	if len(edits) != 1 || edits[0].NewText != "\t//bhlint:ignore ERR_MISSING_RETRY_AFTER \n" {
		t.Fatalf("suppress action = %+v, want a plain edit adding the ignore without a reason", actions[1])
	}
	applyEdits(t, file, edits, func(e textEdit) string { return e.NewText })
	after := c.notifyAndWait("textDocument/didSave", file)
	var codes []string
	for _, d := range after.Diagnostics {
		codes = append(codes, d.Code)
	}
	slices.Sort(codes)
	if !slices.Equal(codes, []string{"ERR_MALFORMED_DIRECTIVE", "ERR_MISSING_RETRY_AFTER"}) {
		t.Errorf("after the reasonless ignore: codes %q, want the finding and the directive's own (it needs a reason)", codes)
	}

	// A bad .bhlint.yml: the error is logged, prefixed once.
	bad := t.TempDir()
	write(t, bad, "go.mod", "module example.com/bad\n\ngo 1.26\n")
	write(t, bad, ".bhlint.yml", "bogus: 1\n")
	write(t, bad, "bad.go", "package bad\n")
	c.notifyAndWait("textDocument/didOpen", filepath.Join(bad, "bad.go"))
	logs, _, _ := c.recorded()
	i := slices.IndexFunc(logs, func(l string) bool { return strings.HasPrefix(l, "1: ") && strings.Contains(l, "bogus") })
	if i < 0 || !strings.HasPrefix(logs[i], "1: bhlint: ") || strings.Contains(logs[i], "bhlint: bhlint:") {
		t.Errorf("logs %q: want one error naming the bad key, prefixed once with bhlint:", logs)
	}
	c.stop()
}

// TestLSPBaseline: with initializationOptions.baseline (relative to the
// workspace root), a finding the baseline holds is published as a hint
// that says so, and a new one in the same file as a warning.
func TestLSPBaseline(t *testing.T) {
	bin := buildBhlint(t)
	dir, file := shedModule(t)
	if _, stderr, code := run(t, dir, bin, "-write-baseline=bhlint-baseline.json", "./..."); code != 0 {
		t.Fatalf("-write-baseline: exit %d\n%s", code, stderr)
	}
	src, _ := os.ReadFile(file)
	second := strings.Replace(shedWithoutRetryAfter[strings.Index(shedWithoutRetryAfter, "func Shed"):], "func Shed", "func ShedAgain", 1)
	write(t, dir, "shed.go", string(src)+"\n"+second)
	c := startLSPWith(t, bin, map[string]any{"processId": nil, "rootUri": fileURI(dir), "capabilities": map[string]any{},
		"initializationOptions": map[string]any{"baseline": "bhlint-baseline.json"}})
	got := c.notifyAndWait("textDocument/didOpen", file)
	var severities []int
	for _, d := range got.Diagnostics {
		severities = append(severities, d.Severity)
		if d.Severity == 4 && !strings.HasSuffix(d.Message, "(held back by the baseline bhlint-baseline.json)") {
			t.Errorf("hint %q does not say the baseline holds it", d.Message)
		}
	}
	slices.Sort(severities)
	if !slices.Equal(severities, []int{2, 4}) {
		t.Errorf("severities %v, want the new finding as a warning (2) and the baselined one as a hint (4): %+v", severities, got.Diagnostics)
	}
	c.stop()
}
