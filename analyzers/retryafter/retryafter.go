package retryafter

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/docs"
	"github.com/bhlint/bhlint/internal/guard"
	"github.com/bhlint/bhlint/internal/lazyssa"
	"github.com/bhlint/bhlint/internal/pkgscope"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// Code starts every message of this analyzer.
const Code = "ERR_MISSING_RETRY_AFTER"

//go:embed doc.go
var doc string

// Analyzer reports 429 and 503 responses written without Retry-After.
var Analyzer = lazyssa.Budgeted(guard.Wrap(&analysis.Analyzer{
	Name:      "retryafter",
	Doc:       docs.Extract(doc, "retryafter"),
	URL:       "https://github.com/bhlint/bhlint/tree/main/analyzers/retryafter",
	Requires:  []*analysis.Analyzer{lazyssa.Analyzer},
	FactTypes: []analysis.Fact{new(SetsRetryAfter), new(WritesStatus), new(ShedError), new(CarriesShed), new(ReturnsShedStatus), new(HandsAfterRetryAfter), new(StatusTable)},
	Run:       run,
}, Code))

// SetsRetryAfter marks a function that sets the Retry-After header on the
// ResponseWriter or http.Header it is passed.
type SetsRetryAfter struct{}

// AFact marks SetsRetryAfter as an analysis fact.
func (*SetsRetryAfter) AFact()         {}
func (*SetsRetryAfter) String() string { return "setsRetryAfter" }

// WritesStatus marks a function that writes a response status on the
// ResponseWriter it is passed, without setting Retry-After first: the status
// passed as parameter StatusParam (-1 if none), or Shed, a 429 or 503 of its
// own.
type WritesStatus struct {
	StatusParam int
	Shed        string
}

// AFact marks WritesStatus as an analysis fact.
func (*WritesStatus) AFact() {}

func (f *WritesStatus) String() string {
	if f.Shed != "" {
		return "writesStatus(" + f.Shed + ")"
	}
	return fmt.Sprintf("writesStatus(param %d)", f.StatusParam)
}

func run(pass *analysis.Pass) (any, error) {
	serves := pkgscope.Reaches(pass.Pkg, []string{"net/http"})
	grpc := pkgscope.Reaches(pass.Pkg, catalog.GRPCPackages)
	limiter := !lazyssa.FactsOnly() && declaresLimiter(pass)
	if !serves && !grpc && !limiter {
		return nil, nil
	}
	// In a dependency analysed only for facts, nothing is reported: build
	// SSA only if the package can export a fact, and export them only.
	factsOnly := lazyssa.FactsOnly()
	if factsOnly && !mayExportFacts(pass) {
		return nil, nil
	}
	c := &checker{
		pass:       pass,
		sets:       map[*ssa.Function]bool{},
		writes:     map[*ssa.Function]*WritesStatus{},
		visiting:   map[*ssa.Function]bool{},
		reportedAt: map[token.Pos]bool{},
	}
	builder := pass.ResultOf[lazyssa.Analyzer].(*lazyssa.Builder)
	funcs := builder.SrcFuncs()
	if limiter {
		for _, fn := range funcs {
			guard.At(fn.Pos(), func() { c.checkLimiter(fn) })
		}
	}
	if serves || grpc {
		guard.At(pass.Files[0].Pos(), func() { c.learnStatusTables() })
		c.runShedErrors(builder.Package(), funcs)
		if !factsOnly {
			guard.At(pass.Files[0].Pos(), func() { c.checkShedReplies() })
		}
	}
	if !serves {
		return nil, nil
	}
	for _, fn := range funcs {
		guard.At(fn.Pos(), func() { c.exportFacts(fn) })
	}
	guard.At(pass.Files[0].Pos(), func() { c.exportHandsAfterRetryAfter(funcs) })
	if factsOnly {
		return nil, nil
	}
	var handed map[*ssa.Function]bool
	guard.At(pass.Files[0].Pos(), func() { handed = c.handedAfterRetryAfter(funcs) })
	for _, fn := range funcs {
		switch {
		case handed[fn]:
			// a limiter's refusal handler: the limiter set Retry-After (limithandler.go)
		case isHandler(fn) || frameworkOf(fn) != nil:
			if lazyssa.Fits(pass, Code, fn) {
				guard.At(fn.Pos(), func() { c.checkHandler(fn) })
			}
		case takesWriter(fn) && takesError(fn):
			if lazyssa.Fits(pass, Code, fn) {
				guard.At(fn.Pos(), func() { c.checkErrorHelper(fn) })
			}
		}
		guard.At(fn.Pos(), func() { c.checkShedMiddlewares(fn) })
	}
	return nil, nil
}

