package retryafter

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/bhlint/bhlint/internal/catalog"
)

// A server that speaks its own protocol (websocket or TCP frames, a chat
// server's control messages) refuses in its own messages, not in an HTTP
// response: when a queue is full, the select's default answers with a
// reply whose status field says 429 or 503 (tinode's {ctrl code=503}).
// The rule is the HTTP one: a refusal for lack of capacity must say when
// to come back, or every client retries at once.
//
// A reply builder is a function of the package whose return statement
// builds a composite literal (at any depth: &Msg{Ctrl: &Ctrl{…}}) with a
// status-like field (its name has Code or Status in it) set to the
// constant 429 or 503, and no field whose name mentions retry, backoff or
// wait; or that returns what such a builder returns. A call of one in the
// default of a select that sends (the queue is full: a shed) is reported.
// A 503 reply built elsewhere (a feature switched off) is no shed.

// checkShedReplies reports the reply builders called where a full queue
// refuses.
func (c *checker) checkShedReplies() {
	builders := c.overloadReplyBuilders()
	if len(builders) == 0 {
		return
	}
	for _, f := range c.pass.Files {
		if strings.HasSuffix(c.pass.Fset.Position(f.Pos()).Filename, "_test.go") {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectStmt)
			if !ok || !selectSends(sel) {
				return true
			}
			if def := defaultClause(sel); def != nil {
				c.reportShedReplies(def, builders)
			}
			return true
		})
	}
}

func (c *checker) reportShedReplies(def *ast.CommClause, builders map[*types.Func]string) {
	for _, st := range def.Body {
		ast.Inspect(st, func(n ast.Node) bool {
			if _, ok := n.(*ast.FuncLit); ok {
				return false
			}
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			fn := typeutil.StaticCallee(c.pass.TypesInfo, call)
			status, built := builders[fn]
			if !built {
				return true
			}
			c.pass.Report(analysis.Diagnostic{
				Pos: call.Pos(),
				Message: fmt.Sprintf("%s: the queue is full and this refusal answers %s (%s builds it) with no retry hint: "+
					"clients retry at once and the refusal becomes the next wave of load; carry when to come back in the reply "+
					"(a retry-after field or parameter) so they wait", Code, status, fn.Name()),
			})
			return false
		})
	}
}

// overloadReplyBuilders are the package's reply builders, with the status
// each returns, to a fixed point over the calls between them.
func (c *checker) overloadReplyBuilders() map[*types.Func]string {
	builders := map[*types.Func]string{}
	var decls []*ast.FuncDecl
	for _, f := range c.pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil && fd.Type.Results != nil {
				decls = append(decls, fd)
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, fd := range decls {
			fn, _ := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if fn == nil || builders[fn] != "" {
				continue
			}
			if status := c.returnsOverloadReply(fd, builders); status != "" {
				builders[fn] = status
				changed = true
			}
		}
	}
	return builders
}

// returnsOverloadReply is the status a return statement of fd (outside
// function literals) builds or gets from a builder, or "".
func (c *checker) returnsOverloadReply(fd *ast.FuncDecl, builders map[*types.Func]string) string {
	status := ""
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			for _, r := range n.Results {
				if call, ok := ast.Unparen(r).(*ast.CallExpr); ok && builders[typeutil.StaticCallee(c.pass.TypesInfo, call)] != "" {
					status = builders[typeutil.StaticCallee(c.pass.TypesInfo, call)]
				} else if s := c.overloadLiteral(r); s != "" {
					status = s
				}
			}
		}
		return status == ""
	})
	return status
}

// overloadLiteral is the 429 or 503 a composite literal in e sets on a
// status-like field, when no field of it says when to retry; else "".
func (c *checker) overloadLiteral(e ast.Expr) string {
	status, hinted := "", false
	ast.Inspect(e, func(n ast.Node) bool {
		kv, ok := n.(*ast.KeyValueExpr)
		if !ok {
			return true
		}
		key, ok := kv.Key.(*ast.Ident)
		if !ok {
			return true
		}
		name := strings.ToLower(key.Name)
		if strings.Contains(name, "retry") || strings.Contains(name, "backoff") || strings.Contains(name, "wait") {
			hinted = true
		}
		if strings.Contains(name, "code") || strings.Contains(name, "status") {
			if tv := c.pass.TypesInfo.Types[kv.Value]; tv.Value != nil && tv.Value.Kind() == constant.Int {
				if k, ok := constant.Int64Val(tv.Value); ok && catalog.ShedStatuses[k] != "" {
					status = catalog.ShedStatuses[k]
				}
			}
		}
		return true
	})
	if hinted {
		return ""
	}
	return status
}

// selectSends reports whether a select has a case that sends.
func selectSends(sel *ast.SelectStmt) bool {
	for _, cl := range sel.Body.List {
		if _, ok := cl.(*ast.CommClause).Comm.(*ast.SendStmt); ok {
			return true
		}
	}
	return false
}

func defaultClause(sel *ast.SelectStmt) *ast.CommClause {
	for _, cl := range sel.Body.List {
		if cc := cl.(*ast.CommClause); cc.Comm == nil {
			return cc
		}
	}
	return nil
}
