package retryafter

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/guard"
	"github.com/bhlint/bhlint/internal/lazyssa"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// ShedError marks a function that always returns a gRPC status error with a
// shed code and no retry guidance — a constructor, whose callers are judged
// where they return what it builds — or a package-level variable that holds
// one (a sentinel). The code is Code, or the one passed as parameter
// CodeParam (-1 if none).
type ShedError struct {
	Code      string
	CodeParam int
	Response  bool // a response value (response.go), not an error
}

// AFact marks ShedError as an analysis fact.
func (*ShedError) AFact() {}

func (f *ShedError) String() string {
	if f.Code != "" {
		return "shedError(" + f.Code + ")"
	}
	return fmt.Sprintf("shedError(code param %d)", f.CodeParam)
}

// shed is a shed gRPC error that a value can hold: where it is built (NoPos
// for a sentinel, reported where it is returned), its code, or the parameter
// of the enclosing function that chooses the code.
type shed struct {
	site     token.Pos
	block    *ssa.BasicBlock // the block that builds it, nil for a sentinel
	code     string
	param    int
	sentinel string
	decl     token.Pos // where the sentinel is declared
	refusal  string    // for a refusal code: the admission check that failed
	response bool      // a response value (response.go), not an error
}

// builtIn records the block that builds each shed that has none yet.
func builtIn(sheds []shed, b *ssa.BasicBlock) []shed {
	for i := range sheds {
		if sheds[i].block == nil && sheds[i].sentinel == "" {
			sheds[i].block = b
		}
	}
	return sheds
}

type grpcChecker struct {
	*checker
	pkg      *ssa.Package
	ctors    map[*ssa.Function]*ShedError
	visiting map[*ssa.Function]bool
	globals  map[*ssa.Global]string
	stores   map[*ssa.Global][]ssa.Value // initStores'
	carries  map[*types.TypeName]*CarriesShed
	httpPkgs map[*types.Package]bool // httpErrorType's
	reported map[token.Pos]bool
}

func (c *checker) runShedErrors(pkg *ssa.Package, funcs []*ssa.Function) {
	g := &grpcChecker{checker: c, pkg: pkg, ctors: map[*ssa.Function]*ShedError{},
		visiting: map[*ssa.Function]bool{}, globals: map[*ssa.Global]string{}, reported: map[token.Pos]bool{},
		carries: map[*types.TypeName]*CarriesShed{}, httpPkgs: map[*types.Package]bool{}}
	g.exportCarriesShed(funcs)
	for _, m := range pkg.Members {
		if glob, ok := m.(*ssa.Global); ok {
			if code := g.sentinel(glob); code != "" {
				c.pass.ExportObjectFact(glob.Object(), &ShedError{Code: code, CodeParam: -1})
			}
		}
	}
	for _, fn := range funcs {
		if obj := funcObject(fn); obj != nil && fn.Parent() == nil {
			guard.At(fn.Pos(), func() {
				if f := g.ctor(fn); f != nil {
					c.pass.ExportObjectFact(obj, f)
				}
			})
		}
	}
	if lazyssa.FactsOnly() {
		return // what follows only reports
	}
	for _, fn := range funcs {
		if (returnsError(fn) || returnsResponse(fn)) && lazyssa.Fits(c.pass, Code, fn) {
			guard.At(fn.Pos(), func() { g.check(fn) })
		}
	}
}

// resultIndex is the result of call that can hold a shed error: the status
// of WithDetails (its error says the details were bad), the last otherwise.
func resultIndex(call *ssa.Call) int {
	if callee := call.Call.StaticCallee(); callee != nil && funcObject(callee) != nil && catalog.Key(funcObject(callee)) == catalog.GRPCWithDetails {
		return 0
	}
	return call.Call.Signature().Results().Len() - 1
}

// returnsError reports whether fn's last result is an error, or a type
// that implements it (func NewApiError(…) *ApiError).
func returnsError(fn *ssa.Function) bool {
	res := fn.Signature.Results()
	return res.Len() > 0 && types.Implements(res.At(res.Len()-1).Type(), errorType)
}

