package unboundedqueue

import (
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"strconv"

	"github.com/bhlint/bhlint/internal/lazyssa"
)

// startsGoroutine marks a function that starts a goroutine on every call: a
// go statement among the top-level statements of its body (not under an if,
// a loop or a sync.Once's function literal), with no slot taken by the
// function or inside the goroutine, and nothing after it that waits for it
// (a receive, a Wait). A call of it in a loop over input is a go statement
// in that loop: webhook.PostAsync(payload), routine.FireAndForget(f). Not
// transitive: a function that calls one is not marked.
type startsGoroutine struct {
	Where string // the go statement, file:line, for messages
	File  string // the go statement's file and line, for related information
	Line  int
}

func (*startsGoroutine) AFact()           {}
func (f *startsGoroutine) String() string { return "startsGoroutine" }

// learnStarters exports startsGoroutine for this package's functions.
func (c *checker) learnStarters() {
	c.starters = map[*types.Func]*startsGoroutine{}
	for _, f := range c.pass.Files {
		if c.isTest(f) {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			obj, _ := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if obj == nil || c.slotTakers[obj] {
				continue // a function that takes a slot bounds what it starts
			}
			if c.returnsHandle(obj) {
				continue // the caller holds what joins the goroutine: Drain(ch).Wait()
			}
			if g := c.goroutinePerCall(fd.Body); g != nil {
				p := c.pass.Fset.Position(g.Pos())
				fact := &startsGoroutine{Where: filepath.Base(p.Filename) + ":" + strconv.Itoa(p.Line), File: p.Filename, Line: p.Line}
				c.starters[obj] = fact
				c.pass.ExportObjectFact(obj, fact)
			}
		}
	}
}

// goroutinePerCall is the go statement body runs on every call, or nil:
// a top-level statement with no return before it (a guard such as
// if !started.CompareAndSwap(false, true) { return } starts it once).
func (c *checker) goroutinePerCall(body *ast.BlockStmt) *ast.GoStmt {
	for _, s := range body.List {
		g, ok := s.(*ast.GoStmt)
		if !ok {
			if returns(s) {
				return nil
			}
			continue
		}
		if c.slotTriedInside(c.workBody(g.Call.Fun)) || c.waitsAfter(body, g.End()) {
			return nil // bounded or joined
		}
		if !lazyssa.FactsOnly() && computesOnly(c.ssaFuncOfWork(g.Call.Fun)) {
			// It ends on its own in CPU time. Asked only in the program's own
			// packages: the question builds the package's SSA, which a
			// dependency analysed for its facts (the runtime's) would pay for
			// every go statement it has.
			return nil
		}
		return g
	}
	return nil
}

// startsPerCall is where fn starts its goroutine (a fact), or "".
func (c *checker) startsPerCall(fn *types.Func) string {
	if f := c.starterFact(fn); f != nil {
		return f.Where
	}
	return ""
}

// goroutineStartOf is the position of the go statement fn runs on every
// call, for related information: the line that starts what the loop
// multiplies, in this package or another.
func (c *checker) goroutineStartOf(fn *types.Func) token.Pos {
	if f := c.starterFact(fn); f != nil {
		return c.posOf(f.File, f.Line)
	}
	return token.NoPos
}

func (c *checker) starterFact(fn *types.Func) *startsGoroutine {
	if fn == nil {
		return nil
	}
	fn = fn.Origin()
	if f, ok := c.starters[fn]; ok {
		return f
	}
	var fact startsGoroutine
	if fn.Pkg() != nil && fn.Pkg() != c.pass.Pkg && c.pass.ImportObjectFact(fn, &fact) {
		return &fact
	}
	return nil
}

// funcArgBody is the body of the first function literal among args (the
// work FireAndForget(func() { … }) runs), or nil.
func (c *checker) funcArgBody(args []ast.Expr) *ast.BlockStmt {
	if lit, ok := firstFuncLit(args).(*ast.FuncLit); ok {
		return lit.Body
	}
	return nil
}

// firstFuncLit is the first function literal among args, or nil.
func firstFuncLit(args []ast.Expr) ast.Expr {
	for _, a := range args {
		if lit, ok := ast.Unparen(a).(*ast.FuncLit); ok {
			return lit
		}
	}
	return nil
}

// returns reports whether s contains a return outside function literals.
func returns(s ast.Stmt) bool {
	return holds(s, func(n ast.Node) bool {
		_, ok := n.(*ast.ReturnStmt)
		return ok
	})
}

// holds reports whether s contains, outside function literals, a node
// that match accepts.
func holds(s ast.Stmt, match func(ast.Node) bool) bool {
	found := false
	ast.Inspect(s, func(n ast.Node) bool {
		if _, lit := n.(*ast.FuncLit); lit || found {
			return false
		}
		found = match(n)
		return !found
	})
	return found
}

// returnsHandle reports whether fn returns a channel, a *sync.WaitGroup or
// a func: a handle on what it started, with which its caller can wait for
// the goroutine (Drain(ch).Wait(), a fan-in's output channel).
func (c *checker) returnsHandle(fn *types.Func) bool {
	results := fn.Signature().Results()
	for i := range results.Len() {
		switch t := results.At(i).Type(); t.Underlying().(type) {
		case *types.Chan, *types.Signature:
			return true
		default:
			if isNamed(t, "sync", "WaitGroup") {
				return true
			}
		}
	}
	return false
}