type checker struct {
	pass     *analysis.Pass
	sets     map[*ssa.Function]bool
	writes   map[*ssa.Function]*WritesStatus
	visiting map[*ssa.Function]bool
	starts   ssautil.CallStarts
	// reportedAt holds the returns of a shed status already reported: a
	// callee's return is reported once, whichever handler writes it.
	reportedAt map[token.Pos]bool
	// tables are this package's getters of status tables (StatusTable).
	tables map[*types.Func]*StatusTable
}

// ---- handlers ----

// isHandler reports whether fn has the net/http handler signature, as a
// function, a method or a function literal.
func isHandler(fn *ssa.Function) bool {
	params := fn.Signature.Params()
	return params.Len() == 2 && isResponseWriter(params.At(0).Type()) &&
		catalog.TypeKey(params.At(1).Type()) == "*net/http.Request"
}

func isResponseWriter(t types.Type) bool {
	return catalog.TypeKey(t) == "net/http.ResponseWriter"
}

func isHeader(t types.Type) bool { return catalog.TypeKey(t) == "net/http.Header" }

// isProbe reports whether fn serves a health, liveness or readiness probe,
// by its name, its receiver's, its enclosing function's, or the route it is
// registered on.
func isProbe(fn *ssa.Function) bool {
	var names []string
	for f := fn; f != nil; f = f.Parent() {
		names = append(names, f.Name())
		if recv := f.Signature.Recv(); recv != nil {
			names = append(names, types.TypeString(recv.Type(), nil))
		}
	}
	for _, user := range registrations(fn) {
		for _, a := range user.Common().Args {
			names = append(names, constString(a))
		}
	}
	for _, n := range names {
		n = strings.ToLower(n)
		for _, w := range catalog.ProbeWords {
			if strings.Contains(n, w) {
				return true
			}
		}
	}
	return false
}

// registrations returns the calls that take the function literal fn as an
// argument: mux.HandleFunc("/healthz", func…).
func registrations(fn *ssa.Function) []ssa.CallInstruction {
	var vals []ssa.Value
	if parent := fn.Parent(); parent != nil {
		for _, b := range parent.Blocks {
			for _, instr := range b.Instrs {
				if mc, ok := instr.(*ssa.MakeClosure); ok && mc.Fn == fn {
					vals = append(vals, mc)
				}
			}
		}
		vals = append(vals, fn)
	}
	var out []ssa.CallInstruction
	for len(vals) > 0 {
		v := vals[0]
		vals = vals[1:]
		for _, r := range ssautil.Referrers(v) {
			switch r := r.(type) {
			case ssa.CallInstruction:
				out = append(out, r)
			case *ssa.ChangeType: // http.HandlerFunc(func…)
				vals = append(vals, r)
			case *ssa.MakeInterface: // mux.Handle("/readyz", http.HandlerFunc(func…))
				vals = append(vals, r)
			case *ssa.Store: // r.GET("/healthz", func(c *gin.Context){…}): a variadic slice
				if ia, ok := r.Addr.(*ssa.IndexAddr); ok && r.Val == v {
					for _, ref := range ssautil.Referrers(ia.X) {
						if sl, ok := ref.(*ssa.Slice); ok {
							vals = append(vals, sl)
						}
					}
				}
			}
		}
	}
	return out
}

// ---- Retry-After set, status written ----