// ---- what a returned error holds ----

// shedsOf returns the shed errors v can hold.
func (g *grpcChecker) shedsOf(fn *ssa.Function, v ssa.Value, seen map[ssa.Value]bool) []shed {
	if seen[v] {
		return nil
	}
	seen[v] = true
	switch v := v.(type) {
	case *ssa.MakeInterface:
		if out := g.valueSheds(v); len(out) > 0 { // TooManyRequestsError{}
			return builtIn(out, v.Block())
		}
		return g.shedsOf(fn, v.X, seen)
	case *ssa.ChangeInterface:
		return g.shedsOf(fn, v.X, seen)
	case *ssa.ChangeType:
		return g.shedsOf(fn, v.X, seen)
	case *ssa.Phi:
		var out []shed
		for _, e := range v.Edges {
			out = append(out, g.shedsOf(fn, e, seen)...)
		}
		return out
	case *ssa.Extract:
		// The error result of a call, or the status of WithDetails.
		if call, ok := v.Tuple.(*ssa.Call); ok && v.Index == resultIndex(call) {
			return builtIn(g.callSheds(fn, call, seen), call.Block())
		}
	case *ssa.Call:
		return builtIn(g.callSheds(fn, v, seen), v.Block())
	case *ssa.Alloc: // &serviceerror.ResourceExhausted{…}, &ApiError{Status: 429}
		if code := catalog.GRPCShedErrorTypes[catalog.TypeKey(v.Type())]; code != "" {
			return []shed{{site: v.Pos(), block: v.Block(), code: "gRPC " + code, param: -1}}
		}
		return builtIn(g.statusFieldSheds(fn, v), v.Block())
	case *ssa.UnOp:
		if alloc, ok := v.X.(*ssa.Alloc); ok && v.Op == token.MUL {
			if out := g.storedSheds(fn, alloc, seen); len(out) > 0 {
				return out
			}
			return builtIn(g.statusFieldSheds(fn, alloc), alloc.Block()) // ApiError{Status: 429}, a value
		}
		if glob, ok := v.X.(*ssa.Global); ok && v.Op == token.MUL {
			if code := g.sentinel(glob); code != "" {
				return []shed{{code: code, param: -1, sentinel: glob.Name(), decl: glob.Pos()}}
			}
		}
	}
	return nil
}

// storedSheds returns the sheds stored in a local: a named result, which
// a function with a deferred call returns through (return nil, err stores
// err there, runs the defers and loads it back).
func (g *grpcChecker) storedSheds(fn *ssa.Function, alloc *ssa.Alloc, seen map[ssa.Value]bool) []shed {
	var out []shed
	for _, r := range ssautil.Referrers(alloc) {
		if st, ok := r.(*ssa.Store); ok && st.Addr == alloc {
			out = append(out, g.shedsOf(fn, st.Val, seen)...)
		}
	}
	return out
}

// callSheds returns the shed errors that call returns as its last result:
// a status built with a shed code, a catalogued framework constructor, or a
// constructor known by its ShedError fact.
func (g *grpcChecker) callSheds(fn *ssa.Function, call *ssa.Call, seen map[ssa.Value]bool) []shed {
	callee := call.Call.StaticCallee()
	if callee == nil {
		return nil
	}
	args := call.Call.Args
	site := g.callStart(call.Pos())
	obj := funcObject(callee)
	if obj == nil {
		return nil
	}
	key := catalog.Key(obj)
	if i, ok := catalog.GRPCStatusBuilders[key]; ok && i < len(args) {
		return g.codeSheds(fn, args[i], site)
	}
	switch key {
	case catalog.GRPCStatusErr:
		return g.shedsOf(fn, args[0], seen)
	case catalog.GRPCWithDetails:
		if len(args) < 2 || mayHoldRetryInfo(args[1]) {
			return nil
		}
		return g.shedsOf(fn, args[0], seen)
	}
	if code := catalog.GRPCShedConstructors[key]; code != "" {
		return []shed{{site: site, code: "gRPC " + code, param: -1}}
	}
	if f := g.ctor(callee); f != nil {
		if f.Code != "" {
			return []shed{{site: site, code: f.Code, param: -1, response: f.Response}}
		}
		if f.CodeParam < len(args) {
			sheds := g.codeSheds(fn, args[f.CodeParam], site)
			for i := range sheds {
				sheds[i].response = f.Response
			}
			return sheds
		}
	}
	return nil
}

