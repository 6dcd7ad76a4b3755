package unboundedqueue

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/entrypoints"
	"github.com/bhlint/bhlint/internal/lazyssa"
	"github.com/bhlint/bhlint/internal/netio"
	"github.com/bhlint/bhlint/internal/pkgscope"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// mutexLocks take a mutex for writing: every other Lock waits, in a queue
// with no bound and no deadline. RLock is not one: readers share it.
var mutexLocks = catalog.NewTable("(*sync.Mutex).Lock", "(*sync.RWMutex).Lock")

// mutexUnlocks give it back.
var mutexUnlocks = catalog.NewTable("(*sync.Mutex).Unlock", "(*sync.RWMutex).Unlock")

// requestFrame is what is known of a function that runs on a request's
// path: the per-request function it was reached from, and its parameters
// and free variables that hold a value outliving the request (the
// handler's receiver, what the handler captures, their fields).
type requestFrame struct {
	entry  *ssa.Function
	shared map[ssa.Value]bool
	funcs  map[ssa.Value]string // parameters and free variables holding a function that waits on the network, and how
}

// frameIn is what enter adds to a function's frame.
type frameIn struct {
	shared []ssa.Value
	funcs  map[ssa.Value]string
}

// mutexKey names one mutex within a function: the value it is reached
// from and the path of fields and loads from there.
type mutexKey struct {
	root ssa.Value
	path string
}

// checkMutexesPerRequest finds, on a request's path, a Lock of a mutex
// every request shares held across a network wait (shape 9): a mutex is a
// pool of one whose queue has no bound and no deadline, so while one
// request waits on the network every other request waits on the mutex,
// each behind all the earlier ones' network calls.
func (c *checker) checkMutexesPerRequest() {
	if !c.serving || !c.usesMutexLock() || !pkgscope.Reaches(c.pass.Pkg, catalog.NetworkPackages) {
		return
	}
	locks, lockFrames := onRequestPath(c, func(call *ssa.Call, fr *requestFrame) bool { return c.sharedLock(call, fr) })
	var starts ssautil.CallStarts
	for _, lock := range locks {
		if wait, via := c.heldAcrossNetwork(lock, lockFrames[lock]); wait != nil {
			c.reportMutex(&starts, lock, wait, via, lockFrames[lock].entry, locks)
		}
	}
}

// onRequestPath returns the instructions of type I on a request's path,
// outside test files, that keep accepts, in source order, with the frame
// of the function each is in.
func onRequestPath[I interface {
	ssa.Instruction
	comparable
}](c *checker, keep func(I, *requestFrame) bool) ([]I, map[I]*requestFrame) {
	var found []I
	frameOf := map[I]*requestFrame{}
	for fn, fr := range c.requestPathFrames() {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if x, ok := instr.(I); ok && keep(x, fr) && !c.inTestFile(x.Pos()) {
					found = append(found, x)
					frameOf[x] = fr
				}
			}
		}
	}
	sort.Slice(found, func(i, j int) bool { return found[i].Pos() < found[j].Pos() })
	return found, frameOf
}

// requestPathFrames are the package's functions on a request's path, with
// what each knows (requestFrames from requestRoots), computed once for the
// shapes that read them.
func (c *checker) requestPathFrames() map[*ssa.Function]*requestFrame {
	if c.frames == nil {
		builder := c.pass.ResultOf[lazyssa.Analyzer].(*lazyssa.Builder)
		c.learnNetworkWaits(true)
		c.frames = c.requestFrames(c.requestRoots(builder.SrcFuncs()))
	}
	return c.frames
}

func (c *checker) inTestFile(pos token.Pos) bool {
	return pos.IsValid() && strings.HasSuffix(c.pass.Fset.File(pos).Name(), "_test.go")
}

// usesMutexLock reports whether the package calls a mutex's Lock at all:
// most packages do not, and need no SSA for this shape.
func (c *checker) usesMutexLock() bool {
	return pkgscope.UsesFunc(c.pass.TypesInfo, mutexLocks.Has)
}

