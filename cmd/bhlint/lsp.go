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
	"strings"
	"sync"
	"unicode/utf16"

	"github.com/sourcegraph/jsonrpc2"
)

// runLSP serves diagnostics over the Language Server Protocol on stdin and
// stdout, beside gopls (which cannot load third-party analyzers). On open
// and on save it analyses the file's package through the same go vet
// protocol as the CLI, so unchanged packages come from the build cache. It
// offers the analyzers' suggested fixes, and an ignore with a reason, as
// code actions.
func runLSP(stdin io.Reader, stdout io.Writer) int {
	srv := &lspServer{published: map[string][]string{}, diagnostics: map[string][]published{}, exited: make(chan int, 1)}
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
	mu          sync.Mutex
	shutdown    bool
	client      clientCapabilities
	analyses    int                    // analyses started: the first one always shows progress
	published   map[string][]string    // package dir → files that have diagnostics now
	diagnostics map[string][]published // file → what was last published for it, for code actions
	baseline    string                 // initializationOptions.baseline, absolute; "" for none
	exited      chan int
}

// clientCapabilities are the parts of the client's capabilities the server
// adapts to.
type clientCapabilities struct {
	Window struct {
		WorkDoneProgress bool `json:"workDoneProgress"`
	} `json:"window"`
	Workspace struct {
		WorkspaceEdit struct {
			SnippetEditSupport bool `json:"snippetEditSupport"` // LSP 3.18
		} `json:"workspaceEdit"`
	} `json:"workspace"`
}

