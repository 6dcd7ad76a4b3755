package heldconn

import (
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/netio"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// Callbacks run while holding: transaction helpers (InTx(func(tx) error)),
// helpers that pass their callback on to one, closures that call a captured
// callback inside one (pocketbase's runInTransaction), and interface methods
// whose visible implementations all do one of these.

// maxVia bounds the chain of helpers a holdsDuringCallback fact carries.
const maxVia = 4

// holder is what a call site knows about a callee that runs some of its
// arguments while holding a connection.
type holder struct {
	args []int    // indexes into the call's Args
	noun string   // "transaction", "connection"
	via  []string // the helpers below the callee, down to the one that holds
	impl string   // for a call through an interface: the implementation followed
	bare []string // and the implementations that hold nothing
}

// learnHolders exports holdsDuringCallback for functions that call a func
// parameter while holding, pass one on to such a function, or capture one in
// a closure that such a function runs.
func (c *checker) learnHolders(funcs []*ssa.Function, spans []heldSpan) {
	for _, span := range spans {
		if len(span.callbackArgs) > 0 {
			c.addHolder(span.acq.fn, span.callbackArgs, span.acq.kind.Noun, nil)
		}
	}
	for changed := true; changed; {
		changed = false
		for _, fn := range funcs {
			for _, site := range c.callbackSites(fn) {
				via := append([]string{site.followed()}, site.via...)
				for _, i := range c.paramsRunBy(fn, site.arg) {
					if c.addHolder(fn, []int{i}, site.noun, via) {
						changed = true
					}
				}
			}
		}
	}
	for fn, fact := range c.holders {
		if obj := calleeObject(fn); obj != nil && fn.Parent() == nil {
			c.pass.ExportObjectFact(obj, fact)
		}
	}
}

// paramsRunBy returns the parameters of fn that a callback argument runs: the
// parameter itself, or one a closure captures and calls.
func (c *checker) paramsRunBy(fn *ssa.Function, arg ssa.Value) []int {
	if param, ok := arg.(*ssa.Parameter); ok {
		if i := slices.Index(fn.Params, param); i >= 0 {
			return []int{i}
		}
		return nil
	}
	closure, ok := arg.(*ssa.MakeClosure)
	if !ok {
		return nil
	}
	cb, ok := closure.Fn.(*ssa.Function)
	if !ok {
		return nil
	}
	var params []int
	for _, b := range cb.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok || call.Common().IsInvoke() {
				continue
			}
			if param := capturedParam(closure, cb, call.Common().Value); param != nil {
				if i := slices.Index(fn.Params, param); i >= 0 && !slices.Contains(params, i) {
					params = append(params, i)
				}
			}
		}
	}
	return params
}

// capturedParam returns the parameter of the enclosing function that v, a
// value in closure cb, is: a free variable bound to it, or the load of one
// that boxes it (captured variables are boxed) when the box is stored only
// once, with the parameter.
func capturedParam(closure *ssa.MakeClosure, cb *ssa.Function, v ssa.Value) *ssa.Parameter {
	boxed := false
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		v, boxed = load.X, true
	}
	fv, ok := v.(*ssa.FreeVar)
	if !ok {
		return nil
	}
	j := slices.Index(cb.FreeVars, fv)
	if j < 0 || j >= len(closure.Bindings) {
		return nil
	}
	bound := closure.Bindings[j]
	if !boxed {
		param, _ := bound.(*ssa.Parameter)
		return param
	}
	var param *ssa.Parameter
	for _, r := range ssautil.Referrers(bound) {
		store, ok := r.(*ssa.Store)
		if !ok || store.Addr != bound {
			continue
		}
		p, ok := store.Val.(*ssa.Parameter)
		if !ok || param != nil {
			return nil // reassigned: not only the parameter
		}
		param = p
	}
	return param
}

func (c *checker) addHolder(fn *ssa.Function, params []int, noun string, via []string) bool {
	fact := c.holders[fn]
	if fact == nil {
		if len(via) > maxVia {
			via = via[:maxVia]
		}
		fact = &holdsDuringCallback{Noun: noun, Via: via}
		c.holders[fn] = fact
		if obj := calleeObject(fn); obj != nil {
			c.holderObjs[obj] = fact
		}
	}
	added := false
	for _, p := range params {
		if !slices.Contains(fact.Params, p) {
			fact.Params = append(fact.Params, p)
			slices.Sort(fact.Params)
			added = true
		}
	}
	if added {
		// An interface method resolved before this holder was known may
		// have this function among its implementations.
		clear(c.ifaceHolders)
	}
	return added
}