// requestRoots are the package's functions that run once per request:
// those shape 7 knows (runsPerRequest), the handlers the package registers
// with a router or a gRPC server (internal/entrypoints), and functions
// that read the incoming request their context carries (the catalogue's
// IncomingRequestReads: an authenticator a gRPC interceptor calls).
func (c *checker) requestRoots(funcs []*ssa.Function) []requestRoot {
	prog := c.pass.ResultOf[lazyssa.Analyzer].(*lazyssa.Builder).Package().Prog
	var roots []requestRoot
	for _, f := range c.pass.Files {
		if c.isTest(f) {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || !c.runsPerRequest(fd) {
				continue
			}
			if obj, ok := c.pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
				if fn := prog.FuncValue(obj); fn != nil {
					roots = append(roots, requestRoot{fn: fn})
				}
			}
		}
	}
	for _, e := range entrypoints.Find(c.pass.Pkg, funcs) {
		if e.Class == entrypoints.Interactive && e.Func.Pkg == c.ssaPkg() {
			roots = append(roots, requestRoot{fn: e.Func})
		}
	}
	for _, fn := range funcs {
		if c.readsIncomingRequest(fn) {
			roots = append(roots, requestRoot{fn: fn})
		}
		roots = append(roots, c.requestCallbacks(fn)...)
	}
	return roots
}

// requestRoot is a function that runs per request and, for a function
// literal registered where the registration shows it, its closure.
type requestRoot struct {
	fn      *ssa.Function
	closure *ssa.MakeClosure
}

// requestCallbacks are the functions fn registers with a framework that
// runs them once per client request (the catalogue's RequestCallbacks).
func (c *checker) requestCallbacks(fn *ssa.Function) []requestRoot {
	var out []requestRoot
	for common := range ssautil.WaitedCalls(fn) {
		callee := common.StaticCallee()
		if callee == nil {
			continue
		}
		obj, ok := callee.Object().(*types.Func)
		if !ok {
			continue
		}
		i, ok := catalog.RequestCallbacks[catalog.Key(obj)]
		if !ok {
			continue
		}
		if obj.Signature().Recv() != nil {
			i++
		}
		if i >= len(common.Args) {
			continue
		}
		v := ssautil.Unconverted(common.Args[i])
		mc, _ := v.(*ssa.MakeClosure)
		if lit := ssautil.FuncOf(v); lit != nil {
			out = append(out, requestRoot{fn: lit, closure: mc})
		}
	}
	return out
}

func (c *checker) ssaPkg() *ssa.Package {
	return c.pass.ResultOf[lazyssa.Analyzer].(*lazyssa.Builder).Package()
}

func (c *checker) readsIncomingRequest(fn *ssa.Function) bool {
	for common := range ssautil.WaitedCalls(fn) {
		if callee := common.StaticCallee(); callee != nil {
			if obj, ok := callee.Object().(*types.Func); ok && catalog.IncomingRequestReads.Has(obj) {
				return true
			}
		}
	}
	return false
}

// requestFrames follows the roots' calls through the package: static
// calls, and function literals called or handed to a call that runs them
// now (not a go statement, time.AfterFunc or a function that starts a
// goroutine per call: the request does not wait for those; nor a
// singleflight.Do whose key is a constant, where one caller at a time runs
// the function). A root's receiver and free variables outlive the
// request; a callee's parameter does when its argument is reached from one
// of those or from a package variable.
func (c *checker) requestFrames(roots []requestRoot) map[*ssa.Function]*requestFrame {
	frames := map[*ssa.Function]*requestFrame{}
	var work []*ssa.Function
	enter := func(fn, entry *ssa.Function, in frameIn) {
		if fn == nil || fn.Pkg != c.ssaPkg() || len(fn.Blocks) == 0 {
			return
		}
		fr := frames[fn]
		grew := fr == nil
		if fr == nil {
			fr = &requestFrame{entry: entry, shared: map[ssa.Value]bool{}, funcs: map[ssa.Value]string{}}
			frames[fn] = fr
		}
		for _, v := range in.shared {
			if !fr.shared[v] {
				fr.shared[v] = true
				grew = true
			}
		}
		for v, via := range in.funcs {
			if _, ok := fr.funcs[v]; !ok {
				fr.funcs[v] = via
				grew = true
			}
		}
		if grew {
			work = append(work, fn)
		}
	}
	for _, root := range roots {
		in := frameIn{funcs: map[ssa.Value]string{}}
		fn := root.fn
		if fn.Signature.Recv() != nil && len(fn.Params) > 0 {
			in.shared = append(in.shared, fn.Params[0])
		}
		for i, fv := range fn.FreeVars {
			in.shared = append(in.shared, fv)
			if root.closure != nil && i < len(root.closure.Bindings) {
				if via := c.funcVia(root.closure.Bindings[i], nil, 0); via != "" {
					in.funcs[fv] = via
				}
			}
		}
		enter(fn, fn, in)
	}
	for len(work) > 0 {
		fn := work[len(work)-1]
		work = work[:len(work)-1]
		fr := frames[fn]
		for common := range ssautil.WaitedCalls(fn) {
			c.followCall(common, fr, enter)
		}
	}
	return frames
}