// codeSheds returns the shed built at site with the code v: a shed gRPC
// code or HTTP status constant, or fn's parameter.
func (g *grpcChecker) codeSheds(fn *ssa.Function, v ssa.Value, site token.Pos) []shed {
	if p, ok := v.(*ssa.Parameter); ok {
		return []shed{{site: site, param: slices.Index(fn.Params, p)}}
	}
	if code := shedCode(v, map[ssa.Value]bool{}); code != "" {
		return []shed{{site: site, code: "gRPC " + code, param: -1}}
	}
	if status := shedStatus(v, map[ssa.Value]bool{}); status != "" && catalog.TypeKey(v.Type()) != catalog.GRPCCodeType {
		return []shed{{site: site, code: "HTTP " + status, param: -1}}
	}
	return nil
}

// shedCode returns the shed gRPC code that v can hold, or "".
func shedCode(v ssa.Value, seen map[ssa.Value]bool) string {
	if seen[v] {
		return ""
	}
	seen[v] = true
	switch v := v.(type) {
	case *ssa.Const:
		if catalog.TypeKey(v.Type()) == catalog.GRPCCodeType && v.Value != nil {
			if code := catalog.GRPCShedCodes[v.Int64()]; code != "" {
				return code
			}
			return catalog.GRPCRefusalCodes[v.Int64()]
		}
	case *ssa.Phi:
		for _, e := range v.Edges {
			if s := shedCode(e, seen); s != "" {
				return s
			}
		}
	}
	return ""
}

// mayHoldRetryInfo reports whether the details passed to WithDetails may
// include a RetryInfo: one stored in the variadic slice, or a slice the pass
// cannot see into (given the benefit of the doubt).
func mayHoldRetryInfo(details ssa.Value) bool {
	sl, ok := details.(*ssa.Slice)
	if !ok {
		return !ssautil.IsNil(details)
	}
	for _, r := range ssautil.Referrers(sl.X) {
		ia, ok := r.(*ssa.IndexAddr)
		if !ok {
			continue
		}
		for _, r := range ssautil.Referrers(ia) {
			st, ok := r.(*ssa.Store)
			if !ok {
				continue
			}
			val := st.Val
			if mi, ok := val.(*ssa.MakeInterface); ok {
				val = mi.X
			}
			if catalog.TypeKey(val.Type()) == catalog.GRPCRetryInfoType || types.IsInterface(val.Type()) {
				return true
			}
		}
	}
	return false
}

// sentinel returns the shed code of the error a package-level variable
// holds: one this package initialises, or another's by its fact.
func (g *grpcChecker) sentinel(glob *ssa.Global) string {
	if code, ok := g.globals[glob]; ok {
		return code
	}
	g.globals[glob] = ""
	if glob.Pkg != g.pkg {
		var f ShedError
		if obj := glob.Object(); obj != nil && g.pass.ImportObjectFact(obj, &f) {
			g.globals[glob] = f.Code
		}
		return g.globals[glob]
	}
	init := g.pkg.Func("init")
	if init == nil {
		return ""
	}
	for _, val := range g.initStores(init)[glob] {
		for _, s := range g.shedsOf(init, val, map[ssa.Value]bool{}) {
			if s.code != "" {
				g.globals[glob] = s.code
			}
		}
	}
	return g.globals[glob]
}

