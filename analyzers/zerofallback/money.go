package zerofallback

import (
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/guard"
)

// moneyPatterns are the catalogue's money patterns, extended by the
// project's .bhlint.yml; the shared table itself is never changed.
func moneyPatterns(pass *analysis.Pass) (*catalog.MoneyPatterns, error) {
	cfg, err := guard.Config(pass)
	if err != nil {
		return nil, err
	}
	m := cfg.Money
	if len(m.Words)+len(m.WeakWords)+len(m.NotMoney)+len(m.Types) == 0 {
		return catalog.Money, nil
	}
	money := catalog.Money.Clone()
	money.AddWords(m.Words, m.WeakWords, m.NotMoney)
	money.AddTypes(m.Types...)
	return money, nil
}

// declaresCatalogType: the decimal and money libraries themselves (their
// Pow returns a zero Decimal on overflow) are arithmetic, not services with
// fallbacks.
func declaresCatalogType(m *catalog.MoneyPatterns, pkg *types.Package) bool {
	for key := range m.Types {
		if strings.HasPrefix(key, pkg.Path()+".") && !strings.Contains(key[len(pkg.Path())+1:], "/") {
			return true
		}
	}
	return false
}

// declaresMoney is the early bail-out: a package that defines no money
// variable, field, result or type cannot serve an invented money value.
func declaresMoney(m *catalog.MoneyPatterns, pass *analysis.Pass) bool {
	for id, obj := range pass.TypesInfo.Defs {
		switch obj := obj.(type) {
		case *types.Var:
			if holdsMoney(m, obj.Type()) || m.NameIsMoney(id.Name, obj.Type()) {
				return true
			}
		case *types.Func:
			res := obj.Signature().Results()
			for i := range res.Len() {
				if holdsMoney(m, res.At(i).Type()) || m.NameIsMoney(id.Name, res.At(i).Type()) {
					return true
				}
			}
		case *types.TypeName:
			if holdsMoney(m, obj.Type()) {
				return true
			}
		}
	}
	return false
}

// holdsMoney: a money type, or a struct (or pointer to one) with a money field.
func holdsMoney(m *catalog.MoneyPatterns, t types.Type) bool {
	if t == nil {
		return false
	}
	if m.TypeIsMoney(t) {
		return true
	}
	st, ok := pointee(t).Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for f := range st.Fields() {
		if isMoneyField(m, f) {
			return true
		}
	}
	return false
}

func isMoneyField(m *catalog.MoneyPatterns, f *types.Var) bool {
	return m.TypeIsMoney(f.Type()) || m.NameIsMoney(f.Name(), f.Type())
}

func noun(t types.Type, names string) string {
	var words []string
	for _, name := range strings.Fields(names) {
		words = append(words, catalog.Words(name)...)
	}
	for _, w := range append(words, catalog.Words(typeName(t))...) {
		switch w {
		case "tax", "taxes", "vat", "gst":
			return "tax"
		case "rate", "rates":
			return "rate"
		case "fee", "fees":
			return "fee"
		case "price", "prices":
			return "price"
		}
	}
	return "amount"
}

func typeName(t types.Type) string {
	if n, ok := types.Unalias(pointee(t)).(*types.Named); ok {
		return n.Obj().Name()
	}
	return ""
}
