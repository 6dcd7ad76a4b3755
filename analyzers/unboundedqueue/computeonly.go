package unboundedqueue

import (
	"go/token"

	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/catalog"
)

// inMemoryPackages are standard packages whose functions only compute: a
// call of one never waits for another goroutine, a lock, the clock or the
// network. time is not among them (Sleep, After), nor sync (Lock, Wait).
var inMemoryPackages = map[string]bool{
	"sync/atomic": true, "math": true, "math/bits": true, "strings": true, "strconv": true,
	"sort": true, "slices": true, "maps": true, "unicode": true, "unicode/utf8": true,
	"bytes": true, "errors": true, "cmp": true,
}

// inMemoryMethods are methods of other standard packages that only
// compute; sync.Map's take no lock a caller can hold for long.
var inMemoryMethods = map[string]bool{
	"(*sync.Map).Load": true, "(*sync.Map).Store": true, "(*sync.Map).LoadOrStore": true,
	"(*sync.Map).LoadAndDelete": true, "(*sync.Map).Delete": true, "(*sync.Map).Range": true,
	"(*sync.Map).Swap": true, "(*sync.Map).CompareAndSwap": true, "(*sync.Map).CompareAndDelete": true,
}

// computesOnly reports whether a goroutine's work can never wait: through
// its own package's static calls (and the function literals they make, as
// the one handed to sync.Map's Range), it sends, receives or selects on no
// channel, starts no goroutine, calls nothing dynamic and nothing outside
// the package but functions that only compute or log (catalog.LogPackages).
// Such a goroutine ends on its own in CPU time however slow every
// dependency is: one per item is parallelism, not a queue (a hub that marks
// a user's topics read-only in memory for each status change it receives).
func computesOnly(fn *ssa.Function) bool {
	if fn == nil || fn.Blocks == nil {
		return false
	}
	return everyInstr(fn, func(in ssa.Instruction, walk func(*ssa.Function) bool) bool {
		return instrComputes(in, fn.Pkg, walk)
	})
}

// everyInstr reports whether check holds for every instruction of fn and
// of the functions check walks into (each once): false past 64 functions
// (too deep to be sure) or at a function with no body to read.
func everyInstr(fn *ssa.Function, check func(in ssa.Instruction, walk func(*ssa.Function) bool) bool) bool {
	seen := map[*ssa.Function]bool{}
	var walk func(*ssa.Function) bool
	walk = func(f *ssa.Function) bool {
		if seen[f] {
			return true
		}
		seen[f] = true
		if len(seen) > 64 || f.Blocks == nil {
			return false
		}
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				if !check(in, walk) {
					return false
				}
			}
		}
		return true
	}
	return walk(fn)
}

func instrComputes(in ssa.Instruction, pkg *ssa.Package, walk func(*ssa.Function) bool) bool {
	switch in := in.(type) {
	case *ssa.Send, *ssa.Select, *ssa.Go:
		return false
	case *ssa.UnOp:
		return in.Op != token.ARROW
	case *ssa.MakeClosure:
		return walk(in.Fn.(*ssa.Function))
	case ssa.CallInstruction:
		return callComputes(in.Common(), pkg, walk)
	}
	return true
}

func callComputes(call *ssa.CallCommon, pkg *ssa.Package, walk func(*ssa.Function) bool) bool {
	if _, ok := call.Value.(*ssa.Builtin); ok {
		return true
	}
	callee := call.StaticCallee()
	if callee == nil {
		return false // an interface or a function value: anything may run
	}
	if callee.Pkg == pkg || callee.Parent() != nil && callee.Parent().Pkg == pkg {
		return walk(callee)
	}
	if callee.Pkg == nil {
		return false
	}
	path := callee.Pkg.Pkg.Path()
	return inMemoryPackages[path] || inMemoryMethods[callee.String()] || catalog.LogPackages[path]
}