// initStores are the values init stores in each global of the package, in
// order, found in one pass: a generated package has hundreds of globals and
// an init as long, and one pass per global was quadratic.
func (g *grpcChecker) initStores(init *ssa.Function) map[*ssa.Global][]ssa.Value {
	if g.stores == nil {
		g.stores = map[*ssa.Global][]ssa.Value{}
		for _, b := range init.Blocks {
			for _, instr := range b.Instrs {
				if st, ok := instr.(*ssa.Store); ok {
					if glob, ok := st.Addr.(*ssa.Global); ok {
						g.stores[glob] = append(g.stores[glob], st.Val)
					}
				}
			}
		}
	}
	return g.stores
}

// ctor returns fn's ShedError fact: fn takes no context (a method serving a
// request is judged, not trusted to be a constructor) and returns a shed
// error, with the same code or code parameter, on every return.
func (g *grpcChecker) ctor(fn *ssa.Function) *ShedError {
	fn = origin(fn)
	if obj := funcObject(fn); obj != nil && obj.Pkg() != nil && obj.Pkg() != g.pass.Pkg {
		var f ShedError
		if g.pass.ImportObjectFact(obj, &f) {
			return &f
		}
		return nil
	}
	if f, ok := g.ctors[fn]; ok {
		return f
	}
	if g.visiting[fn] || !returnsError(fn) && !returnsResponse(fn) || takesContext(fn) || len(fn.Blocks) == 0 {
		return nil
	}
	g.visiting[fn] = true
	defer delete(g.visiting, fn)
	var fact *ShedError
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		sheds := g.shedsOf(fn, ret.Results[len(ret.Results)-1], map[ssa.Value]bool{})
		if len(sheds) != 1 {
			fact = nil
			break
		}
		f := &ShedError{Code: sheds[0].code, CodeParam: sheds[0].param, Response: sheds[0].response}
		if fact != nil && *fact != *f {
			fact = nil
			break
		}
		fact = f
	}
	g.ctors[fn] = fact
	return fact
}

// takesContext reports whether fn serves a request: a parameter other than
// the receiver is a context (context.Context, echo.Context, *gin.Context,
// *fiber.Ctx), a request or request event (*http.Request, pocketbase's
// *core.RequestEvent), or a ResponseWriter. A method of the request event
// itself (e.TooManyRequestsError(…)) can still be a constructor.
func takesContext(fn *ssa.Function) bool {
	params := fn.Params
	if fn.Signature.Recv() != nil && len(params) > 0 {
		params = params[1:]
	}
	for _, p := range params {
		t := p.Type()
		if ptr, ok := t.(*types.Pointer); ok {
			t = ptr.Elem()
		}
		named, ok := types.Unalias(t).(*types.Named)
		if !ok {
			continue
		}
		name := named.Obj().Name()
		if name == "Context" || name == "Ctx" || name == "ResponseWriter" || strings.Contains(name, "Request") {
			return true
		}
	}
	return false
}

// ---- retry guidance and reporting ----

// guidesHere reports whether instr sends the pushback trailer: a call that
// sends metadata, in a function that names the pushback key.
func guidesHere(mentions bool) func(ssa.Instruction) bool {
	return func(instr ssa.Instruction) bool {
		call, ok := instr.(ssa.CallInstruction)
		if !mentions || !ok {
			return false
		}
		common := call.Common()
		if common.IsInvoke() {
			return catalog.GRPCSendMetadata.Has(common.Method)
		}
		callee := common.StaticCallee()
		return callee != nil && catalog.GRPCSendMetadata.Has(funcObject(callee))
	}
}

func mentionsPushback(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			for _, op := range instr.Operands(nil) {
				if op != nil && constString(*op) == catalog.GRPCPushbackKey {
					return true
				}
			}
		}
	}
	return false
}