// callbackSite is a call to a function that runs one of its arguments while
// holding a connection.
type callbackSite struct {
	call   *ssa.Call
	arg    ssa.Value
	holder string // the callee as written
	noun   string
	via    []string
	impl   string
	bare   []string
}

// followed names the function the site leads to: the implementation for a
// call through an interface.
func (s callbackSite) followed() string {
	if s.impl != "" {
		return s.holder + " [implemented by " + s.impl + "]"
	}
	return s.holder
}

// chain is the path from the call to the function that holds, for messages.
func (s callbackSite) chain() string {
	path := s.via
	prefix := ""
	if s.impl != "" {
		path = append([]string{s.impl}, path...)
		prefix = "its implementation "
	}
	if len(path) == 0 {
		return ""
	}
	out := prefix + path[0]
	for _, p := range path[1:] {
		out += " → " + p
	}
	if len(s.bare) > 0 {
		out += "; " + strings.Join(s.bare, " and ") + " hold"
		if len(s.bare) == 1 {
			out += "s"
		}
		out += " nothing"
	}
	return out
}

func (c *checker) callbackSites(fn *ssa.Function) []callbackSite {
	var sites []callbackSite
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			h := c.holderOf(call.Common())
			if h == nil {
				continue
			}
			for _, i := range h.args {
				if i >= 0 && i < len(call.Common().Args) {
					sites = append(sites, callbackSite{call, call.Common().Args[i], callName(call.Common()), h.noun, h.via, h.impl, h.bare})
				}
			}
		}
	}
	return sites
}

// holderOf says whether the call runs some of its arguments while holding a
// connection: a catalogue entry, a helper of this package or, by a fact,
// another, or an interface method whose visible implementations agree.
func (c *checker) holderOf(common *ssa.CallCommon) *holder {
	if common.IsInvoke() {
		if !hasFuncArg(common) {
			return nil
		}
		if i, ok := catalog.TxCallbacks[catalog.Key(common.Method)]; ok {
			return &holder{args: []int{i - 1}, noun: "transaction"} // the receiver is not among an invoke's Args
		}
		return c.interfaceHolder(common.Method)
	}
	callee := common.StaticCallee()
	if callee == nil {
		return c.fieldHolder(common)
	}
	callee = origin(callee)
	obj := calleeObject(callee)
	if obj != nil {
		if i, ok := catalog.TxCallbacks[catalog.Key(obj)]; ok {
			return &holder{args: []int{i}, noun: "transaction"}
		}
	}
	if fact, ok := c.holders[callee]; ok {
		return &holder{args: fact.Params, noun: fact.Noun, via: fact.Via}
	}
	if fact := c.importedHolder(obj); fact != nil {
		return &holder{args: fact.Params, noun: fact.Noun, via: fact.Via}
	}
	return nil
}

// fieldHolder is the holder a call through one of the package's func
// fields runs: the first function stored there that holds (a transaction
// runner kept in m.tx, filled at start-up with a closure that runs its
// callback inside a session's WithTransaction).
func (c *checker) fieldHolder(common *ssa.CallCommon) *holder {
	fns, field := c.fields.Of(common)
	if field == nil {
		return nil
	}
	for _, fn := range fns {
		if fact, ok := c.holders[origin(fn)]; ok {
			return &holder{args: fact.Params, noun: fact.Noun, via: append([]string{netio.DisplayName(fn)}, fact.Via...)}
		}
	}
	return nil
}

func (c *checker) importedHolder(obj *types.Func) *holdsDuringCallback {
	if obj == nil {
		return nil
	}
	if fact, ok := c.holderObjs[obj]; ok {
		return fact
	}
	if obj.Pkg() == nil || obj.Pkg() == c.pass.Pkg {
		return nil
	}
	var fact holdsDuringCallback
	if c.pass.ImportObjectFact(obj, &fact) {
		return &fact
	}
	return nil
}

func hasFuncArg(common *ssa.CallCommon) bool {
	for _, a := range common.Args {
		if _, ok := a.Type().Underlying().(*types.Signature); ok {
			return true
		}
	}
	return false
}

// interfaceHolder learns a holder for an interface method from the
// implementations that are visible: the named types of the interface's
// package, of this package and of the packages this package imports. Those
// that hold must hold the same parameters; those that do not (a fake that
// calls the callback directly, a store that runs it without a transaction)
// are named beside the one followed. If none holds, or none is visible, the
// call is not followed.
func (c *checker) interfaceHolder(m *types.Func) *holder {
	if h, ok := c.ifaceHolders[m]; ok {
		return h
	}
	h := c.resolveInterfaceHolder(m)
	c.ifaceHolders[m] = h
	return h
}