// followCall enters, from a frame, the function a call runs and the
// function literals it hands to the callee.
func (c *checker) followCall(common *ssa.CallCommon, fr *requestFrame, enter func(fn, entry *ssa.Function, in frameIn)) {
	if common.IsInvoke() {
		return
	}
	callee := common.StaticCallee()
	if callee != nil {
		in := frameIn{funcs: map[ssa.Value]string{}}
		for i, a := range common.Args {
			if i >= len(callee.Params) {
				break
			}
			if c.outlivesRequest(a, fr) {
				in.shared = append(in.shared, callee.Params[i])
			}
			if via := c.funcVia(a, fr, 0); via != "" {
				in.funcs[callee.Params[i]] = via
			}
		}
		if mc, ok := common.Value.(*ssa.MakeClosure); ok {
			c.bindings(mc, fr, &in)
		}
		enter(callee, fr.entry, in)
		if c.runsLater(callee) || c.oneAtATime(callee, common) {
			return
		}
	}
	for _, a := range common.Args {
		a = ssautil.Unconverted(a)
		if mc, ok := a.(*ssa.MakeClosure); ok {
			if lit, ok := mc.Fn.(*ssa.Function); ok {
				in := frameIn{funcs: map[ssa.Value]string{}}
				c.bindings(mc, fr, &in)
				enter(lit, fr.entry, in)
			}
		} else if lit, ok := a.(*ssa.Function); ok && lit.Parent() != nil {
			enter(lit, fr.entry, frameIn{})
		}
	}
}

// bindings adds to in the free variables of a closure bound to values
// that outlive the request, and those bound to a function that waits on
// the network.
func (c *checker) bindings(mc *ssa.MakeClosure, fr *requestFrame, in *frameIn) {
	lit, ok := mc.Fn.(*ssa.Function)
	if !ok {
		return
	}
	for i, b := range mc.Bindings {
		if i >= len(lit.FreeVars) {
			break
		}
		if c.outlivesRequest(b, fr) {
			in.shared = append(in.shared, lit.FreeVars[i])
		}
		if via := c.funcVia(b, fr, 0); via != "" {
			in.funcs[lit.FreeVars[i]] = via
		}
	}
}

// funcVia is how the function value v, when called, waits on the
// network, or "": a function or literal that does, a parameter or free
// variable the frame knows holds one, a captured variable stored one, or
// the result of a function marked returnsNetworkFunc (a handler factory
// that returns a closure calling a proxy).
func (c *checker) funcVia(v ssa.Value, fr *requestFrame, depth int) string {
	if depth > 8 {
		return ""
	}
	switch x := v.(type) {
	case *ssa.Function, *ssa.MakeClosure:
		return c.literalWaits(ssautil.FuncOf(x))
	case *ssa.Parameter, *ssa.FreeVar:
		if fr != nil {
			return fr.funcs[x]
		}
	case *ssa.ChangeType:
		return c.funcVia(x.X, fr, depth+1)
	case *ssa.UnOp:
		if x.Op == token.MUL {
			return c.funcVia(x.X, fr, depth+1)
		}
	case *ssa.Alloc:
		for _, ref := range ssautil.Referrers(x) {
			if st, ok := ref.(*ssa.Store); ok && st.Addr == x {
				if via := c.funcVia(st.Val, fr, depth+1); via != "" {
					return via
				}
			}
		}
	case *ssa.Call:
		if callee := x.Call.StaticCallee(); callee != nil {
			if obj, ok := callee.Object().(*types.Func); ok {
				return c.returnsNetworkFunc(obj)
			}
		}
	}
	return ""
}

