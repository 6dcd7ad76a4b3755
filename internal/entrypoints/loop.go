package entrypoints

import (
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/catalog"
)

// calleeDepth is how far Loop looks down static calls for the loop: go
// s.run() where run calls s.loop().
const calleeDepth = 2

// Loop says how fn loops for the life of the process ("ticker loop",
// "receive loop", "infinite loop"), or "" if it does not: a function that
// returns after its work, as a goroutine per request does, is not
// background work.
func (f *Finder) Loop(fn *ssa.Function) string {
	return f.loop(fn, calleeDepth, map[*ssa.Function]bool{})
}

func (f *Finder) loop(fn *ssa.Function, depth int, seen map[*ssa.Function]bool) string {
	if fn == nil || seen[fn] {
		return ""
	}
	seen[fn] = true
	if len(fn.Blocks) == 0 {
		if obj, ok := fn.Object().(*types.Func); ok && f.LoopOf != nil {
			return f.LoopOf(obj)
		}
		return ""
	}
	if how := ownLoop(fn); how != "" {
		return how
	}
	if depth == 0 {
		return ""
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			if callee := call.Common().StaticCallee(); callee != nil {
				if how := f.loop(declared(callee), depth-1, seen); how != "" {
					return how
				}
			}
		}
	}
	return ""
}

// ownLoop finds, among fn's natural loops, one that waits on each round
// (a channel receive, a blocking select, a sleep) or never exits.
func ownLoop(fn *ssa.Function) string {
	for _, b := range fn.Blocks {
		for _, header := range b.Succs {
			if !header.Dominates(b) {
				continue // not a back edge
			}
			body := loopBody(header, b)
			if strings.HasPrefix(header.Comment, "range") && header.Comment != "rangechan.loop" {
				continue // a range over a slice, map, string or int ends with it
			}
			if counted(header) {
				continue // for i := 0; i < n; i++: a fan-in of n results, not a service loop
			}
			if how := waitIn(body); how != "" {
				return how
			}
			if header.Comment == "for.body" && closed(body) {
				return "infinite loop"
			}
		}
	}
	return ""
}

// loopBody is the natural loop of the back edge latch → header.
func loopBody(header, latch *ssa.BasicBlock) map[*ssa.BasicBlock]bool {
	body := map[*ssa.BasicBlock]bool{header: true}
	stack := []*ssa.BasicBlock{latch}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if body[b] {
			continue
		}
		body[b] = true
		stack = append(stack, b.Preds...)
	}
	return body
}

// waitIn says what a loop waits on each round: a timer or ticker channel,
// another channel (a queue consumer), or a sleep.
func waitIn(body map[*ssa.BasicBlock]bool) string {
	how := ""
	for b := range body {
		for _, instr := range b.Instrs {
			switch instr := instr.(type) {
			case *ssa.UnOp:
				if instr.Op == token.ARROW {
					how = better(how, channelLoop(instr.X.Type()))
				}
			case *ssa.Select:
				if !instr.Blocking {
					continue
				}
				for _, st := range instr.States {
					if st.Dir == types.RecvOnly {
						how = better(how, channelLoop(st.Chan.Type()))
					}
				}
			case *ssa.Call:
				if callee := instr.Common().StaticCallee(); callee != nil {
					if obj, ok := callee.Object().(*types.Func); ok && sleeps[catalog.Key(obj)] {
						how = better(how, "sleep loop")
					}
					if receivesEachCall(callee) {
						how = better(how, "receive loop") // the next item, taken by a helper: getNextLine(queue)
					}
				}
			}
		}
	}
	return how
}

// receivesEachCall reports whether fn waits on a channel receive before any
// of its returns: a block that receives (a receive, or a blocking select
// with a receive case) dominates every block that returns.
func receivesEachCall(fn *ssa.Function) bool {
	var receives, returns []*ssa.BasicBlock
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch instr := instr.(type) {
			case *ssa.UnOp:
				if instr.Op == token.ARROW {
					receives = append(receives, b)
				}
			case *ssa.Select:
				if instr.Blocking && slices.ContainsFunc(instr.States, func(st *ssa.SelectState) bool { return st.Dir == types.RecvOnly }) {
					receives = append(receives, b)
				}
			case *ssa.Return:
				returns = append(returns, b)
			}
		}
	}
	return len(returns) > 0 && slices.ContainsFunc(receives, func(r *ssa.BasicBlock) bool {
		return !slices.ContainsFunc(returns, func(ret *ssa.BasicBlock) bool { return !r.Dominates(ret) })
	})
}

// channelLoop names a loop by what it receives from: time.Time values come
// from a ticker or timer.
func channelLoop(t types.Type) string {
	if ch, ok := t.Underlying().(*types.Chan); ok {
		if named, ok := types.Unalias(ch.Elem()).(*types.Named); ok && named.Obj().Pkg() != nil &&
			named.Obj().Pkg().Path() == "time" && named.Obj().Name() == "Time" {
			return "ticker loop"
		}
	}
	return "receive loop"
}

// better keeps the most telling name: a ticker beats a receive, which
// beats a sleep.
func better(a, b string) string {
	rank := map[string]int{"": 0, "sleep loop": 1, "receive loop": 2, "ticker loop": 3}
	if rank[b] > rank[a] {
		return b
	}
	return a
}

// closed reports whether a loop has no way out: no edge leaves it and no
// block in it returns (a panic may end it).
func closed(body map[*ssa.BasicBlock]bool) bool {
	for b := range body {
		for _, s := range b.Succs {
			if !body[s] {
				return false
			}
		}
		if len(b.Instrs) > 0 {
			if _, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
				return false
			}
		}
	}
	return true
}

// counted reports whether a loop's condition compares an integer that
// changes with each round (a loop counter).
func counted(header *ssa.BasicBlock) bool {
	if header.Comment != "for.loop" || len(header.Instrs) == 0 {
		return false
	}
	cond, ok := header.Instrs[len(header.Instrs)-1].(*ssa.If)
	if !ok {
		return false
	}
	bin, ok := cond.Cond.(*ssa.BinOp)
	if !ok {
		return false
	}
	for _, v := range []ssa.Value{bin.X, bin.Y} {
		if phi, ok := v.(*ssa.Phi); ok && phi.Block() == header {
			if basic, ok := phi.Type().Underlying().(*types.Basic); ok && basic.Info()&types.IsInteger != 0 {
				return true
			}
		}
	}
	return false
}
