package main_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"
)

// TestLSPConfigError: under the LSP server a bad .bhlint.yml is an error
// the user sees — a message, a diagnostic at the top of the document saying
// its package was not analysed, one on the configuration file's line — never
// an empty, clean-looking list; once fixed, the findings come back.
func TestLSPConfigError(t *testing.T) {
	t.Parallel()
	bin := buildBhlint(t)
	dir := t.TempDir()
	write(t, dir, "go.mod", "module example.com/lspcfg\n\ngo 1.26\n")
	write(t, dir, "quote.go", heldAcrossCall)
	write(t, dir, ".bhlint.yml", "analyzers:\n  heldconn: true\nbogus: 1\n")

	conn, published, shown, ctx := startConfigLSP(t, bin)
	uriOf := func(name string) string { return (&url.URL{Scheme: "file", Path: filepath.Join(dir, name)}).String() }
	// collect gathers publications until each of the files has one.
	collect := func(files ...string) map[string][]lspDiagnostic {
		got := map[string][]lspDiagnostic{}
		for {
			missing := false
			for _, f := range files {
				_, ok := got[uriOf(f)]
				missing = missing || !ok
			}
			if !missing {
				return got
			}
			select {
			case p := <-published:
				got[p.URI] = p.Diagnostics
			case <-ctx.Done():
				t.Fatalf("no diagnostics for all of %q; got %+v", files, got)
			}
		}
	}
	conn.Notify(ctx, "textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": uriOf("quote.go"), "languageId": "go", "version": 1, "text": "",
	}})
	got := collect("quote.go", ".bhlint.yml")
	doc, cfg := got[uriOf("quote.go")], got[uriOf(".bhlint.yml")]
	if len(doc) != 1 || doc[0].Severity != 1 || !strings.Contains(doc[0].Message, "not analysed") || !strings.Contains(doc[0].Message, `unknown key "bogus"`) {
		t.Errorf("quote.go: %+v; want one error saying the package was not analysed, and why", doc)
	}
	if len(cfg) != 1 || cfg[0].Range.Start.Line != 2 || !strings.Contains(cfg[0].Message, `unknown key "bogus"`) {
		t.Errorf(".bhlint.yml: %+v; want the error on its line 3 (LSP line 2)", cfg)
	}
	select {
	case msg := <-shown:
		if !strings.Contains(msg, ".bhlint.yml") {
			t.Errorf("window/showMessage %q does not name the file", msg)
		}
	default:
		t.Errorf("no window/showMessage for the configuration error")
	}

	write(t, dir, ".bhlint.yml", "analyzers:\n  heldconn: true\n")
	conn.Notify(ctx, "textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": uriOf("quote.go")}})
	got = collect("quote.go")
	if doc := got[uriOf("quote.go")]; len(doc) != 1 || !strings.Contains(doc[0].Message, "still held during http.Get") {
		t.Errorf("after the fix, quote.go: %+v; want the heldconn finding", doc)
	}
}

// TestLSPSkippedFunction: a function over the SSA budget shows in the
// editor as information on the function, not as a finding nor as nothing.
func TestLSPSkippedFunction(t *testing.T) {
	t.Parallel()
	bin := buildBhlint(t)
	dir := t.TempDir()
	write(t, dir, "go.mod", "module example.com/lsphuge\n\ngo 1.26\n")
	write(t, dir, "huge.go", hugeTransaction(5500))
	conn, published, _, ctx := startConfigLSP(t, bin)
	uri := (&url.URL{Scheme: "file", Path: filepath.Join(dir, "huge.go")}).String()
	conn.Notify(ctx, "textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": uri, "languageId": "go", "version": 1, "text": "",
	}})
	for {
		select {
		case p := <-published:
			if p.URI != uri {
				continue
			}
			if len(p.Diagnostics) != 1 || p.Diagnostics[0].Severity != 3 || p.Diagnostics[0].Range.Start.Line != 7 ||
				!strings.HasPrefix(p.Diagnostics[0].Message, "skipped: function Huge too large") {
				t.Errorf("huge.go: %+v; want one information diagnostic on func Huge saying it was skipped", p.Diagnostics)
			}
			return
		case <-ctx.Done():
			t.Fatal("no diagnostics for huge.go")
		}
	}
}

// hugeTransaction is a function that holds a transaction and has about
// four SSA instructions per line more than lines: over the default budget
// (20,000) with 5,500.
func hugeTransaction(lines int) string {
	var b strings.Builder
	b.WriteString("package huge\n\nimport (\n\t\"context\"\n\t\"database/sql\"\n)\n\n" +
		"func Huge(ctx context.Context, db *sql.DB, xs []int) error {\n\ttx, err := db.BeginTx(ctx, nil)\n" +
		"\tif err != nil {\n\t\treturn err\n\t}\n\tdefer tx.Rollback()\n\ts := 0\n")
	for i := range lines {
		fmt.Fprintf(&b, "\ts += xs[%d] * %d\n", i%7, i)
	}
	b.WriteString("\t_ = s\n\treturn tx.Commit()\n}\n")
	return b.String()
}

type lspDiagnostic struct {
	Message  string
	Severity int
	Range    struct{ Start struct{ Line int } }
}

type lspPublication struct {
	URI         string
	Diagnostics []lspDiagnostic
}

// startLSP starts bhlint lsp, initializes it, and returns the connection,
// the diagnostics it publishes, the messages it shows, and the test's
// context; the server is shut down when the test ends.
func startConfigLSP(t *testing.T, bin string) (*jsonrpc2.Conn, chan lspPublication, chan string, context.Context) {
	t.Helper()
	cmd := exec.Command(bin, "lsp")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	published := make(chan lspPublication, 32)
	shown := make(chan string, 8)
	handler := jsonrpc2.HandlerWithError(func(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
		switch {
		case req.Params == nil:
		case req.Method == "textDocument/publishDiagnostics":
			var p lspPublication
			if json.Unmarshal(*req.Params, &p) == nil {
				published <- p
			}
		case req.Method == "window/showMessage":
			var m struct{ Message string }
			if json.Unmarshal(*req.Params, &m) == nil {
				shown <- m.Message
			}
		}
		return nil, nil
	})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	conn := jsonrpc2.NewConn(ctx, jsonrpc2.NewBufferedStream(pipes{stdout, stdin}, jsonrpc2.VSCodeObjectCodec{}), handler)
	t.Cleanup(func() {
		conn.Call(ctx, "shutdown", nil, nil)
		conn.Notify(ctx, "exit", nil)
		cmd.Wait()
		cancel()
	})
	if err := conn.Call(ctx, "initialize", map[string]any{"processId": nil, "rootUri": nil, "capabilities": map[string]any{}}, nil); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	conn.Notify(ctx, "initialized", map[string]any{})
	return conn, published, shown, ctx
}