// literalWaits is how calling fn waits on the network, deadline or not.
func (c *checker) literalWaits(fn *ssa.Function) string {
	if fn == nil {
		return ""
	}
	if path := c.netio.FuncReaches(fn); len(path) > 0 {
		return strings.Join(path, " → ")
	}
	if c.net == nil {
		return "" // the package names no network wait (run learnt it first)
	}
	return c.funcWaits(fn)
}

// oneAtATime reports whether the call runs its function argument for one
// caller at a time whatever the caller asks (singleflight.Do with a
// constant key): the function's callers wait for one call, not in series.
func (c *checker) oneAtATime(callee *ssa.Function, common *ssa.CallCommon) bool {
	obj, ok := callee.Object().(*types.Func)
	if !ok {
		return false
	}
	i, ok := catalog.SingleCallers[catalog.Key(obj)]
	if !ok {
		return false
	}
	if obj.Signature().Recv() != nil {
		i++
	}
	if i >= len(common.Args) {
		return false
	}
	k, ok := common.Args[i].(*ssa.Const)
	return ok && k.Value != nil && k.Value.Kind() == constant.String
}

// outlivesRequest reports whether v is reached, through fields and loads,
// from a package variable or from a parameter or free variable of the
// frame that holds a value outliving the request.
func (c *checker) outlivesRequest(v ssa.Value, fr *requestFrame) bool {
	return c.outlives(v, fr, map[*ssa.Alloc]bool{})
}

// outlives is outlivesRequest with the captured variables being asked
// (spilled), each asked once: variables assigned from each other in a
// cycle would otherwise ask each other without end (mox's webmail).
func (c *checker) outlives(v ssa.Value, fr *requestFrame, visiting map[*ssa.Alloc]bool) bool {
	switch x := throughLoads(v).(type) {
	case *ssa.Global:
		return true
	case *ssa.Parameter, *ssa.FreeVar:
		return fr.shared[x]
	case *ssa.Alloc:
		if visiting[x] {
			return false
		}
		visiting[x] = true
		defer delete(visiting, x)
		return c.spilled(x, fr, visiting)
	}
	return false
}

// throughLoads is the value v is reached from through fields, loads and
// conversions, or nil when a deeper chain or anything else makes it.
func throughLoads(v ssa.Value) ssa.Value {
	for range 16 {
		switch x := v.(type) {
		case *ssa.FieldAddr:
			v = x.X
		case *ssa.Field:
			v = x.X
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return nil
			}
			v = x.X
		case *ssa.ChangeType:
			v = x.X
		default:
			return v
		}
	}
	return nil
}

// spilledShared reports whether a variable a closure captures (SSA moves
// a captured parameter to the heap) only ever holds a value that outlives
// the request: a variable declared with no value, or assigned a value
// made here, does not.
func (c *checker) spilledShared(alloc *ssa.Alloc, fr *requestFrame) bool {
	return c.spilled(alloc, fr, map[*ssa.Alloc]bool{alloc: true})
}

// spilled is spilledShared with the variables being asked. An assignment
// from the variable itself (cur = cur.next) holds what the others do, and
// is skipped; one that leads back through another variable being asked
// proves nothing.
func (c *checker) spilled(alloc *ssa.Alloc, fr *requestFrame, visiting map[*ssa.Alloc]bool) bool {
	stores := 0
	for _, ref := range ssautil.Referrers(alloc) {
		st, ok := ref.(*ssa.Store)
		if !ok || st.Addr != alloc {
			continue
		}
		if rootedAt(st.Val, alloc) {
			continue
		}
		if _, isAlloc := st.Val.(*ssa.Alloc); isAlloc || !c.outlives(st.Val, fr, visiting) {
			return false
		}
		stores++
	}
	return stores > 0
}

// rootedAt reports whether v is reached from alloc through fields and
// loads.
func rootedAt(v ssa.Value, alloc *ssa.Alloc) bool { return throughLoads(v) == alloc }