// setsHere reports whether instr sets Retry-After: Header().Set/Add, a map
// assignment to the canonical key, or a call to a function that does.
func (c *checker) setsHere(instr ssa.Instruction) bool {
	switch instr := instr.(type) {
	case *ssa.MapUpdate:
		return isHeader(instr.Map.Type()) && constString(instr.Key) == catalog.RetryAfterHeader
	case *ssa.Call:
		common := instr.Common()
		if common.IsInvoke() {
			i, ok := catalog.FrameworkHeaderSet(catalog.Key(common.Method))
			return ok && i < len(common.Args) && isRetryAfter(common.Args[i])
		}
		callee := common.StaticCallee()
		if callee == nil {
			return false
		}
		if obj := funcObject(callee); obj != nil {
			key := catalog.Key(obj)
			switch key {
			case "(net/http.Header).Set", "(net/http.Header).Add":
				return len(common.Args) > 1 && isRetryAfter(common.Args[1])
			}
			if i, ok := catalog.FrameworkHeaderSet(key); ok { // c.Header("Retry-After", …)
				i += recvArgs(obj)
				return i < len(common.Args) && isRetryAfter(common.Args[i])
			}
		}
		return c.setsRetryAfter(callee)
	}
	return false
}

func isRetryAfter(name ssa.Value) bool {
	return isRetryAfterKey(constString(name))
}

// isRetryAfterKey reports whether a header key names Retry-After, as
// net/http's canonical form of it would: the canonical form changes only
// the case of ASCII letters, and the name has none that folds otherwise
// (no k, no s). The vet tool does not import net/http for this: it would
// link the network stack and, with cgo, make every one of its processes
// load the C library.
func isRetryAfterKey(key string) bool { return strings.EqualFold(key, catalog.RetryAfterHeader) }

// recvArgs is 1 for a method called statically, whose receiver is its first
// argument.
func recvArgs(fn *types.Func) int {
	if fn.Signature().Recv() != nil {
		return 1
	}
	return 0
}

// frameworkOf returns the web framework whose request context fn takes
// (echo.Context, *gin.Context), or recovers from a parameter of an interface
// type, or nil.
func frameworkOf(fn *ssa.Function) *catalog.HTTPFramework {
	takesInterface := false
	for _, p := range fn.Params {
		if f := frameworkOfType(p.Type()); f != nil {
			return f
		}
		takesInterface = takesInterface || types.IsInterface(p.Type())
	}
	if !takesInterface {
		return nil
	}
	return recoveredFramework(fn)
}

// frameworkOfType is the framework whose request context t is, or embeds:
// a project's own context (type Context struct{ echo.Context; service
// any }) is the framework's, and its promoted c.NoContent(429) writes the
// response as echo's does.
func frameworkOfType(t types.Type) *catalog.HTTPFramework {
	f, _ := ssautil.EmbeddedFind(t, 2, func(t types.Type) (*catalog.HTTPFramework, bool) {
		f := catalog.FrameworkOfContext(catalog.TypeKey(t))
		return f, f != nil
	})
	return f
}

// recoveredFramework returns the framework whose request context fn asserts
// one of its parameters to: a helper that takes the framework's context as a
// context.Context (or any) and recovers it inside
// (switch ctx := c.(type) { case *gin.Context: ctx.AbortWithStatusJSON(status, …) })
// writes the response as much as one that takes *gin.Context.
func recoveredFramework(fn *ssa.Function) *catalog.HTTPFramework {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			ta, ok := instr.(*ssa.TypeAssert)
			if !ok {
				continue
			}
			if _, isParam := ta.X.(*ssa.Parameter); !isParam {
				continue
			}
			if f := catalog.FrameworkOfContext(catalog.TypeKey(ta.AssertedType)); f != nil {
				return f
			}
		}
	}
	return nil
}

