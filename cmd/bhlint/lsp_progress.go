package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sourcegraph/jsonrpc2"
)

var progressTokens atomic.Int64

// progress reports one analysis as LSP work-done progress (when the client
// supports it) and logs each package go vet loads: on a cold module that
// is tens of seconds in which nothing else would show.
type progress struct {
	s    *lspServer
	conn *jsonrpc2.Conn
	ctx  context.Context
	dir  string

	mu     sync.Mutex
	began  bool
	token  string // "" when the client shows no progress
	loaded int
}

func (s *lspServer) newProgress(ctx context.Context, conn *jsonrpc2.Conn, dir string) *progress {
	return &progress{s: s, conn: conn, ctx: ctx, dir: dir}
}

// begin asks the client for a progress token and starts the progress, once.
func (p *progress) begin() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.began {
		return
	}
	p.began = true
	p.s.mu.Lock()
	supported := p.s.client.Window.WorkDoneProgress
	p.s.mu.Unlock()
	if !supported {
		return
	}
	token := fmt.Sprintf("bhlint-%d", progressTokens.Add(1))
	// A client that never answers must not hold the analysis up.
	ctx, cancel := context.WithTimeout(p.ctx, 10*time.Second)
	defer cancel()
	if err := p.conn.Call(ctx, "window/workDoneProgress/create", map[string]any{"token": token}, nil); err != nil {
		return
	}
	p.token = token
	p.notify(map[string]any{"kind": "begin", "title": "bhlint", "message": "analysing " + p.dir})
}

// load is called with each package go vet loads (it names none it finds
// in the build cache): the progress starts at the first.
func (p *progress) load(pkg string) {
	p.begin()
	p.mu.Lock()
	p.loaded++
	n, token := p.loaded, p.token
	p.mu.Unlock()
	p.s.logMessage(p.ctx, p.conn, msgLog, "loading "+pkg)
	if token != "" {
		p.notify(map[string]any{"kind": "report", "message": fmt.Sprintf("%d packages loaded: %s", n, pkg)})
	}
}

func (p *progress) end(msg string) {
	p.mu.Lock()
	token := p.token
	p.mu.Unlock()
	if token != "" {
		p.notify(map[string]any{"kind": "end", "message": msg})
	}
}

func (p *progress) notify(value map[string]any) {
	p.conn.Notify(p.ctx, "$/progress", map[string]any{"token": p.token, "value": value})
}

// loadingLines splits the standard error of go vet -v: a line that is an
// import path (go vet names each package as it loads it) goes to loading,
// everything else (errors, which always hold a space or a colon) to rest,
// as soon as it is seen to be one.
type loadingLines struct {
	rest    io.Writer
	loading func(pkg string)
	line    []byte // the current line, while it may still be an import path
	passing bool   // the current line is an error's: pass it on
}

func (w *loadingLines) Write(b []byte) (int, error) {
	n := len(b)
	for len(b) > 0 {
		chunk, complete := b, false
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			chunk, complete = b[:i+1], true
		}
		b = b[len(chunk):]
		if !w.passing && bytes.ContainsAny(chunk, " \t:") {
			w.passing = true
			w.rest.Write(w.line)
			w.line = nil
		}
		if w.passing {
			w.rest.Write(chunk)
		} else {
			w.line = append(w.line, chunk...)
		}
		if complete {
			if pkg := bytes.TrimSpace(w.line); len(pkg) > 0 {
				w.loading(string(pkg))
			}
			w.line, w.passing = nil, false
		}
	}
	return n, nil
}