// mutexOf is the mutex a Lock or Unlock call takes, as a key, and the
// object that names it (the field or package variable), when it is
// reached through fields and loads from a value: not when it comes from a
// map, a slice, a call or an interface (a per-key lock, a lock stripe).
func mutexOf(common *ssa.CallCommon) (mutexKey, types.Object, bool) {
	if len(common.Args) == 0 {
		return mutexKey{}, nil, false
	}
	key, named, ok := throughFields(common.Args[0])
	return key, named, ok && (named != nil || isMutexPointer(key.root.Type()))
}

// throughFields walks v back through field addresses and loads to the
// value it is reached from (a package variable, a parameter, a free
// variable, a local), with the path as a key and the object that names it
// (the first field or the package variable); not a value from a map, a
// slice, a call or an interface.
func throughFields(v ssa.Value) (mutexKey, types.Object, bool) {
	var path []string
	var named types.Object
	for range 16 {
		switch x := v.(type) {
		case *ssa.Global:
			if named == nil {
				named = x.Object()
			}
			return mutexKey{x, strings.Join(path, ".")}, named, true
		case *ssa.Parameter, *ssa.FreeVar, *ssa.Alloc:
			return mutexKey{x, strings.Join(path, ".")}, named, true
		case *ssa.FieldAddr:
			if named == nil {
				named = fieldOf(x.X.Type(), x.Field)
			}
			path = append(path, strconv.Itoa(x.Field))
			v = x.X
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return mutexKey{}, nil, false
			}
			path = append(path, "*")
			v = x.X
		default:
			return mutexKey{}, nil, false
		}
	}
	return mutexKey{}, nil, false
}

func isMutexPointer(t types.Type) bool {
	return isNamed(t, "sync", "Mutex") || isNamed(t, "sync", "RWMutex")
}

// fieldOf is field i of the struct ptr points to.
func fieldOf(ptr types.Type, i int) types.Object {
	p, ok := ptr.Underlying().(*types.Pointer)
	if !ok {
		return nil
	}
	st, ok := p.Elem().Underlying().(*types.Struct)
	if !ok || i >= st.NumFields() {
		return nil
	}
	return st.Field(i)
}

// sharedLock reports whether call locks a mutex every request shares: one
// in a package variable or in a value that outlives the request.
func (c *checker) sharedLock(call *ssa.Call, fr *requestFrame) bool {
	callee := call.Call.StaticCallee()
	if callee == nil {
		return false
	}
	obj, ok := callee.Object().(*types.Func)
	if !ok || !mutexLocks.Has(obj) {
		return false
	}
	key, _, ok := mutexOf(call.Common())
	return ok && c.sharedRoot(key, fr)
}

// sharedRoot reports whether the variable key is rooted in outlives the
// request: a package variable, or a value the request did not make (the
// handler's receiver, what it captures, their fields).
func (c *checker) sharedRoot(key mutexKey, fr *requestFrame) bool {
	switch root := key.root.(type) {
	case *ssa.Global:
		return true
	case *ssa.Alloc:
		return c.spilledShared(root, fr)
	default:
		return fr.shared[root]
	}
}

// heldAcrossNetwork is the first call, on some path from the Lock before
// an Unlock of the same mutex, that waits on the network, and how; a
// deferred Unlock holds the mutex to the return. Any network wait counts,
// with a deadline or not: a timeout t bounds one holder, and the k-th
// waiter still waits k times t.
func (c *checker) heldAcrossNetwork(lock *ssa.Call, fr *requestFrame) (*ssa.CallCommon, string) {
	key, _, _ := mutexOf(lock.Common())
	type item struct {
		b    *ssa.BasicBlock
		from int
	}
	start := 0
	for i, instr := range lock.Block().Instrs {
		if instr == lock {
			start = i + 1
		}
	}
	visited := map[*ssa.BasicBlock]bool{}
	work := []item{{lock.Block(), start}}
	for len(work) > 0 {
		it := work[len(work)-1]
		work = work[:len(work)-1]
		released := false
		for _, instr := range it.b.Instrs[it.from:] {
			if instr == lock {
				released = true // around a loop, back at the Lock
				break
			}
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			if c.unlocks(call.Common(), key) {
				released = true
				break
			}
			if via := c.networkWait(call.Common(), fr); via != "" {
				return call.Common(), via
			}
		}
		if released {
			continue
		}
		for _, s := range it.b.Succs {
			if !visited[s] {
				visited[s] = true
				work = append(work, item{s, 0})
			}
		}
	}
	return nil, ""
}

