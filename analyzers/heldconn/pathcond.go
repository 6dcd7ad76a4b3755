package heldconn

import (
	"go/constant"
	"go/token"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Counters along a path. A batch loop begins a transaction when its counter
// is zero, increments it, and commits and resets it at the batch size; a
// test of the counter for zero after the loop is then reached only with the
// transaction committed. follow tracks the sign of the integer phis it
// passes (zero, positive) to take only the branch such a test allows. What
// it cannot decide, it follows both ways, as before.

type sign uint8

const (
	signUnknown sign = iota
	signZero
	signPositive
)

// signs is what a path knows about integer phis. It is copied on change.
type signs map[ssa.Value]sign

// maxStates bounds the distinct sign sets follow visits a block with; past
// it the block is visited once more knowing nothing, which covers them all.
const maxStates = 4

func (s signs) key() string {
	if len(s) == 0 {
		return ""
	}
	parts := make([]string, 0, len(s))
	for v, sg := range s {
		parts = append(parts, v.Name()+"="+strconv.Itoa(int(sg)))
	}
	slices.Sort(parts)
	return strings.Join(parts, ",")
}

// eval returns the sign of v on this path.
func (s signs) eval(v ssa.Value, depth int) sign {
	if depth > 4 {
		return signUnknown
	}
	switch v := v.(type) {
	case *ssa.Const:
		return constSign(v)
	case *ssa.Phi:
		return s[v]
	case *ssa.BinOp:
		x, y := s.eval(v.X, depth+1), s.eval(v.Y, depth+1)
		switch v.Op {
		case token.ADD:
			switch {
			case x == signZero:
				return y
			case y == signZero:
				return x
			case x == signPositive && y == signPositive:
				return signPositive
			}
		case token.SUB:
			if y == signZero {
				return x
			}
		}
	}
	return signUnknown
}

func constSign(c *ssa.Const) sign {
	if c.Value == nil || c.Value.Kind() != constant.Int {
		return signUnknown
	}
	switch constant.Sign(c.Value) {
	case 0:
		return signZero
	case 1:
		return signPositive
	}
	return signUnknown
}

// enter returns the signs on entering succ from pred: its phis take the
// values of pred's edge, all at once.
func (s signs) enter(pred, succ *ssa.BasicBlock) signs {
	idx := slices.Index(succ.Preds, pred)
	var out signs
	for _, instr := range succ.Instrs {
		phi, ok := instr.(*ssa.Phi)
		if !ok {
			break
		}
		if out == nil {
			out = make(signs, len(s)+1)
			for k, v := range s {
				out[k] = v
			}
		}
		sg := signUnknown
		if idx >= 0 && idx < len(phi.Edges) {
			sg = s.eval(phi.Edges[idx], 0)
		}
		if sg == signUnknown {
			delete(out, phi)
		} else {
			out[phi] = sg
		}
	}
	if out == nil {
		return s
	}
	return out
}

// decide says which way an If on a comparison of an integer with zero goes:
// 0 for the true branch, 1 for the false one, -1 when the signs do not say.
func (s signs) decide(cond ssa.Value) int {
	bin, ok := cond.(*ssa.BinOp)
	if !ok {
		return -1
	}
	x, c := bin.X, bin.Y
	op := bin.Op
	if k, ok := x.(*ssa.Const); ok {
		x, c = bin.Y, k
		op = mirror(op)
	}
	k, ok := c.(*ssa.Const)
	if !ok || constSign(k) != signZero {
		return -1
	}
	var holds bool
	switch sg := s.eval(x, 0); {
	case sg == signUnknown:
		return -1
	case op == token.EQL:
		holds = sg == signZero
	case op == token.NEQ, op == token.GTR:
		holds = sg == signPositive
	case op == token.LEQ:
		holds = sg == signZero
	default:
		return -1
	}
	if holds {
		return 0
	}
	return 1
}

func mirror(op token.Token) token.Token {
	switch op {
	case token.GTR:
		return token.LSS
	case token.LSS:
		return token.GTR
	case token.GEQ:
		return token.LEQ
	case token.LEQ:
		return token.GEQ
	}
	return op
}

// guardSigns seeds the path with what the branches that lead to b say: a
// block reached only through the true edge of `n == 0` knows n is zero.
func guardSigns(b *ssa.BasicBlock) signs {
	var s signs
	for d := b; d != nil; d = d.Idom() {
		dom := d.Idom()
		if dom == nil || len(d.Preds) != 1 || d.Preds[0] != dom {
			continue
		}
		ifInstr, ok := dom.Instrs[len(dom.Instrs)-1].(*ssa.If)
		if !ok || len(dom.Succs) != 2 {
			continue
		}
		bin, ok := ifInstr.Cond.(*ssa.BinOp)
		if !ok {
			continue
		}
		phi, ok := bin.X.(*ssa.Phi)
		k, isConst := bin.Y.(*ssa.Const)
		if !ok || !isConst || constSign(k) != signZero {
			continue
		}
		trueEdge := dom.Succs[0] == d
		var sg sign
		switch {
		case bin.Op == token.EQL && trueEdge, bin.Op == token.NEQ && !trueEdge:
			sg = signZero
		case bin.Op == token.GTR && trueEdge:
			sg = signPositive
		default:
			continue
		}
		if s == nil {
			s = signs{}
		}
		if _, known := s[phi]; !known {
			s[phi] = sg
		}
	}
	return s
}
