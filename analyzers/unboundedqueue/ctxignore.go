package unboundedqueue

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/guard"
	"github.com/bhlint/bhlint/internal/lazyssa"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// ignoresContext marks a function that is handed a context and waits on
// the network or a database through a call that does not get it, or gets
// it and ignores it (this fact on the callee): cancelling the context does
// not end the wait. apache/answer's EmailService.Send(ctx, …) dials SMTP
// with gomail, which takes no context, so a goroutine that runs
// SendAndSaveCode(ctx, …) outlives the request that handed it ctx.
type ignoresContext struct{}

func (*ignoresContext) AFact()         {}
func (*ignoresContext) String() string { return "ignoresContext" }

// learnContextIgnorers exports ignoresContext for this package's functions
// with a context.Context parameter, to a fixed point: a function whose wait
// hands its context to one that ignores it ignores it too.
func (c *checker) learnContextIgnorers() {
	c.ignorers = map[*types.Func]bool{}
	if c.net == nil {
		return // nothing here waits
	}
	decls := c.contextTakers()
	prog := c.pass.ResultOf[lazyssa.Analyzer].(*lazyssa.Builder).Package().Prog
	for changed := true; changed; {
		changed = false
		for _, fd := range decls {
			obj, _ := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if obj == nil || c.ignorers[obj] {
				continue
			}
			ignores := false
			guard.At(fd.Pos(), func() { ignores = c.waitIgnoresContext(fd, prog.FuncValue(obj)) })
			if ignores {
				c.ignorers[obj] = true
				c.pass.ExportObjectFact(obj, new(ignoresContext))
				changed = true
			}
		}
	}
}

// contextTakers are the package's functions, outside test files, with a
// context.Context parameter.
func (c *checker) contextTakers() []*ast.FuncDecl {
	var decls []*ast.FuncDecl
	for _, f := range c.pass.Files {
		if c.isTest(f) {
			continue
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil && c.takesContextParam(fd) {
				decls = append(decls, fd)
			}
		}
	}
	return decls
}

func (c *checker) takesContextParam(fd *ast.FuncDecl) bool {
	for _, field := range fd.Type.Params.List {
		if t := c.pass.TypesInfo.TypeOf(field.Type); t != nil && isNamed(t, "context", "Context") && len(field.Names) > 0 {
			return true
		}
	}
	return false
}

// waitIgnoresContext reports whether one of fn's own waiting calls gets no
// context from fd's caller, or gets one and ignores it.
func (c *checker) waitIgnoresContext(fd *ast.FuncDecl, fn *ssa.Function) bool {
	waits := c.waitsOf(fn)
	if len(waits) == 0 {
		return false
	}
	fromCaller := func(e ast.Expr) bool { return c.rootContext(fd, e, 0, true) == nil }
	ignores := false
	inspectOwn(fd.Body, func(call *ast.CallExpr) {
		if !ignores && waits[call.Lparen] {
			ignores = !c.mentionsContext(fd, call, fromCaller, 0) || c.ignoresCtx(c.callee(call))
		}
	})
	return ignores
}

// waitsOf are the positions (the opening parenthesis) of the calls by which
// fn's own body waits on the network or a database, as callWaits tells
// them.
func (c *checker) waitsOf(fn *ssa.Function) map[token.Pos]bool {
	if fn == nil {
		return nil
	}
	waits := map[token.Pos]bool{}
	for common := range ssautil.WaitedCalls(fn) {
		if c.callWaits(common) != "" {
			waits[common.Pos()] = true
		}
	}
	return waits
}

// ignoresCtx reports whether fn is marked ignoresContext (here or by a fact).
func (c *checker) ignoresCtx(fn *types.Func) bool {
	return c.marked(fn, c.ignorers, new(ignoresContext))
}
