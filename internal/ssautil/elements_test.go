package ssautil_test

import (
	"go/constant"
	"testing"

	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/ssautil"
)

// StoredElements gives the values written into a variadic call's backing
// array; FieldName the field a FieldAddr addresses.
func TestStoredElementsAndFieldName(t *testing.T) {
	funcs := buildFuncs(t, `package p
type resp struct{ Code, StatusCode int }
func sum(xs ...int) int { return len(xs) }
func f(r *resp) int { return sum(1, 2, 3) + r.StatusCode }
`)
	var f *ssa.Function
	for _, fn := range funcs {
		if fn.Name() == "f" {
			f = fn
		}
	}
	var elems []int64
	var fields []string
	for _, b := range f.Blocks {
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.Alloc:
				for _, v := range ssautil.StoredElements(x) {
					if k, ok := v.(*ssa.Const); ok {
						n, _ := constant.Int64Val(k.Value)
						elems = append(elems, n)
					}
				}
			case *ssa.FieldAddr:
				fields = append(fields, ssautil.FieldName(x))
			}
		}
	}
	if len(elems) != 3 || elems[0]+elems[1]+elems[2] != 6 {
		t.Errorf("StoredElements = %v, want 1, 2, 3", elems)
	}
	if len(fields) != 1 || fields[0] != "StatusCode" {
		t.Errorf("FieldName = %v, want [StatusCode]", fields)
	}
}