func (c *checker) setsRetryAfter(fn *ssa.Function) bool {
	fn = origin(fn)
	if obj := funcObject(fn); obj != nil && obj.Pkg() != nil && obj.Pkg() != c.pass.Pkg {
		return c.pass.ImportObjectFact(obj, new(SetsRetryAfter))
	}
	if done, ok := c.sets[fn]; ok {
		return done
	}
	if c.visiting[fn] || !takesWriter(fn) || isHandler(fn) {
		return false // a handler that sets the header is judged on its own
	}
	c.visiting[fn] = true
	defer delete(c.visiting, fn)
	found := false
	for _, b := range fn.Blocks {
		found = found || slices.ContainsFunc(b.Instrs, c.setsHere)
	}
	c.sets[fn] = found
	return found
}

func takesWriter(fn *ssa.Function) bool {
	for _, p := range fn.Params {
		if isResponseWriter(p.Type()) || isHeader(p.Type()) {
			return true
		}
	}
	return frameworkOf(fn) != nil
}

// statusWrite is an instruction that writes a response status.
type statusWrite struct {
	call   *ssa.Call
	status ssa.Value // nil when shed says what is written
	shed   string
	// returns are where a callee returns the shed status written, when
	// the status is a call's result.
	returns []shedReturn
}

// writeAt returns the status that instr writes, if it writes one.
func (c *checker) writeAt(instr ssa.Instruction) (statusWrite, bool) {
	call, ok := instr.(*ssa.Call)
	if !ok {
		return statusWrite{}, false
	}
	common := call.Common()
	if common.IsInvoke() {
		if isWriteHeader(common.Method) && len(common.Args) == 1 {
			return statusWrite{call: call, status: common.Args[0]}, true
		}
		if i, ok := catalog.FrameworkStatusWrite(catalog.Key(common.Method)); ok && i < len(common.Args) { // c.JSON(429, …)
			return statusWrite{call: call, status: common.Args[i]}, true
		}
		return statusWrite{}, false
	}
	callee := common.StaticCallee()
	if callee == nil {
		return statusWrite{}, false
	}
	obj := funcObject(callee)
	if obj != nil {
		if i, ok := catalog.FrameworkStatusWrite(catalog.Key(obj)); ok && i+recvArgs(obj) < len(common.Args) { // c.AbortWithStatus(503)
			return statusWrite{call: call, status: common.Args[i+recvArgs(obj)]}, true
		}
	}
	switch {
	case obj != nil && catalog.Key(obj) == "context.WithValue" && len(common.Args) == 3 && statusContextKey(common.Args[1]):
		return statusWrite{call: call, status: unboxed(common.Args[2])}, true // go-chi/render writes it
	case obj != nil && catalog.Key(obj) == "net/http.Error" && len(common.Args) == 3:
		return statusWrite{call: call, status: common.Args[2]}, true
	case obj != nil && isWriteHeader(obj) && len(common.Args) == 2:
		return statusWrite{call: call, status: common.Args[1]}, true
	}
	if f := c.writesStatus(callee); f != nil {
		if f.Shed != "" {
			return statusWrite{call: call, shed: f.Shed}, true
		}
		if f.StatusParam < len(common.Args) {
			return statusWrite{call: call, status: common.Args[f.StatusParam]}, true
		}
	}
	return statusWrite{}, false
}

// statusContextKey reports whether v is a framework's package-level key for
// the status a handler stores in the request's context.
func statusContextKey(v ssa.Value) bool {
	load, ok := unboxed(v).(*ssa.UnOp)
	if !ok {
		return false
	}
	g, ok := load.X.(*ssa.Global)
	return ok && g.Pkg != nil && catalog.IsStatusContextKey(g.Pkg.Pkg.Path()+"."+g.Name())
}

// unboxed is v without the conversion to an interface it was made for a
// parameter of type any.
func unboxed(v ssa.Value) ssa.Value {
	if mi, ok := v.(*ssa.MakeInterface); ok {
		return mi.X
	}
	return v
}

func isWriteHeader(fn *types.Func) bool {
	sig := fn.Signature()
	return fn.Name() == "WriteHeader" && sig.Params().Len() == 1 && types.TypeString(sig.Params().At(0).Type(), nil) == "int"
}

