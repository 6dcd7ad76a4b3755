package main_test

import (
	"context"
	"encoding/json"
	"io"
	"net/url"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"
)

type pipes struct {
	io.ReadCloser
	io.WriteCloser
}

func (p pipes) Close() error { p.WriteCloser.Close(); return p.ReadCloser.Close() }

type publishParams struct {
	URI         string `json:"uri"`
	Diagnostics []struct {
		Code     string `json:"code"`
		Source   string `json:"source"`
		Message  string `json:"message"`
		Severity int    `json:"severity"`
		Range    struct {
			Start struct{ Line, Character int }
		} `json:"range"`
		RelatedInformation []json.RawMessage `json:"relatedInformation"`
	} `json:"diagnostics"`
}

// TestLSPExchange drives `bhlint lsp` over stdio with a real JSON-RPC client:
// initialize, didOpen of a file with findings, publishDiagnostics, shutdown,
// exit — and checks the server exits 0.
func TestLSPExchange(t *testing.T) {
	bin := buildBhlint(t)
	cmd := exec.Command(bin, "lsp")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	published := make(chan publishParams, 16)
	handler := jsonrpc2.HandlerWithError(func(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
		if req.Method == "textDocument/publishDiagnostics" && req.Params != nil {
			var p publishParams
			if err := json.Unmarshal(*req.Params, &p); err == nil {
				published <- p
			}
		}
		return nil, nil
	})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	conn := jsonrpc2.NewConn(ctx, jsonrpc2.NewBufferedStream(pipes{stdout, stdin}, jsonrpc2.VSCodeObjectCodec{}), handler)

	var initResult struct {
		Capabilities map[string]any `json:"capabilities"`
	}
	if err := conn.Call(ctx, "initialize", map[string]any{"processId": nil, "rootUri": nil, "capabilities": map[string]any{}}, &initResult); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	if initResult.Capabilities["textDocumentSync"] == nil {
		t.Fatalf("initialize result has no textDocumentSync: %+v", initResult)
	}
	conn.Notify(ctx, "initialized", map[string]any{})

	file, _ := filepath.Abs(filepath.Join("..", "..", "testdata", "e2e", "heldconn", "store.go"))
	uri := (&url.URL{Scheme: "file", Path: file}).String()
	conn.Notify(ctx, "textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": uri, "languageId": "go", "version": 1, "text": "",
	}})

	var got publishParams
	for got.URI != uri {
		select {
		case got = <-published:
		case <-ctx.Done():
			t.Fatal("no publishDiagnostics for the opened file")
		}
	}
	if len(got.Diagnostics) != 3 {
		t.Fatalf("got %d diagnostics for store.go, want 3 (the e2e expected.txt): %+v", len(got.Diagnostics), got.Diagnostics)
	}
	first := got.Diagnostics[0]
	if first.Code != "ERR_CONN_HELD_ACROSS_NETWORK_CALL" || first.Source != "bhlint/heldconn" || len(first.RelatedInformation) != 1 {
		t.Errorf("diagnostic = %+v; want the code, source bhlint/heldconn and the acquisition as related information", first)
	}
	// expected.txt has store.go:30:15, 53:13 and 86:16 (1-based); LSP is 0-based.
	var lines []int
	for _, d := range got.Diagnostics {
		lines = append(lines, d.Range.Start.Line)
	}
	slices.Sort(lines)
	if !slices.Equal(lines, []int{29, 52, 85}) || got.Diagnostics[0].Range.Start.Character == 0 {
		t.Errorf("diagnostics on 0-based lines %v, want [29 52 85] with their columns", lines)
	}

	// On save the package is analysed again and published again.
	conn.Notify(ctx, "textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": uri}})
	var saved publishParams
	for saved.URI != uri {
		select {
		case saved = <-published:
		case <-ctx.Done():
			t.Fatal("no publishDiagnostics after didSave")
		}
	}
	if len(saved.Diagnostics) != 3 {
		t.Errorf("after didSave: %d diagnostics, want 3", len(saved.Diagnostics))
	}

	if err := conn.Call(ctx, "shutdown", nil, nil); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	conn.Notify(ctx, "exit", nil)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("bhlint lsp exited with %v after shutdown/exit, want 0", err)
		}
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatal("bhlint lsp did not exit after shutdown/exit")
	}
}
