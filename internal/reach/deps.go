package reach

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"net/url"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/objectpath"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/netio"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// freeVarBase numbers a closure's free variables after its parameters, so
// that a client captured by a closure is named where the closure is made.
const freeVarBase = 1000

// origin is where a value comes from: a package-level variable or struct
// field (key, name), a parameter of the function (param ≥ 0), or a value
// made in the function.
type origin struct {
	key, name, pos, pkg string
	param               int
}

var noOrigin = origin{param: -1}

func (o origin) known() bool { return o.key != "" }

// nameAs is the origin's name for a value of the noun: a variable's or
// field's own name, or "the HTTP client made in F".
func (o origin) nameAs(noun string) string {
	if strings.HasPrefix(o.key, "call:") || strings.HasPrefix(o.key, "local:") {
		return "the " + noun + " " + o.name
	}
	return o.name
}

// originOf follows v back to the variable or field it was loaded from.
func (c *checker) originOf(fn *ssa.Function, v ssa.Value, depth int) origin {
	if depth == 0 || v == nil {
		return noOrigin
	}
	switch v := v.(type) {
	case *ssa.MakeInterface:
		return c.originOf(fn, v.X, depth-1)
	case *ssa.ChangeType:
		return c.originOf(fn, v.X, depth-1)
	case *ssa.ChangeInterface:
		return c.originOf(fn, v.X, depth-1)
	case *ssa.Convert:
		return c.originOf(fn, v.X, depth-1)
	case *ssa.TypeAssert:
		return c.originOf(fn, v.X, depth-1)
	case *ssa.Extract:
		return c.originOf(fn, v.Tuple, depth-1)
	case *ssa.UnOp:
		if v.Op == token.MUL {
			return c.addrOrigin(fn, v.X, depth)
		}
	case *ssa.Global, *ssa.FieldAddr:
		return c.addrOrigin(fn, v, depth)
	case *ssa.Field:
		if f := fieldOf(v.X.Type(), v.Field); f != nil {
			if f.Embedded() {
				return c.originOf(fn, v.X, depth-1)
			}
			return c.varOrigin(f, v.X.Type())
		}
	case *ssa.Parameter:
		for i, p := range fn.Params {
			if p == v {
				return origin{param: i}
			}
		}
	case *ssa.FreeVar:
		for i, fv := range fn.FreeVars {
			if fv == v {
				return origin{param: freeVarBase + i}
			}
		}
	case *ssa.Phi:
		for _, e := range v.Edges {
			if o := c.originOf(fn, e, depth-1); o.known() || o.param >= 0 {
				return o
			}
		}
	case *ssa.Call:
		if callee := v.Common().StaticCallee(); callee != nil {
			name := "returned by " + callName(v.Common())
			return origin{key: "call:" + name, name: name, param: -1}
		}
	case *ssa.Alloc:
		// A variable captured by a closure lives in a cell: what was
		// stored in it.
		for _, ref := range ssautil.Referrers(v) {
			if st, ok := ref.(*ssa.Store); ok && st.Addr == v {
				return c.originOf(fn, st.Val, depth-1)
			}
		}
		name := "made in " + netio.DisplayName(fn)
		return origin{key: "local:" + fn.String() + ":" + v.Name(), name: name, param: -1}
	}
	return noOrigin
}

// addrOrigin is the origin of what an address holds: a package-level
// variable, a field, or (through an embedded field, as go-redis's
// commands are promoted from one) the struct that holds it.
func (c *checker) addrOrigin(fn *ssa.Function, addr ssa.Value, depth int) origin {
	switch addr := addr.(type) {
	case *ssa.Global:
		if v, ok := addr.Object().(*types.Var); ok {
			return c.varOrigin(v, nil)
		}
	case *ssa.FieldAddr:
		ptr, ok := addr.X.Type().Underlying().(*types.Pointer)
		if !ok {
			break
		}
		if f := fieldOf(ptr.Elem(), addr.Field); f != nil {
			if f.Embedded() {
				return c.originOf(fn, addr.X, depth-1)
			}
			return c.varOrigin(f, ptr.Elem())
		}
	case *ssa.FreeVar, *ssa.Parameter:
		return c.originOf(fn, addr, depth-1)
	}
	return noOrigin
}