// writesStatus returns what fn writes without setting Retry-After first.
func (c *checker) writesStatus(fn *ssa.Function) *WritesStatus {
	fn = origin(fn)
	if obj := funcObject(fn); obj != nil && obj.Pkg() != nil && obj.Pkg() != c.pass.Pkg {
		var fact WritesStatus
		if c.pass.ImportObjectFact(obj, &fact) {
			return &fact
		}
		return nil
	}
	if f, ok := c.writes[fn]; ok {
		return f
	}
	if c.visiting[fn] || !takesWriter(fn) || isHandler(fn) || len(fn.Blocks) == 0 {
		return nil // a handler is checked, and reported, on its own
	}
	c.visiting[fn] = true
	defer delete(c.visiting, fn)
	var fact *WritesStatus
	framework := frameworkOf(fn) != nil
	c.eachUnsetWrite(fn, func(w statusWrite, status string) {
		if fact != nil {
			return
		}
		switch p, isParam := w.status.(*ssa.Parameter); {
		case w.returns != nil:
			// A status decided by a callee: reported at its return by
			// the handlers that write it.
		case status != "" && writeGuard(fn, w) != "":
			// A shed chosen from the identity of the error passed in:
			// reported at this write (checkErrorHelper), not at the calls.
		case status != "" && framework:
			// A framework function's own shed is reported where it is
			// written: it has a handler's signature, or is a helper that
			// decided the shed.
		case status != "":
			fact = &WritesStatus{StatusParam: -1, Shed: status}
		case isParam:
			fact = &WritesStatus{StatusParam: slices.Index(fn.Params, p)}
		}
	})
	c.writes[fn] = fact
	return fact
}

func (c *checker) exportFacts(fn *ssa.Function) {
	obj := funcObject(fn)
	if obj == nil || fn.Parent() != nil {
		return
	}
	if c.setsRetryAfter(fn) {
		c.pass.ExportObjectFact(obj, new(SetsRetryAfter))
	}
	if f := c.writesStatus(fn); f != nil {
		c.pass.ExportObjectFact(obj, f)
	}
	c.exportReturnsShed(fn, obj)
}

// ---- paths ----

// eachUnsetWrite calls report for each status write in fn reached on a path
// where Retry-After was not set before it, with the shed status written (""
// when the status is fn's parameter or not a shed status).
func (c *checker) eachUnsetWrite(fn *ssa.Function, report func(statusWrite, string)) {
	if len(fn.Blocks) == 0 {
		return
	}
	h := c.headerPathsOf(fn)
	setIn, unsetOut, unsetAtEntry := h.setIn, h.unsetOut, h.unsetAtEntry
	for _, b := range fn.Blocks {
		for i, instr := range b.Instrs {
			w, ok := c.writeAt(instr)
			if !ok || (setIn[b] >= 0 && setIn[b] <= i) { // a helper that sets the header and writes counts as setting first
				continue
			}
			if decidedByConfig(fn, b) {
				continue // a feature switched off: no shed (configguard.go)
			}
			if w.shed != "" {
				if unsetAtEntry(b) {
					report(w, w.shed)
				}
				continue
			}
			if _, isParam := w.status.(*ssa.Parameter); isParam && unsetAtEntry(b) {
				report(w, "")
				continue
			}
			if status := shedOnUnsetPath(w.status, b, unsetOut, unsetAtEntry); status != "" {
				report(w, status)
				continue
			}
			if status := c.tableShed(w.status); status != "" && unsetAtEntry(b) {
				report(w, status)
				continue
			}
			if call, index, ok := statusResult(w.status); ok && unsetAtEntry(b) {
				if w.returns = c.shedReturns(call, index, b); len(w.returns) > 0 {
					report(w, w.returns[0].status)
				}
			}
		}
	}
}

// headerPaths says, for the blocks of one function, where Retry-After is
// set: the index of the first set in each block (-1 if none), and the
// blocks some path from the entry leaves with it unset.
type headerPaths struct {
	entry    *ssa.BasicBlock
	setIn    map[*ssa.BasicBlock]int
	unsetOut map[*ssa.BasicBlock]bool
}