// check reports the shed errors fn returns on a path where it sent no
// pushback trailer, where they are built, or, for a sentinel, where it is
// returned. A constructor is not reported: its callers are.
func (g *grpcChecker) check(fn *ssa.Function) {
	if len(fn.Blocks) == 0 || inTestFile(g.pass, fn) || isProbe(fn) || returnsHealth(fn) || (fn.Parent() == nil && g.ctor(fn) != nil) {
		return
	}
	setIn := map[*ssa.BasicBlock]int{}
	pushback := guidesHere(mentionsPushback(fn))
	guides := func(instr ssa.Instruction) bool { return pushback(instr) || g.setsHere(instr) }
	for _, b := range fn.Blocks {
		setIn[b] = slices.IndexFunc(b.Instrs, guides)
	}
	unsetOut := unsetAtExit(fn, setIn)
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok || setIn[b] >= 0 {
			continue
		}
		errv := ret.Results[len(ret.Results)-1]
		type returned struct {
			v    ssa.Value
			from *ssa.BasicBlock // where a sentinel is returned from
		}
		var vals []returned
		if phi, ok := errv.(*ssa.Phi); ok && phi.Block() == b {
			for k, e := range phi.Edges {
				if unsetOut[b.Preds[k]] {
					vals = append(vals, returned{e, b.Preds[k]})
				}
			}
		} else if b == fn.Blocks[0] || slices.ContainsFunc(b.Preds, func(p *ssa.BasicBlock) bool { return unsetOut[p] }) {
			vals = append(vals, returned{errv, b})
		}
		for _, r := range vals {
			for _, s := range g.shedsOf(fn, r.v, map[ssa.Value]bool{}) {
				if isRefusalCode(s.code) {
					at := s.block
					if at == nil {
						at = r.from
					}
					if s.refusal = failedAdmission(at); s.refusal == "" {
						continue // Unavailable for a failure, not a refusal
					}
				}
				g.report(fn, ret, s)
			}
		}
	}
}

func (g *grpcChecker) report(fn *ssa.Function, ret *ssa.Return, s shed) {
	if s.code == "" {
		return // the code is the caller's choice: the caller is judged
	}
	pos, what := s.site, "builds"
	var related []analysis.RelatedInformation
	if s.sentinel != "" {
		pos, what = ret.Pos(), "returns "+s.sentinel+", which holds"
		if s.decl.IsValid() {
			related = append(related, analysis.RelatedInformation{Pos: s.decl, Message: s.sentinel + " is declared here"})
		}
	}
	if !pos.IsValid() { // an implicit conversion: TooManyRequestsError{} returned
		pos, what = ret.Pos(), "returns"
	}
	if !pos.IsValid() || g.reported[pos] {
		return
	}
	g.reported[pos] = true
	fix := fmt.Sprintf("attach a RetryInfo detail (status.New(…).WithDetails(&errdetails.RetryInfo{RetryDelay: …})) or send the %s trailer", catalog.GRPCPushbackKey)
	if strings.HasPrefix(s.code, "HTTP ") {
		fix = "set the Retry-After header on the response before returning it"
	}
	value := "an error"
	if s.response {
		value = "a response"
	}
	g.pass.Report(analysis.Diagnostic{
		Pos: pos,
		Message: fmt.Sprintf("%s: %s %s %s carrying %s%s, returned without retry guidance; %s, so clients wait before retrying instead of retrying at once",
			Code, funcName(fn), what, value, s.code, refusalNote(s.refusal), fix),
		Related: related,
	})
}

// returnsHealth reports whether fn answers the standard health service.
func returnsHealth(fn *ssa.Function) bool {
	res := fn.Signature.Results()
	for i := range res.Len() {
		if catalog.TypeKey(res.At(i).Type()) == catalog.GRPCHealthResult {
			return true
		}
	}
	return false
}

func funcName(fn *ssa.Function) string {
	if fn.Parent() != nil {
		return "the function literal in " + funcName(fn.Parent())
	}
	if recv := fn.Signature.Recv(); recv != nil {
		return "(" + types.TypeString(recv.Type(), func(p *types.Package) string { return p.Name() }) + ")." + fn.Name()
	}
	return fn.Name()
}

// inTestFile reports whether fn is declared in a _test.go file, where a fake
// server returns ResourceExhausted to exercise its caller.
func inTestFile(pass *analysis.Pass, fn *ssa.Function) bool {
	return strings.HasSuffix(pass.Fset.Position(fn.Pos()).Filename, "_test.go")
}
