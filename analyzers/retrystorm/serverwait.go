package retrystorm

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// serverPaced reports whether every way round the loop waits for a time
// read out of the retried call's own result: the server's Retry-After, as
// a field of its error (errors.As(err, &rl); time.Sleep(rl.RetryAfter)) or
// a header of its response (resp.Header.Get("Retry-After"), parsed). Such
// a loop goes round when, and as often as, the server says it may: it
// honours the server, it does not storm it. A way round that waits a
// constant time, or not at all, is still judged as usual.
func (c *checker) serverPaced(r *retry) bool {
	waits := map[*ssa.BasicBlock]bool{}
	for b := range r.loop.blocks {
		for _, instr := range b.Instrs {
			fromServer := false
			dur := func(v ssa.Value) (bool, []int) {
				fromServer = fromServer || r.readFromResult(v)
				return false, nil
			}
			if p, _ := c.instrPause(instr, dur); p != noPause && fromServer {
				waits[b] = true
			}
		}
	}
	if len(waits) == 0 {
		return false
	}
	// Can the loop come back to its head without passing such a wait?
	seen := map[*ssa.BasicBlock]bool{}
	stack := append([]*ssa.BasicBlock(nil), r.loop.header.Succs...)
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if b == r.loop.header {
			return false
		}
		if !r.loop.blocks[b] || seen[b] || waits[b] {
			continue
		}
		seen[b] = true
		stack = append(stack, b.Succs...)
	}
	return true
}

// readFromResult reports whether v is read out of the retried call's
// result: a field, or what a method returns, of its error or response, or
// of a value errors.As filled from its error, through parsing and
// conversion (strconv.Atoi, time.Duration(n) * time.Second). The error or
// response itself handed to a function (delayFor(err)) is not a reading:
// that function may answer a constant.
func (r *retry) readFromResult(v ssa.Value) bool {
	seen := map[ssa.Value]bool{}
	var walk func(v ssa.Value, read bool) bool
	walk = func(v ssa.Value, read bool) bool {
		if v == nil || seen[v] {
			return false
		}
		seen[v] = true
		switch v := v.(type) {
		case *ssa.Extract:
			if call, ok := v.Tuple.(*ssa.Call); ok && r.isOwnResult(call) {
				return read
			}
		case *ssa.Call:
			if r.isOwnResult(v) {
				return read
			}
			common := v.Common()
			if common.IsInvoke() && walk(common.Value, true) {
				return true // rl.RetryAfter()
			}
			for i, a := range common.Args {
				method := i == 0 && common.StaticCallee() != nil && common.StaticCallee().Signature.Recv() != nil
				if walk(a, read || method) {
					return true // resp.Header.Get("Retry-After"), strconv.Atoi(s)
				}
			}
			return false
		case *ssa.FieldAddr:
			return walk(v.X, true)
		case *ssa.Field:
			return walk(v.X, true)
		case *ssa.UnOp:
			if v.Op == token.MUL {
				return walk(v.X, read)
			}
		case *ssa.Alloc:
			// var rl *RateLimitedError; errors.As(err, &rl): the variable
			// holds what the call that takes its address put there.
			addrs := map[ssa.Value]bool{v: true}
			refs := append([]ssa.Instruction(nil), *v.Referrers()...)
			for len(refs) > 0 {
				ref := refs[0]
				refs = refs[1:]
				switch ref := ref.(type) {
				case *ssa.MakeInterface: // errors.As takes any
					addrs[ref] = true
					refs = append(refs, *ref.Referrers()...)
				case *ssa.Store:
					if addrs[ref.Addr] && walk(ref.Val, read) {
						return true
					}
				case *ssa.Call:
					for _, a := range ref.Common().Args {
						if !addrs[a] && walk(a, read) {
							return true
						}
					}
				}
			}
			return false
		}
		for _, op := range operands(v) {
			if walk(op, read) {
				return true
			}
		}
		return false
	}
	return walk(v, false)
}
