package retrystorm

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/docs"
	"github.com/bhlint/bhlint/internal/guard"
	"github.com/bhlint/bhlint/internal/lazyssa"
	"github.com/bhlint/bhlint/internal/netio"
	"github.com/bhlint/bhlint/internal/pkgscope"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// Code starts every message of this analyzer.
const Code = "ERR_UNBOUNDED_RETRY_DETECTED"

//go:embed doc.go
var doc string

// Analyzer reports retry loops with no bound or no backoff.
var Analyzer = lazyssa.Budgeted(guard.Wrap(&analysis.Analyzer{
	Name:      "retrystorm",
	Doc:       docs.Extract(doc, "retrystorm"),
	URL:       "https://github.com/bhlint/bhlint/tree/main/analyzers/retrystorm",
	Requires:  []*analysis.Analyzer{lazyssa.Analyzer, netio.Analyzer},
	FactTypes: []analysis.Fact{new(Sleeps)},
	Run:       run,
}, Code))

// Sleeps marks a function that makes its caller wait: it sleeps, waits on a
// timer, backs off or calls a function that does.
type Sleeps struct {
	Growing        bool  // the wait grows or is jittered by itself (backoff, rand)
	DurationParams []int // the wait is taken from these parameters (receiver = 0)
}

// AFact marks Sleeps as an analysis fact.
func (*Sleeps) AFact() {}

func (f *Sleeps) String() string {
	switch {
	case f.Growing:
		return "sleeps(growing)"
	case len(f.DurationParams) > 0:
		return fmt.Sprintf("sleeps(param %v)", f.DurationParams)
	}
	return "sleeps(constant)"
}

func run(pass *analysis.Pass) (any, error) {
	// Both questions are answered from the syntax, so that a package with
	// neither a possible retry loop nor a possible wait never builds SSA.
	// Loops are only ever reported, so they are not looked at when go vet
	// runs this package only for its facts; nor are the waits of functions
	// no other package can call (a loop here would ask for them): in a
	// generated API client, an SDK's serializers reached through middleware
	// function values, that is most of the package.
	hasLoop := !lazyssa.FactsOnly() && mayRetry(pass)
	pauses := pkgscope.Reaches(pass.Pkg, catalog.PausePackages) && mayPause(pass)
	policies := !lazyssa.FactsOnly() && importsAny(pass.Pkg, catalog.RetryPolicyPackages)
	if !hasLoop && !pauses && !policies {
		return nil, nil
	}
	c := &checker{
		paramDeadlines: map[paramAtDepth]bool{},
		pass:           pass,
		net:            pass.ResultOf[netio.Analyzer].(*netio.Result),
		peers:          netio.NewPeerReads(pass.Pkg),
		sleeps:         map[*ssa.Function]*Sleeps{},
		visiting:       map[*ssa.Function]bool{},
	}
	funcs := pass.ResultOf[lazyssa.Analyzer].(*lazyssa.Builder).SrcFuncs()
	c.fields = fieldFuncs(funcs)
	c.funcs = funcs
	if pauses {
		for _, fn := range funcs {
			obj, ok := fn.Object().(*types.Func)
			if !ok || fn.Parent() != nil || (lazyssa.FactsOnly() && !obj.Exported()) {
				continue
			}
			guard.At(fn.Pos(), func() {
				if f := c.sleepsOf(fn); f != nil {
					pass.ExportObjectFact(obj, f)
				}
			})
		}
	}
	if hasLoop {
		for _, fn := range funcs {
			guard.At(fn.Pos(), func() { c.checkLoops(fn) })
		}
	}
	if policies {
		c.checkPolicyStructs()
		for _, fn := range funcs {
			if !strings.HasSuffix(pass.Fset.Position(fn.Pos()).Filename, "_test.go") {
				guard.At(fn.Pos(), func() { c.checkPolicies(fn) })
			}
		}
	}
	return nil, nil
}

// importsAny reports whether pkg imports one of paths directly: a retry
// library's call is written in the package that imports it.
func importsAny(pkg *types.Package, paths []string) bool {
	for _, imp := range pkg.Imports() {
		if slices.Contains(paths, imp.Path()) {
			return true
		}
	}
	return false
}

// mayRetry reports whether a function outside the test files could hold a
// loop that checkLoops reports on: a for or range loop with a comparison of
// an error inside it (every retry goes round or leaves on err != nil, a
// sentinel, a type switch, errors.Is or status.Code, and that check is in
// the loop), a goto in a function that compares an error,
// or a loop in a function big enough that lazyssa.Fits might report it as
// skipped. Anything else has no loop for retryIn to find.
func mayRetry(pass *analysis.Pass) bool {
	budget := lazyssa.Budget(pass.Analyzer)
	for _, f := range pass.Files {
		if strings.HasSuffix(pass.Fset.File(f.Pos()).Name(), "_test.go") {
			continue
		}
		for _, decl := range f.Decls {
			if fd, ok := decl.(*ast.FuncDecl); ok {
				if fd.Body != nil && (funcMayRetry(pass.TypesInfo, fd.Body, budget) || callsItself(pass.TypesInfo, fd)) {
					return true
				}
				continue
			}
			// Function literals in package-level initialisers.
			found := false
			ast.Inspect(decl, func(n ast.Node) bool {
				if lit, ok := n.(*ast.FuncLit); ok {
					found = found || funcMayRetry(pass.TypesInfo, lit.Body, budget)
					return false
				}
				return !found
			})
			if found {
				return true
			}
		}
	}
	return false
}