// varOrigin names a package-level variable or a field as the lane map
// names resources: "pools.CardAuth", "service.Server.taxAPI".
func (c *checker) varOrigin(v *types.Var, owner types.Type) origin {
	v = v.Origin()
	if v.Pkg() == nil {
		return noOrigin
	}
	o := origin{pkg: v.Pkg().Path(), param: -1}
	if v.IsField() {
		ownerName := "struct"
		if named, ok := types.Unalias(owner).(*types.Named); ok {
			ownerName = named.Obj().Name()
		}
		o.name = v.Pkg().Name() + "." + ownerName + "." + v.Name()
		o.key = v.Pkg().Path() + "." + ownerName + "." + v.Name()
	} else {
		if v.Parent() != v.Pkg().Scope() {
			return noOrigin // a local variable
		}
		o.name = v.Pkg().Name() + "." + v.Name()
		o.key = v.Pkg().Path() + "." + v.Name()
	}
	if v.Pos().IsValid() {
		p := c.pass.Fset.Position(v.Pos())
		o.pos = fmt.Sprintf("%s:%d:%d", filepath.Base(p.Filename), p.Line, p.Column)
	}
	if _, err := objectpath.For(v); err != nil {
		o.pkg = "" // not addressable from another package: keep the name only
	}
	return o
}

// typedOrigin is a lane-typed runtime value known by its type alone:
// every Executor[Tax] is the tax lane's.
func typedOrigin(t types.Type) (origin, bool) {
	lane, kind, ok := catalog.LaneTyped(t)
	if !ok {
		return noOrigin, false
	}
	name := catalog.LaneName(lane.Obj().Name())
	if kind == "executor" {
		return origin{key: "executor:" + types.TypeString(lane, nil), name: "the executor of lane " + name, param: -1}, true
	}
	return origin{key: types.TypeString(t, nil), name: types.TypeString(t, func(p *types.Package) string { return p.Name() }), param: -1}, true
}

func fieldOf(t types.Type, i int) *types.Var {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	return ssautil.StructField(t, i)
}

// ---- what a call waits on ----

// waitingCommands are the os/exec calls that wait for the subprocess.
var waitingCommands = map[string]bool{
	"(*os/exec.Cmd).Run": true, "(*os/exec.Cmd).Output": true,
	"(*os/exec.Cmd).CombinedOutput": true, "(*os/exec.Cmd).Wait": true,
}

// outboundCall returns the dependency a call waits on, if it is an
// outbound call, and the value that names it (the client), nil if the
// dependency is named already.
func (c *checker) outboundCall(fn *ssa.Function, common *ssa.CallCommon) (Dep, ssa.Value, bool) {
	if common.IsInvoke() {
		m := common.Method
		if catalog.NetworkCalls.Has(m) {
			return Dep{Noun: nounOf(m)}, common.Value, true
		}
		if isGRPCClientMethod(m) {
			return Dep{Noun: "gRPC client"}, common.Value, true
		}
		return Dep{}, nil, false
	}
	callee := common.StaticCallee()
	if callee == nil {
		return Dep{}, nil, false
	}
	obj, ok := ssautil.Origin(callee).Object().(*types.Func)
	if !ok {
		return Dep{}, nil, false
	}
	key := catalog.Key(obj)
	if waitingCommands[key] {
		return c.subprocess(fn, common.Args[0]), nil, true
	}
	recv := obj.Signature().Recv()
	if recv != nil {
		if _, kind, ok := catalog.LaneTyped(recv.Type()); ok && kind == "HTTP client" && httpMethods[obj.Name()] {
			return Dep{Noun: "HTTP client", Host: hostOfRequest(common.Args[1:])}, common.Args[0], true
		}
	}
	if !catalog.NetworkCalls.Has(obj) {
		return Dep{}, nil, false
	}
	noun := nounOf(obj)
	switch {
	case recv == nil && obj.Pkg().Path() == "net/http":
		d := Dep{Noun: noun, Host: hostOfRequest(common.Args)}
		return c.named(d, "net/http.DefaultClient", "http.DefaultClient"), nil, true
	case recv != nil && len(common.Args) > 0:
		d := Dep{Noun: noun}
		if noun == "HTTP client" {
			d.Host = hostOfRequest(common.Args[1:])
		}
		return d, common.Args[0], true
	}
	// net.Dial, smtp.SendMail…: the address, when it is a constant.
	d := Dep{Noun: noun, Host: hostOfRequest(common.Args)}
	return c.named(d, "func:"+key, netio.Name(obj)), nil, true
}