// headerPathsOf computes the headerPaths of fn, which has blocks.
func (c *checker) headerPathsOf(fn *ssa.Function) headerPaths {
	h := headerPaths{entry: fn.Blocks[0], setIn: map[*ssa.BasicBlock]int{}}
	for _, b := range fn.Blocks {
		h.setIn[b] = slices.IndexFunc(b.Instrs, c.setsHere)
	}
	h.unsetOut = unsetAtExit(fn, h.setIn)
	return h
}

// unsetAtEntry reports whether some path reaches b with Retry-After unset.
func (h headerPaths) unsetAtEntry(b *ssa.BasicBlock) bool {
	return b == h.entry || slices.ContainsFunc(b.Preds, func(p *ssa.BasicBlock) bool { return h.unsetOut[p] })
}

// setBefore reports whether Retry-After is set on every path to
// instruction i of block b.
func (h headerPaths) setBefore(b *ssa.BasicBlock, i int) bool {
	return h.setIn[b] >= 0 && h.setIn[b] < i || !h.unsetAtEntry(b)
}

// unsetAtExit computes, for each block, whether some path from the entry
// leaves it without Retry-After having been set.
func unsetAtExit(fn *ssa.Function, setIn map[*ssa.BasicBlock]int) map[*ssa.BasicBlock]bool {
	out := map[*ssa.BasicBlock]bool{}
	work := []*ssa.BasicBlock{fn.Blocks[0]}
	entry := fn.Blocks[0]
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		in := b == entry || slices.ContainsFunc(b.Preds, func(p *ssa.BasicBlock) bool { return out[p] })
		if in && setIn[b] < 0 && !out[b] {
			out[b] = true
			work = append(work, b.Succs...)
		}
	}
	return out
}

// shedOnUnsetPath returns the shed status v can hold on a path where
// Retry-After was not set, or "". A status chosen by a phi in the writing
// block is followed edge by edge, so `status = 503` set together with the
// header on one branch is not blamed for the other branch's missing header.
func shedOnUnsetPath(v ssa.Value, b *ssa.BasicBlock, unsetOut map[*ssa.BasicBlock]bool, unsetAtEntry func(*ssa.BasicBlock) bool) string {
	if phi, ok := v.(*ssa.Phi); ok && phi.Block() == b {
		for k, e := range phi.Edges {
			if s := shedStatus(e, map[ssa.Value]bool{}); s != "" && unsetOut[b.Preds[k]] {
				return s
			}
		}
		return ""
	}
	if !unsetAtEntry(b) {
		return ""
	}
	return shedStatus(v, map[ssa.Value]bool{})
}

// shedStatus returns the 429 or 503 that v can hold, or "".
func shedStatus(v ssa.Value, seen map[ssa.Value]bool) string {
	if seen[v] {
		return ""
	}
	seen[v] = true
	switch v := v.(type) {
	case *ssa.Const:
		if v.Value != nil && v.Value.Kind() == constant.Int {
			if n, ok := constant.Int64Val(v.Value); ok {
				return catalog.ShedStatuses[n]
			}
		}
	case *ssa.Phi:
		for _, e := range v.Edges {
			if s := shedStatus(e, seen); s != "" {
				return s
			}
		}
	case *ssa.Convert:
		return shedStatus(v.X, seen)
	}
	return ""
}

// ---- reporting ----

func (c *checker) checkHandler(fn *ssa.Function) {
	if isProbe(fn) {
		return
	}
	c.eachUnsetWrite(fn, func(w statusWrite, status string) {
		if status == "" {
			return
		}
		set := `w.Header().Set("Retry-After", "5")`
		if f := frameworkOf(fn); f != nil {
			set = f.SetRetryAfter
		}
		if w.returns != nil {
			c.reportShedReturns(fn, w, set)
			return
		}
		pos := c.callStart(w.call.Pos())
		if !pos.IsValid() {
			return
		}
		c.pass.Report(analysis.Diagnostic{
			Pos: pos,
			Message: fmt.Sprintf("%s: %s writes %s on a path where Retry-After was not set; set %s before writing it, so clients wait before retrying instead of retrying at once",
				Code, handlerName(fn), status, set),
			SuggestedFixes: c.retryAfterFix(pos),
		})
	})
}