func (s *lspServer) Handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) {
	switch req.Method {
	case "initialize":
		var params struct {
			Capabilities clientCapabilities `json:"capabilities"`
			RootURI      string             `json:"rootUri"`
			Options      struct {
				Baseline string `json:"baseline"`
			} `json:"initializationOptions"`
		}
		if req.Params != nil {
			json.Unmarshal(*req.Params, &params) // capabilities the client leaves out stay off
		}
		s.mu.Lock()
		s.client = params.Capabilities
		s.baseline = baselinePath(params.Options.Baseline, params.RootURI)
		s.mu.Unlock()
		conn.Reply(ctx, req.ID, map[string]any{
			"capabilities": map[string]any{
				"textDocumentSync":   map[string]any{"openClose": true, "change": 0, "save": map[string]any{"includeText": false}},
				"codeActionProvider": map[string]any{"codeActionKinds": []string{"quickfix"}},
			},
			"serverInfo": map[string]any{"name": "bhlint", "version": toolVersion().String()},
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
	case "textDocument/codeAction":
		var params codeActionParams
		if req.Params == nil || json.Unmarshal(*req.Params, &params) != nil {
			conn.ReplyWithError(ctx, req.ID, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: "bhlint: textDocument/codeAction needs a textDocument and a range"})
			return
		}
		conn.Reply(ctx, req.ID, s.codeActions(params))
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
		s.logMessage(ctx, conn, msgError, err.Error())
		return
	}
	dir := filepath.Dir(file)
	s.mu.Lock()
	s.analyses++
	first := s.analyses == 1
	s.mu.Unlock()
	p := s.newProgress(ctx, conn, dir)
	if first {
		p.begin() // the first analysis of a cold module takes a while even before go vet names a package
	}
	findings, sum, err := analyze(dir, &options{packages: []string{"."}, vetArgs: []string{"-v"}, loading: p.load})
	findings = s.markBaselined(ctx, conn, findings)
	findings = append(findings, skipNotices(sum)...)
	if err != nil {
		s.logMessage(ctx, conn, msgError, err.Error())
		findings = append(findings, s.notAnalysed(ctx, conn, file, err)...)
	}
	byFile := map[string][]published{}
	for _, f := range findings {
		byFile[f.Location.File] = append(byFile[f.Location.File], publishedFor(f))
	}
	p.end(fmt.Sprintf("%d findings in %d files", len(findings), len(byFile)))
	s.logMessage(ctx, conn, msgLog, fmt.Sprintf("analysed %s: %d findings in %d files (%d packages loaded)", dir, len(findings), len(byFile), p.loaded))
	s.mu.Lock()
	previous := s.published[dir]
	var now []string
	for f := range byFile {
		now = append(now, f)
	}
	s.published[dir] = now
	for _, f := range previous {
		if _, still := byFile[f]; !still {
			byFile[f] = nil
		}
	}
	if _, ok := byFile[file]; !ok {
		byFile[file] = nil
	}
	for f, ps := range byFile {
		s.diagnostics[f] = ps
	}
	s.mu.Unlock()
	for f, ps := range byFile {
		diags := []map[string]any{}
		for _, p := range ps {
			diags = append(diags, p.diagnostic)
		}
		conn.Notify(ctx, "textDocument/publishDiagnostics", map[string]any{"uri": fileURI(f), "diagnostics": diags})
	}
}

// Message types of window/logMessage.
const (
	msgError = 1
	msgLog   = 4
)

// logMessage sends msg once prefixed with "bhlint: ", however many of the
// errors it wraps already start with it.
func (s *lspServer) logMessage(ctx context.Context, conn *jsonrpc2.Conn, typ int, msg string) {
	for {
		rest, ok := strings.CutPrefix(msg, "bhlint: ")
		if !ok {
			break
		}
		msg = rest
	}
	conn.Notify(ctx, "window/logMessage", map[string]any{"type": typ, "message": "bhlint: " + msg})
}

// published is one diagnostic as sent to the client, with what its code
// actions need, converted to LSP positions against the file analysed.
type published struct {
	finding    finding
	diagnostic map[string]any
	rng        lspRange
	fixes      []lspFix
	indent     string // the leading white space of the finding's line
	prevIgnore bool   // the line above is a //bhlint:ignore already
	hasComment bool   // the finding's line holds a // comment
}

type lspPosition struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

type lspRange struct {
	Start lspPosition `json:"start"`
	End   lspPosition `json:"end"`
}

type lspTextEdit struct {
	Range   lspRange `json:"range"`
	NewText string   `json:"newText"`
}

type lspFix struct {
	title string
	edits map[string][]lspTextEdit // file URI → edits
}

func publishedFor(f finding) published {
	p := published{finding: f, rng: rangeOf(f.Location)}
	p.diagnostic = map[string]any{
		"range":    p.rng,
		"severity": lspSeverity(f),
		"code":     f.Code,
		"source":   "bhlint/" + f.Analyzer,
		"message":  f.Message,
	}
	var related []map[string]any
	for _, r := range f.Related {
		related = append(related, map[string]any{
			"location": map[string]any{"uri": fileURI(r.File), "range": rangeOf(r)},
			"message":  r.Message,
		})
	}
	if related != nil {
		p.diagnostic["relatedInformation"] = related
	}
	for _, fx := range f.Fixes {
		p.fixes = append(p.fixes, lspFixOf(fx))
	}
	line, _ := lineOf(f.Location.File, f.Location.Line)
	p.indent = line[:len(line)-len(strings.TrimLeft(line, " \t"))]
	p.hasComment = strings.Contains(line, "//")
	if f.Location.Line > 1 {
		above, _ := lineOf(f.Location.File, f.Location.Line-1)
		p.prevIgnore = strings.HasPrefix(strings.TrimSpace(above), "//bhlint:ignore")
	}
	return p
}

// rangeOf is the LSP range of a location: from its start to its end, or
// empty where the analyzer gave no end.
func rangeOf(l location) lspRange {
	start := positionOf(l.File, l.Line, l.Column)
	end := start
	if l.EndLine > 0 {
		end = positionOf(l.File, l.EndLine, l.EndColumn)
	}
	return lspRange{Start: start, End: end}
}

// positionOf converts a 1-based line and byte column into LSP's 0-based
// line and UTF-16 character offset.
func positionOf(file string, line, column int) lspPosition {
	l, char := max(line-1, 0), max(column-1, 0)
	if text, ok := lineOf(file, line); ok && char <= len(text) {
		char = len(utf16.Encode([]rune(text[:char])))
	}
	return lspPosition{Line: l, Character: char}
}

// lspFixOf converts a suggested fix's byte offsets into LSP positions.
func lspFixOf(fx fix) lspFix {
	out := lspFix{title: fx.Message, edits: map[string][]lspTextEdit{}}
	texts := map[string][]byte{}
	for _, e := range fx.Edits {
		src, ok := texts[e.File]
		if !ok {
			src, _ = os.ReadFile(e.File)
			texts[e.File] = src
		}
		uri := fileURI(e.File)
		out.edits[uri] = append(out.edits[uri], lspTextEdit{
			Range:   lspRange{Start: offsetPosition(src, e.Start), End: offsetPosition(src, e.End)},
			NewText: e.New,
		})
	}
	return out
}

// offsetPosition converts a byte offset of src into an LSP position.
func offsetPosition(src []byte, offset int) lspPosition {
	offset = min(max(offset, 0), len(src))
	before := src[:offset]
	line := strings.Count(string(before), "\n")
	lineStart := strings.LastIndexByte(string(before), '\n') + 1
	return lspPosition{Line: line, Character: len(utf16.Encode([]rune(string(before[lineStart:]))))}
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