// named gives a dependency its identity: the client, and the host when it
// is known.
func (c *checker) named(d Dep, key, name string) Dep {
	d.Key, d.Name = key, name
	if d.Host != "" {
		d.Key += "|" + d.Host
		d.Name += " → " + d.Host
	}
	return d
}

var httpMethods = map[string]bool{"Do": true, "Get": true, "Post": true, "PostForm": true, "Head": true}

// isGRPCClientMethod: a method of a generated gRPC client interface, whose
// last parameter is ...grpc.CallOption.
func isGRPCClientMethod(m *types.Func) bool {
	sig := m.Signature()
	if !sig.Variadic() || sig.Params().Len() == 0 {
		return false
	}
	last := sig.Params().At(sig.Params().Len() - 1).Type()
	s, ok := last.(*types.Slice)
	return ok && types.TypeString(s.Elem(), nil) == "google.golang.org/grpc.CallOption"
}

func nounOf(fn *types.Func) string {
	if fn.Pkg() == nil {
		return "network"
	}
	path := fn.Pkg().Path()
	switch {
	case path == "net/http":
		return "HTTP client"
	case strings.HasPrefix(path, "google.golang.org/grpc"):
		return "gRPC client"
	case strings.HasPrefix(path, "github.com/redis/go-redis"):
		return "Redis client"
	case path == "net/smtp":
		return "mail server"
	}
	if noun := catalog.BrokerNoun(path); noun != "" {
		return noun
	}
	return "network"
}

// subprocess names the command a *exec.Cmd runs, when it was made here by
// exec.Command or exec.CommandContext with a constant name.
func (c *checker) subprocess(fn *ssa.Function, cmd ssa.Value) Dep {
	d := Dep{Noun: "subprocess"}
	name := "a command"
	if call, ok := cmd.(*ssa.Call); ok {
		if callee := call.Common().StaticCallee(); callee != nil {
			args := call.Common().Args
			switch callee.String() {
			case "os/exec.Command":
				name = constString(args[0], "(a command not known until run time)")
			case "os/exec.CommandContext":
				name = constString(args[1], "(a command not known until run time)")
			}
		}
	}
	d.Key, d.Name = "exec:"+name, "subprocess "+name
	if strings.HasPrefix(name, "(") || name == "a command" {
		d.Key += ":" + netio.DisplayName(fn)
		d.Name += " in " + netio.DisplayName(fn)
	}
	return d
}

func constString(v ssa.Value, otherwise string) string {
	if k, ok := v.(*ssa.Const); ok && k.Value != nil && k.Value.Kind() == constant.String {
		return filepath.Base(constant.StringVal(k.Value))
	}
	return otherwise
}

// hostOfRequest finds the host of the first argument that is a URL, or a
// request made from one, when a constant shows it.
func hostOfRequest(args []ssa.Value) string {
	for _, a := range args {
		if h := hostOf(a, 3); h != "" {
			return h
		}
	}
	return ""
}

func hostOf(v ssa.Value, depth int) string {
	if depth == 0 {
		return ""
	}
	switch v := v.(type) {
	case *ssa.Const:
		if v.Value != nil && v.Value.Kind() == constant.String {
			return parseHost(constant.StringVal(v.Value))
		}
	case *ssa.BinOp:
		if v.Op == token.ADD {
			return hostOf(v.X, depth-1)
		}
	case *ssa.Extract:
		return hostOf(v.Tuple, depth-1)
	case *ssa.Call:
		callee := v.Common().StaticCallee()
		if callee == nil {
			return ""
		}
		args := v.Common().Args
		switch callee.String() {
		case "fmt.Sprintf":
			if k, ok := args[0].(*ssa.Const); ok && k.Value != nil && k.Value.Kind() == constant.String {
				format, _, _ := strings.Cut(constant.StringVal(k.Value), "%")
				return parseHost(format)
			}
		case "net/http.NewRequest":
			return hostOf(args[1], depth-1)
		case "net/http.NewRequestWithContext":
			return hostOf(args[2], depth-1)
		}
	}
	return ""
}

func parseHost(s string) string {
	if !strings.Contains(s, "://") {
		return ""
	}
	u, err := url.Parse(s)
	if err != nil || u.Host == "" || strings.ContainsAny(u.Host, "%{") {
		return ""
	}
	return u.Host
}

// ---- names ----

func callName(common *ssa.CallCommon) string {
	if common.IsInvoke() {
		return netio.Name(common.Method)
	}
	if callee := common.StaticCallee(); callee != nil {
		return netio.DisplayName(callee)
	}
	return "a call"
}