func (c *checker) resolveInterfaceHolder(m *types.Func) *holder {
	var first *holdsDuringCallback
	var impl string
	var bare []string // implementations that hold nothing
	for _, method := range c.implementationsOf(m) {
		fact := c.importedHolder(method)
		if fact == nil {
			bare = append(bare, netio.Name(method)) // an implementation that does not hold
			continue
		}
		if first == nil {
			first, impl = fact, netio.Name(method)
		} else if !slices.Equal(first.Params, fact.Params) || first.Noun != fact.Noun {
			return nil // the holding implementations disagree on what they hold
		}
	}
	if first == nil {
		// None in sight holds: one in the build may (the tools module's
		// tx.Tx, implemented by its mongoutil).
		return c.heldInBuild(m)
	}
	// Another implementation may run the callback with nothing held (a
	// read path, a fake); this one holds, and the caller cannot tell which
	// it gets: the one that holds is followed and named.
	slices.Sort(bare)
	var args []int
	for _, p := range first.Params {
		args = append(args, p-1) // the receiver is not among an invoke's Args
	}
	return &holder{args: args, noun: first.Noun, via: first.Via, impl: impl, bare: bare}
}

// implementationsOf returns the methods implementing the interface method m
// among the named types of the visible packages (visiblePackages), in scope
// order.
func (c *checker) implementationsOf(m *types.Func) []*types.Func {
	recv := m.Signature().Recv()
	if recv == nil {
		return nil
	}
	iface, ok := recv.Type().Underlying().(*types.Interface)
	if !ok || iface.NumMethods() == 0 {
		return nil
	}
	var out []*types.Func
	seen := map[*types.Func]bool{}
	for _, pkg := range c.visiblePackages(m.Pkg()) {
		for named := range ssautil.ConcreteTypes(pkg) {
			method := ssautil.Implementation(named, iface, m)
			if method == nil || seen[method] {
				continue
			}
			seen[method] = true
			out = append(out, method)
		}
	}
	return out
}

func (c *checker) visiblePackages(ifacePkg *types.Package) []*types.Package {
	pkgs := []*types.Package{c.pass.Pkg}
	if ifacePkg != nil && ifacePkg != c.pass.Pkg {
		pkgs = append(pkgs, ifacePkg)
	}
	for _, p := range c.pass.Pkg.Imports() {
		if !slices.Contains(pkgs, p) {
			pkgs = append(pkgs, p)
		}
	}
	return pkgs
}

func (c *checker) checkCallbacks(fn *ssa.Function) {
	for _, site := range c.callbackSites(fn) {
		cb := ssautil.FuncOf(site.arg)
		if cb == nil {
			continue
		}
		if len(cb.Blocks) == 0 { // declared elsewhere: report at the holder call
			if path := c.net.FuncReaches(cb); path != nil {
				c.reportCallback(site, site.call, waitOn{kind: network, path: path})
			} else if path := c.subprocessFunc(cb); path != nil {
				c.reportCallback(site, site.call, waitOn{kind: subprocess, path: path})
			}
			continue
		}
		heldFrom := token.NoPos
		if documentTx(site.call.Common()) {
			if heldFrom = firstSessionOp(cb); !heldFrom.IsValid() {
				continue // no operation runs in the transaction: it holds nothing
			}
		}
		for _, b := range cb.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(*ssa.Call)
				if !ok || call.Pos() <= heldFrom {
					continue
				}
				if w, ok := c.outsideSession(cb, call.Common()); ok {
					c.reportCallback(site, call, w)
				} else if w, ok := c.waitIn(call.Common(), nil); ok && !onCallbackHandle(cb, call.Common(), w) {
					c.reportCallback(site, call, w)
				}
			}
		}
	}
}

// onCallbackHandle reports whether w, a wait for a connection, is a method
// called on a value made from what the callback is handed: gorm's
// tx.Model(v).Association("Tags").Replace(tags), whose handle field is the
// transaction the association was made from, runs in the transaction, not
// on a connection of its own.
func onCallbackHandle(cb *ssa.Function, common *ssa.CallCommon, w waitOn) bool {
	if w.kind != otherPool && w.kind != samePool || common.IsInvoke() || len(common.Args) == 0 {
		return false
	}
	callee := common.StaticCallee()
	if callee == nil || callee.Signature.Recv() == nil {
		return false
	}
	return fromParams(cb, common.Args[0], 8, false)
}