// funcMayRetry looks at one function body, without the function literals
// in it (each is a function of its own, looked at in turn).
func funcMayRetry(info *types.Info, body *ast.BlockStmt, budget int) bool {
	var hasLoop, hasGoto, errCheck, loopErrCheck bool
	nodes := 0
	var lits []*ast.FuncLit
	var visit func(root ast.Node, inLoop bool)
	visit = func(root ast.Node, inLoop bool) {
		ast.Inspect(root, func(n ast.Node) bool {
			if n == nil {
				return false
			}
			switch n := n.(type) {
			case *ast.FuncLit:
				lits = append(lits, n)
				return false
			case *ast.ForStmt, *ast.RangeStmt:
				if n != root {
					hasLoop = true
					visit(n, true)
					return false
				}
			case *ast.BranchStmt:
				hasGoto = hasGoto || n.Tok == token.GOTO
			case *ast.BinaryExpr:
				if (n.Op == token.EQL || n.Op == token.NEQ) && (isErrorExpr(info, n.X) || isErrorExpr(info, n.Y)) {
					errCheck, loopErrCheck = true, loopErrCheck || inLoop
				}
			case *ast.SwitchStmt: // switch err { case nil: … }
				if n.Tag != nil && isErrorExpr(info, n.Tag) {
					errCheck, loopErrCheck = true, loopErrCheck || inLoop
				}
			case *ast.TypeAssertExpr: // switch err.(type) { case *ConditionFailedError: … }
				if isErrorExpr(info, n.X) {
					errCheck, loopErrCheck = true, loopErrCheck || inLoop
				}
			case *ast.CallExpr: // errors.Is(err, ErrConflict), status.Code(err)
				if fn, ok := typeutil.Callee(info, n).(*types.Func); ok && (catalog.ErrorMatchers.Has(fn) || catalog.Key(fn) == catalog.GRPCStatusCode) {
					errCheck, loopErrCheck = true, loopErrCheck || inLoop
				}
			}
			nodes++
			return true
		})
	}
	visit(body, false)
	// Fits counts SSA instructions. Over the 195,000 functions of std, its
	// tests and bhlint's dependencies, no function has more than 4 per
	// syntax node (the largest ones have under 1.3), so one under budget/8
	// nodes is under budget with room to spare.
	big := budget > 0 && nodes*8 >= budget
	if loopErrCheck || (hasGoto && errCheck) || ((hasLoop || hasGoto) && big) {
		return true
	}
	for _, lit := range lits {
		if funcMayRetry(info, lit.Body, budget) {
			return true
		}
	}
	return false
}

func isErrorExpr(info *types.Info, e ast.Expr) bool {
	t := info.TypeOf(e)
	return t != nil && ssautil.IsError(t)
}

// mayPause reports whether a function of the package could wait, that is
// whether sleepsOf could find anything: a use of a sleep, timer or backoff
// of the catalogue, or of a function another package found to wait (the
// Sleeps fact); a timer's channel field C; or a call through a function
// value that takes a time.Duration (an injected sleep). Every wait sleepsOf
// finds comes down to one of these.
func mayPause(pass *analysis.Pass) bool {
	for _, obj := range pass.TypesInfo.Uses {
		switch obj := obj.(type) {
		case *types.Func:
			if isPauseFunc(pass, obj) {
				return true
			}
		case *types.Var:
			if obj.IsField() && obj.Name() == "C" && obj.Pkg() != nil && obj.Pkg().Path() == "time" {
				return true
			}
		}
	}
	found := false
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok && !found && typeutil.StaticCallee(pass.TypesInfo, call) == nil {
				tv, ok := pass.TypesInfo.Types[call.Fun]
				switch {
				case !ok || tv.Type == nil:
					found = true // unknown: assume the worst
				case tv.IsType() || tv.IsBuiltin():
					// a conversion or a builtin calls nothing
				default:
					sig, _ := tv.Type.Underlying().(*types.Signature)
					if sig == nil {
						break
					}
					for i := range sig.Params().Len() {
						found = found || isDuration(sig.Params().At(i).Type())
					}
				}
			}
			return !found
		})
	}
	return found
}

func isPauseFunc(pass *analysis.Pass, fn *types.Func) bool {
	if catalog.Backoffs.Has(fn) {
		return true
	}
	key := catalog.Key(fn)
	if _, ok := catalog.Sleeps[key]; ok {
		return true
	}
	if _, ok := catalog.Timers[key]; ok {
		return true
	}
	origin := fn.Origin()
	return origin.Pkg() != nil && origin.Pkg() != pass.Pkg && pass.ImportObjectFact(origin, new(Sleeps))
}

type checker struct {
	pass *analysis.Pass
	// paramDeadlines is carriesDeadline's answers for parameters: each
	// asks every call of its function, which scans the whole package.
	paramDeadlines map[paramAtDepth]bool
	net            *netio.Result
	peers          *netio.PeerReads          // the calls that read a peer's next message
	sleeps         map[*ssa.Function]*Sleeps // this package's, nil when it does not wait
	visiting       map[*ssa.Function]bool
	fields         map[fieldKey][]*ssa.Function
	// dbReaches: for this package's functions, the path by which each
	// reaches a database (nil when it does not).
	dbReaches map[*ssa.Function][]string
	starts    ssautil.CallStarts
	// innermost is, for the function being checked, the smallest loop that
	// holds each block.
	innermost map[*ssa.BasicBlock]*loop
	funcs     []*ssa.Function
	// valueUses: the package's functions named other than in a call.
	valueUses map[*types.Func]bool
}

// ---- small helpers ----

func origin(fn *ssa.Function) *ssa.Function { return ssautil.Origin(fn) }

func isDuration(t types.Type) bool { return catalog.TypeKey(t) == "time.Duration" }

func isInteger(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0 && !isDuration(t)
}