// retryAfterFix offers to set Retry-After: 5 just before the statement that
// writes the status, when that statement is the write itself
// (w.WriteHeader(503), http.Error(w, msg, 503)) with a constant status; a
// status chosen at run time could be a 200, which must not carry it.
func (c *checker) retryAfterFix(pos token.Pos) []analysis.SuggestedFix {
	stmt, writer := c.constantWriteAt(pos)
	if stmt == nil {
		return nil
	}
	tf := c.pass.Fset.File(pos)
	content, err := c.pass.ReadFile(tf.Name())
	if err != nil {
		return nil
	}
	lineStart := tf.Offset(tf.LineStart(tf.Line(stmt.Pos())))
	indent := string(content[lineStart:tf.Offset(stmt.Pos())])
	if strings.TrimLeft(indent, " \t") != "" {
		return nil // the write shares its line with other code
	}
	text := fmt.Sprintf("%s.Header().Set(\"Retry-After\", \"5\")\n%s", types.ExprString(writer), indent)
	return []analysis.SuggestedFix{{
		Message:   "set Retry-After: 5 before writing the status",
		TextEdits: []analysis.TextEdit{{Pos: stmt.Pos(), End: stmt.Pos(), NewText: []byte(text)}},
	}}
}

// constantWriteAt finds the statement whose call, starting at pos, writes a
// constant status, and the ResponseWriter it writes to.
func (c *checker) constantWriteAt(pos token.Pos) (ast.Stmt, ast.Expr) {
	var stmt ast.Stmt
	var writer ast.Expr
	for _, f := range c.pass.Files {
		if pos < f.FileStart || pos > f.FileEnd {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			es, ok := n.(*ast.ExprStmt)
			if !ok || stmt != nil {
				return stmt == nil
			}
			call, ok := es.X.(*ast.CallExpr)
			if !ok || call.Pos() != pos {
				return true
			}
			if w, status := c.writerAndStatus(call); w != nil && c.isConstant(status) {
				stmt, writer = es, w
			}
			return false
		})
	}
	return stmt, writer
}

func (c *checker) writerAndStatus(call *ast.CallExpr) (writer, status ast.Expr) {
	switch fun := ast.Unparen(call.Fun).(type) {
	case *ast.SelectorExpr:
		if fun.Sel.Name == "WriteHeader" && len(call.Args) == 1 {
			return fun.X, call.Args[0]
		}
		if obj, ok := c.pass.TypesInfo.Uses[fun.Sel].(*types.Func); ok && obj.FullName() == "net/http.Error" && len(call.Args) == 3 {
			return call.Args[0], call.Args[2]
		}
	}
	return nil, nil
}

func (c *checker) isConstant(x ast.Expr) bool {
	tv, ok := c.pass.TypesInfo.Types[x]
	return ok && tv.Value != nil
}

func handlerName(fn *ssa.Function) string {
	if fn.Parent() != nil {
		outer := fn.Parent()
		for outer.Parent() != nil { // a literal in a literal: name the declared function
			outer = outer.Parent()
		}
		return "the handler literal in " + strings.TrimPrefix(handlerName(outer), "handler ")
	}
	if recv := fn.Signature.Recv(); recv != nil {
		return "handler (" + types.TypeString(recv.Type(), func(p *types.Package) string { return p.Name() }) + ")." + fn.Name()
	}
	return "handler " + fn.Name()
}

func (c *checker) callStart(lparen token.Pos) token.Pos {
	return c.starts.Start(c.pass.Files, lparen)
}

// ---- small helpers ----

func origin(fn *ssa.Function) *ssa.Function { return ssautil.Origin(fn) }

func funcObject(fn *ssa.Function) *types.Func {
	obj, _ := origin(fn).Object().(*types.Func)
	return obj
}

func constString(v ssa.Value) string {
	if k, ok := v.(*ssa.Const); ok && k.Value != nil && k.Value.Kind() == constant.String {
		return constant.StringVal(k.Value)
	}
	return ""
}
