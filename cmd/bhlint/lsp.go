package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"unicode/utf16"

	"github.com/sourcegraph/jsonrpc2"
)

// runLSP serves diagnostics over the Language Server Protocol on stdin and
// stdout, beside gopls (which cannot load third-party analyzers). On open
// and on save it analyses the file's package through the same go vet
// protocol as the CLI, so unchanged packages come from the build cache.
func runLSP(stdin io.Reader, stdout io.Writer) int {
	srv := &lspServer{published: map[string][]string{}, exited: make(chan int, 1)}
	stream := jsonrpc2.NewBufferedStream(stdio{stdin, stdout}, jsonrpc2.VSCodeObjectCodec{})
	conn := jsonrpc2.NewConn(context.Background(), stream, jsonrpc2.AsyncHandler(srv))
	select {
	case code := <-srv.exited:
		conn.Close()
		return code
	case <-conn.DisconnectNotify():
		return exitClean
	}
}

type stdio struct {
	io.Reader
	io.Writer
}

func (stdio) Close() error { return nil }

type lspServer struct {
	mu        sync.Mutex
	shutdown  bool
	published map[string][]string // package dir → files that have diagnostics now
	exited    chan int
}

func (s *lspServer) Handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) {
	switch req.Method {
	case "initialize":
		conn.Reply(ctx, req.ID, map[string]any{
			"capabilities": map[string]any{
				"textDocumentSync": map[string]any{"openClose": true, "change": 0, "save": map[string]any{"includeText": false}},
			},
			"serverInfo": map[string]any{"name": "bhlint"},
		})
	case "shutdown":
		s.mu.Lock()
		s.shutdown = true
		s.mu.Unlock()
		conn.Reply(ctx, req.ID, nil)
	case "exit":
		s.mu.Lock()
		code := 1 // exit without shutdown is an error, per the protocol
		if s.shutdown {
			code = 0
		}
		s.mu.Unlock()
		s.exited <- code
	case "textDocument/didOpen", "textDocument/didSave":
		var params struct {
			TextDocument struct {
				URI string `json:"uri"`
			} `json:"textDocument"`
		}
		if req.Params != nil && json.Unmarshal(*req.Params, &params) == nil {
			s.publish(ctx, conn, params.TextDocument.URI)
		}
	default:
		if !req.Notif {
			conn.ReplyWithError(ctx, req.ID, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "bhlint does not implement " + req.Method})
		}
	}
}

// publish analyses the package of the document and sends diagnostics for
// every file of it, clearing files that no longer have any.
func (s *lspServer) publish(ctx context.Context, conn *jsonrpc2.Conn, uri string) {
	file, err := fileOf(uri)
	if err != nil {
		s.logMessage(ctx, conn, err.Error())
		return
	}
	dir := filepath.Dir(file)
	findings, err := analyze(dir, &options{packages: []string{"."}})
	if err != nil {
		s.logMessage(ctx, conn, err.Error())
	}
	byFile := map[string][]map[string]any{}
	for _, f := range findings {
		byFile[f.Location.File] = append(byFile[f.Location.File], lspDiagnostic(f))
	}
	s.mu.Lock()
	previous := s.published[dir]
	var now []string
	for f := range byFile {
		now = append(now, f)
	}
	s.published[dir] = now
	s.mu.Unlock()
	for _, f := range previous {
		if _, still := byFile[f]; !still {
			byFile[f] = []map[string]any{}
		}
	}
	if _, ok := byFile[file]; !ok {
		byFile[file] = []map[string]any{}
	}
	for f, diags := range byFile {
		conn.Notify(ctx, "textDocument/publishDiagnostics", map[string]any{"uri": fileURI(f), "diagnostics": diags})
	}
}

func (s *lspServer) logMessage(ctx context.Context, conn *jsonrpc2.Conn, msg string) {
	conn.Notify(ctx, "window/logMessage", map[string]any{"type": 1, "message": "bhlint: " + msg})
}

func lspDiagnostic(f finding) map[string]any {
	start := lspPosition(f.Location)
	d := map[string]any{
		"range":    map[string]any{"start": start, "end": start},
		"severity": 2, // warning: findings sit beside gopls's errors, not above them
		"code":     f.Code,
		"source":   "bhlint/" + f.Analyzer,
		"message":  f.Message,
	}
	var related []map[string]any
	for _, r := range f.Related {
		p := lspPosition(r)
		related = append(related, map[string]any{
			"location": map[string]any{"uri": fileURI(r.File), "range": map[string]any{"start": p, "end": p}},
			"message":  r.Message,
		})
	}
	if related != nil {
		d["relatedInformation"] = related
	}
	return d
}

// lspPosition converts a 1-based line and byte column into LSP's 0-based
// line and UTF-16 character offset.
func lspPosition(l location) map[string]int {
	line, char := max(l.Line-1, 0), max(l.Column-1, 0)
	if text, ok := lineOf(l.File, l.Line); ok && char <= len(text) {
		char = len(utf16.Encode([]rune(text[:char])))
	}
	return map[string]int{"line": line, "character": char}
}

func lineOf(file string, line int) (string, bool) {
	f, err := os.Open(file)
	if err != nil {
		return "", false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		if n == line {
			return sc.Text(), true
		}
	}
	return "", false
}

func fileOf(uri string) (string, error) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return "", fmt.Errorf("cannot analyse %q: only file:// documents are supported", uri)
	}
	return filepath.FromSlash(u.Path), nil
}

func fileURI(path string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}
