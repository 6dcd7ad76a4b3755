package retryafter

import (
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// A 429 or 503 written because configuration says so — a feature switched
// off (if !s.config.Alerts.Enabled { 503 }), a key left unset
// (cfg.AI.APIKey == "") — sheds nothing: it lasts until an operator changes
// the configuration, and no wait the server could name would help. What
// decides a write is the nearest branch it depends on; when that branch
// tests configuration alone, the write is no finding. A shed that
// configuration merely switches on (if cfg.Limit.Enabled { if n > max {
// 503 } }) is decided by its inner test, and stays one.

// decidedByConfig reports whether the write in block b of fn is decided by
// a test of configuration alone: the nearest branch b depends on, in fn or,
// for a function literal with no branch before the write, where the literal
// is made (a middleware factory returning a refusing handler when the
// feature is off).
func decidedByConfig(fn *ssa.Function, b *ssa.BasicBlock) bool {
	for {
		conds := nearestConditions(b)
		if len(conds) > 0 {
			return !slices.ContainsFunc(conds, func(v ssa.Value) bool { return !readsConfig(v, 0) })
		}
		made := madeAt(fn)
		if made == nil {
			return false
		}
		fn, b = made.Parent(), made.Block()
	}
}

// nearestConditions are the conditions of the nearest branches block b
// depends on: walking its dominators, the first block entered from a
// branch (one predecessor ending in an If), or joining branches (several
// predecessors, some ending in an If: if !a || !b). Nil when no branch
// decides b.
func nearestConditions(b *ssa.BasicBlock) []ssa.Value {
	for n := b; n != nil; n = n.Idom() {
		var conds []ssa.Value
		for _, p := range n.Preds {
			if cond, ok := p.Instrs[len(p.Instrs)-1].(*ssa.If); ok && p.Succs[0] != p.Succs[1] {
				conds = append(conds, cond.Cond)
			}
		}
		if len(conds) > 0 {
			return conds
		}
	}
	return nil
}

// madeAt is the instruction of its parent that makes the function literal
// fn: the MakeClosure that binds it, or, when it captures nothing, its first
// use as a value (returned, stored, passed).
func madeAt(fn *ssa.Function) ssa.Instruction {
	if fn.Parent() == nil {
		return nil
	}
	if refs := ssautil.Referrers(fn); len(refs) > 0 {
		return refs[0]
	}
	return nil
}

// readsConfig reports whether v is computed from configuration alone (and
// constants): a read of a field, variable or value named for configuration
// (catalog.ConfigWords), its negation, its comparison with a constant or
// with another such read, its length.
func readsConfig(v ssa.Value, depth int) bool {
	if depth > 12 {
		return false
	}
	switch x := v.(type) {
	case *ssa.UnOp:
		return (x.Op == token.NOT || x.Op == token.MUL) && readsConfig(x.X, depth+1)
	case *ssa.BinOp:
		_, constX := x.X.(*ssa.Const)
		_, constY := x.Y.(*ssa.Const)
		return !(constX && constY) && (constX || readsConfig(x.X, depth+1)) && (constY || readsConfig(x.Y, depth+1))
	case *ssa.Call:
		if b, ok := x.Call.Value.(*ssa.Builtin); ok && b.Name() == "len" && len(x.Call.Args) == 1 {
			return readsConfig(x.Call.Args[0], depth+1)
		}
		return namedForConfig("", x.Type()) // config.FromContext(ctx)
	case *ssa.FieldAddr:
		return namedForConfig(ssautil.FieldName(x), x.Type()) || readsConfig(x.X, depth+1)
	case *ssa.Field:
		f := ssautil.StructField(x.X.Type(), x.Field)
		return f != nil && namedForConfig(f.Name(), x.Type()) || readsConfig(x.X, depth+1)
	case *ssa.Global:
		return namedForConfig(x.Name(), x.Type())
	case *ssa.Alloc: // a local whose address is taken: cfg := config.FromContext(ctx)
		return namedForConfig(x.Comment, x.Type())
	case *ssa.Parameter:
		return namedForConfig(x.Name(), x.Type())
	case *ssa.FreeVar:
		return namedForConfig(x.Name(), x.Type())
	}
	return false
}

// namedForConfig reports whether name, or the named type t is or points to,
// ends with a word for configuration (config, appConfig, AIConfig, opts;
// not a ConfigHandler or a configStore, whose fields are their own state).
func namedForConfig(name string, t types.Type) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	names := []string{name}
	if named, ok := types.Unalias(t).(*types.Named); ok {
		names = append(names, named.Obj().Name())
	}
	return slices.ContainsFunc(names, func(n string) bool {
		n = strings.ToLower(n)
		return slices.ContainsFunc(catalog.ConfigWords, func(w string) bool { return strings.HasSuffix(n, w) })
	})
}
