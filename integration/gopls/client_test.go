// Package gopls_test drives a gopls built with bhlint's analyzers
// (scripts/gopls/build.sh) over a real LSP exchange: JSON-RPC on the
// server's stdin and stdout, as an editor does.
package gopls_test

import (
	"context"
	"encoding/json"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"
)

// goplsBin is the gopls built by scripts/gopls/build.sh, from BHLINT_GOPLS;
// without it the test skips, or fails when BHLINT_REQUIRE_SERVICES is set
// (as .ci/run sets it, after building gopls).
func goplsBin(t testing.TB) string {
	bin := os.Getenv("BHLINT_GOPLS")
	if bin == "" {
		msg := "set BHLINT_GOPLS to a gopls built with scripts/gopls/build.sh (e.g. scripts/gopls/build.sh /tmp/gopls-bhlint)"
		if os.Getenv("BHLINT_REQUIRE_SERVICES") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return bin
}

// buildBhlint builds the bhlint command into a temporary directory.
func buildBhlint(t testing.TB) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "bhlint")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/bhlint/bhlint/cmd/bhlint").CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/bhlint: %v\n%s", err, out)
	}
	return bin
}

type pipes struct {
	io.ReadCloser
	io.WriteCloser
}

func (p pipes) Close() error { p.WriteCloser.Close(); return p.ReadCloser.Close() }

// diagnostic is an LSP diagnostic; Raw is what the server sent, to hand back
// in a code action request.
type diagnostic struct {
	Code     string `json:"code"`
	Source   string `json:"source"`
	Message  string `json:"message"`
	Severity int    `json:"severity"`
	Range    struct {
		Start struct{ Line, Character int }
	} `json:"range"`
	Raw json.RawMessage `json:"-"`
}

type publish struct {
	URI         string       `json:"uri"`
	Version     int          `json:"version"`
	Diagnostics []diagnostic `json:"diagnostics"`
	at          time.Time
}

// bySource returns the diagnostics whose source is one of bhlint's analyzers
// named in sources.
func (p publish) bySource(sources ...string) []diagnostic {
	var out []diagnostic
	for _, d := range p.Diagnostics {
		for _, s := range sources {
			if d.Source == s {
				out = append(out, d)
			}
		}
	}
	return out
}

// client is one language server process and the connection to it.
type client struct {
	t         testing.TB
	cmd       *exec.Cmd
	conn      *jsonrpc2.Conn
	ctx       context.Context
	published chan publish
}

// start runs the server (bin args…) for the workspace root, initializes it
// with the given initializationOptions and returns the client. The server is
// shut down when the test ends.
func start(t testing.TB, root string, options map[string]any, bin string, args ...string) *client {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = root
	cmd.Stderr = os.Stderr
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	c := &client{t: t, cmd: cmd, ctx: ctx, published: make(chan publish, 4096)}
	c.conn = jsonrpc2.NewConn(ctx, jsonrpc2.NewBufferedStream(pipes{stdout, stdin}, jsonrpc2.VSCodeObjectCodec{}), jsonrpc2.HandlerWithError(c.handle))
	t.Cleanup(func() { c.stop(); cancel() })

	rootURI := fileURI(root)
	init := map[string]any{
		"processId": os.Getpid(), "rootUri": rootURI,
		"workspaceFolders":      []any{map[string]any{"uri": rootURI, "name": "test"}},
		"initializationOptions": options,
		"capabilities": map[string]any{
			"textDocument": map[string]any{
				"publishDiagnostics": map[string]any{"versionSupport": true, "relatedInformation": true},
				"codeAction": map[string]any{"codeActionLiteralSupport": map[string]any{
					"codeActionKind": map[string]any{"valueSet": []string{"quickfix", "refactor", "source"}},
				}},
			},
		},
	}
	if err := c.conn.Call(ctx, "initialize", init, nil); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	c.conn.Notify(ctx, "initialized", map[string]any{})
	return c
}

// handle answers the server: publishDiagnostics is recorded, every request
// (progress tokens, capability registration) gets an empty result.
func (c *client) handle(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
	if req.Method != "textDocument/publishDiagnostics" || req.Params == nil {
		return nil, nil
	}
	var p struct {
		publish
		Diagnostics []json.RawMessage `json:"diagnostics"`
	}
	if err := json.Unmarshal(*req.Params, &p); err != nil {
		c.t.Errorf("publishDiagnostics: %v", err)
		return nil, nil
	}
	out := p.publish
	out.at = time.Now()
	for _, raw := range p.Diagnostics {
		var d diagnostic
		if err := json.Unmarshal(raw, &d); err != nil {
			c.t.Errorf("diagnostic %s: %v", raw, err)
			continue
		}
		d.Raw = raw
		out.Diagnostics = append(out.Diagnostics, d)
	}
	c.published <- out
	return nil, nil
}

// waitFor returns the first publish for uri that satisfies ok, failing the
// test if none comes before the deadline. Earlier publishes are dropped.
func (c *client) waitFor(uri, what string, ok func(publish) bool) publish {
	c.t.Helper()
	for {
		select {
		case p := <-c.published:
			if p.URI == uri && ok(p) {
				return p
			}
		case <-c.ctx.Done():
			c.t.Fatalf("no publishDiagnostics for %s: %s", uri, what)
		}
	}
}

func (c *client) open(uri, text string) {
	c.conn.Notify(c.ctx, "textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": uri, "languageId": "go", "version": 1, "text": text,
	}})
}

// change replaces the buffer's whole text, unsaved, as an editor does on
// each keystroke.
func (c *client) change(uri string, version int, text string) {
	c.conn.Notify(c.ctx, "textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": version},
		"contentChanges": []any{map[string]any{"text": text}},
	})
}

func (c *client) stop() {
	if c.cmd.ProcessState != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := c.conn.Call(ctx, "shutdown", nil, nil); err == nil {
		c.conn.Notify(ctx, "exit", nil)
	}
	c.conn.Close() // before the server's stdout closes, which the reader would log as an error
	done := make(chan error, 1)
	go func() { done <- c.cmd.Wait() }()
	select {
	case <-done:
	case <-ctx.Done():
		c.cmd.Process.Kill()
		<-done
	}
}

// writeFiles writes files (relative path → content) under dir.
func writeFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func fileURI(path string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}

// tempModule makes a module directory whose path has no symbolic links, so
// that the URIs gopls publishes are the ones the test opened.
func tempModule(t testing.TB, files map[string]string) string {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, dir, files)
	return dir
}