func (c *checker) unlocks(common *ssa.CallCommon, key mutexKey) bool {
	callee := common.StaticCallee()
	if callee == nil {
		return false
	}
	obj, ok := callee.Object().(*types.Func)
	if !ok || !mutexUnlocks.Has(obj) {
		return false
	}
	k, _, ok := mutexOf(common)
	return ok && k == key
}

// networkWait is how a call waits on the network, "" if it does not: a
// network call of the catalogue or a function that reaches one (netio,
// deadline or not), or a function or interface method marked
// waitsOnNetwork (an interface implemented in its own package).
func (c *checker) networkWait(common *ssa.CallCommon, fr *requestFrame) string {
	if path := c.netio.CallReaches(common); len(path) > 0 {
		return strings.Join(path, " → ")
	}
	if !common.IsInvoke() && common.StaticCallee() == nil {
		if via := c.funcVia(common.Value, fr, 0); via != "" {
			return "a function value that calls " + via
		}
	}
	if c.net == nil {
		return ""
	}
	return c.callWaits(common)
}

// reportMutex reports a Lock held across a network wait, at the Lock,
// with the network call, the per-request entry and the other places
// requests take the same mutex as related information.
func (c *checker) reportMutex(starts *ssautil.CallStarts, lock *ssa.Call, wait *ssa.CallCommon, via string, entry *ssa.Function, locks []*ssa.Call) {
	_, obj, _ := mutexOf(lock.Common())
	name, kind := c.mutexName(lock)
	pos := starts.Start(c.pass.Files, lock.Pos())
	if !pos.IsValid() || c.reported[pos] {
		return
	}
	c.reported[pos] = true
	d := analysis.Diagnostic{Pos: pos, Message: Code + ": " +
		"mutex held across a network wait on every request: " + name + " (" + kind + ") is shared by every request to " +
		entryName(entry) + ", and this Lock holds it across " + via + "; requests queue on it with no bound and no deadline, " +
		"each behind every earlier request's network call (a mutex is a pool of one with an unlimited queue, " +
		"and a timeout on the call only multiplies by the queue's length); make the network call outside the lock " +
		"(lock only to read or store the result), let waiters share one call (singleflight), or TryLock and fail fast"}
	related := func(at token.Pos, msg string) {
		if at.IsValid() && at != pos {
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: at, Message: msg})
		}
	}
	related(starts.Start(c.pass.Files, wait.Pos()), "the network call made while "+name+" is held")
	related(entry.Pos(), "the per-request function ("+entryName(entry)+")")
	others := 0
	for _, other := range locks {
		if other == lock || others == 2 {
			continue
		}
		if _, o, _ := mutexOf(other.Common()); o != nil && o == obj {
			related(starts.Start(c.pass.Files, other.Pos()), "requests also take "+name+" here")
			others++
		}
	}
	c.pass.Report(d)
}

// entryName names a per-request function as users read it:
// "(*backgrounds.Handler).ServeHTTP", "a function literal in
// (*client.Handler).Setup".
func entryName(fn *ssa.Function) string {
	lit := false
	for fn.Parent() != nil {
		fn, lit = fn.Parent(), true
	}
	name := fn.Name()
	if obj, ok := fn.Object().(*types.Func); ok {
		name = netio.Name(obj)
	}
	if lit {
		return "a function literal in " + name
	}
	return name
}

// mutexName is the mutex as the user wrote it (h.lock, mu) and its type.
func (c *checker) mutexName(lock *ssa.Call) (string, string) {
	kind := "sync.Mutex"
	if callee := lock.Call.StaticCallee(); callee != nil && strings.Contains(callee.String(), "RWMutex") {
		kind = "sync.RWMutex"
	}
	name := "the mutex"
	for _, f := range c.pass.Files {
		if f.Pos() > lock.Pos() || lock.Pos() > f.End() {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || call.Lparen != lock.Pos() {
				return n == nil || n.Pos() <= lock.Pos() && lock.Pos() < n.End()
			}
			if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
				name = types.ExprString(sel.X)
			}
			return false
		})
	}
	return name, kind
}
