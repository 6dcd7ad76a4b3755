package retrystorm

import (
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/catalog"
)

// retriesOnlyConflicts reports whether every way from the failure branch
// of r's check back to the loop's head passes a test that the error is one
// of the catalogue's ConflictErrors (err == redis.TxFailedErr, a case of a
// switch on err, errors.Is(err, redis.TxFailedErr)), taken on its "it is"
// side: the loop goes round only when another writer won, and every other
// error leaves it.
func (c *checker) retriesOnlyConflicts(r *retry) bool {
	if isConflict, _ := c.conflictTest(r.errCheck.Cond); isConflict {
		return true
	}
	l := r.loop
	seen := map[*ssa.BasicBlock]bool{}
	stack := []*ssa.BasicBlock{r.fail}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if b == l.header {
			return false // back round on an error no conflict test picked out
		}
		if seen[b] || !l.blocks[b] {
			continue
		}
		seen[b] = true
		if ifInstr, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If); ok {
			if isConflict, conflictIdx := c.conflictTest(ifInstr.Cond); isConflict {
				stack = append(stack, b.Succs[1-conflictIdx]) // only the other errors must leave
				continue
			}
		}
		stack = append(stack, b.Succs...)
	}
	return true
}

// conflictTest reports whether cond tests an error against a conflict
// error of the catalogue, and the successor taken when it is one.
func (c *checker) conflictTest(cond ssa.Value) (bool, int) {
	switch cond := cond.(type) {
	case *ssa.UnOp:
		if cond.Op == token.NOT {
			if ok, idx := c.conflictTest(cond.X); ok {
				return true, 1 - idx
			}
		}
	case *ssa.BinOp:
		if cond.Op != token.EQL && cond.Op != token.NEQ {
			return false, 0
		}
		if !c.isConflictError(cond.X) && !c.isConflictError(cond.Y) {
			return false, 0
		}
		if cond.Op == token.EQL {
			return true, 0
		}
		return true, 1
	case *ssa.Call:
		callee := cond.Common().StaticCallee()
		args := cond.Common().Args
		if fn, ok := calleeObject(callee); ok && len(args) == 2 && fn.Name() == "Is" && catalog.ErrorMatchers.Has(fn) {
			return c.isConflictError(args[1]), 0
		}
	}
	return false, 0
}

// isConflictError reports whether v is one of the catalogue's conflict
// errors: a package variable (a load of its global) or a typed constant
// (go-redis's TxFailedErr is a constant of its RedisError type) converted
// to error.
func (c *checker) isConflictError(v ssa.Value) bool {
	if mi, ok := v.(*ssa.MakeInterface); ok {
		v = mi.X
	}
	switch v := unwrapLoad(v).(type) {
	case *ssa.Global:
		return isConflictKey(v.Object())
	case *ssa.Const:
		named, ok := v.Type().(*types.Named)
		if !ok || v.Value == nil || named.Obj().Pkg() == nil {
			return false
		}
		for _, key := range catalog.ConflictErrors {
			if k, ok := c.conflictConst(key); ok && types.Identical(k.Type(), v.Type()) && constant.Compare(k.Val(), token.EQL, v.Value) {
				return true
			}
		}
	}
	return false
}

func isConflictKey(obj types.Object) bool {
	if obj == nil || obj.Pkg() == nil {
		return false
	}
	for _, key := range catalog.ConflictErrors {
		if key == obj.Pkg().Path()+"."+obj.Name() {
			return true
		}
	}
	return false
}

// conflictConst finds the constant a catalogue key names among the
// packages this one imports (a comparison with it names its package).
func (c *checker) conflictConst(key string) (*types.Const, bool) {
	dot := strings.LastIndex(key, ".")
	for _, p := range c.pass.Pkg.Imports() {
		if p.Path() == key[:dot] {
			k, ok := p.Scope().Lookup(key[dot+1:]).(*types.Const)
			return k, ok
		}
	}
	return nil, false
}
