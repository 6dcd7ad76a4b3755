package catalog

import (
	"go/types"
	"maps"
	"strings"
	"unicode"
)

// MoneyPatterns say which values hold money: tax, rates, fees, amounts,
// prices, totals. A value is money by its type (a decimal type, or a named
// type such as Money, Cents or TaxAmount) or by its name (taxCents,
// shippingFee). Names are split into words at case changes, digits and
// underscores, and matched word by word, so "syntax" is not "tax".
type MoneyPatterns struct {
	// Types are money types by full name, pointer stripped:
	// "github.com/shopspring/decimal.Decimal".
	Types map[string]bool
	// Strong words make a numeric value money whatever its type: taxCents
	// int64, fee float64.
	Strong map[string]bool
	// Weak words make money only a value of a non-integer or money type:
	// rate float64 is money, rate int (requests a second) is not.
	Weak map[string]bool
	// Excluded words veto the rest: sampleRate, totalCount, rateLimit,
	// errorRate are not money.
	Excluded map[string]bool
	// NotMoneyPackages declare no money types, whatever their names.
	NotMoneyPackages map[string]bool
}

// Money is bhlint's table of money patterns.
var Money = &MoneyPatterns{
	Types: moneyKeySet(
		"github.com/shopspring/decimal.Decimal", "github.com/shopspring/decimal.NullDecimal",
		"github.com/cockroachdb/apd.Decimal", "github.com/cockroachdb/apd/v2.Decimal",
		"github.com/cockroachdb/apd/v3.Decimal", "github.com/govalues/decimal.Decimal",
		"github.com/ericlagergren/decimal.Big", "github.com/Rhymond/go-money.Money",
		"github.com/bojanz/currency.Amount",
	),
	Strong: moneyKeySet(
		"tax", "taxes", "vat", "gst", "hst", "price", "prices", "fee", "fees", "cents", "money",
		"charge", "charges", "subtotal", "surcharge", "duty", "duties", "tariff", "payout",
		"refund", "premium", "commission", "levy", "pennies",
	),
	Weak: moneyKeySet(
		"rate", "rates", "total", "totals", "amount", "amounts", "balance", "cost", "costs",
		"discount", "interest",
	),
	Excluded: moneyKeySet(
		"count", "counts", "limit", "limits", "limiter", "sample", "sampling", "error", "errors",
		"err", "hit", "miss", "success", "failure", "retry", "retries", "attempt", "attempts",
		"num", "bit", "bits", "byte", "bytes", "frame", "frames", "poll", "refresh", "request",
		"requests", "req", "reqs", "qps", "rps", "tick", "learning", "heart", "id", "key", "name",
		"code", "url", "status", "flag", "ok", "found", "exists", "pct", "percentile", "items",
		"lines", "rows", "len", "size", "timeout", "duration", "ms", "seconds",
	),
	NotMoneyPackages: moneyKeySet("golang.org/x/time/rate", "time", "math/big"),
}

// Clone returns a copy that can be extended without changing m.
func (m *MoneyPatterns) Clone() *MoneyPatterns {
	return &MoneyPatterns{
		Types: maps.Clone(m.Types), Strong: maps.Clone(m.Strong), Weak: maps.Clone(m.Weak),
		Excluded: maps.Clone(m.Excluded), NotMoneyPackages: maps.Clone(m.NotMoneyPackages),
	}
}

// AddWords extends the word lists, as a user's configuration does.
func (m *MoneyPatterns) AddWords(strong, weak, excluded []string) {
	for _, w := range strong {
		m.Strong[strings.ToLower(w)] = true
	}
	for _, w := range weak {
		m.Weak[strings.ToLower(w)] = true
	}
	for _, w := range excluded {
		m.Excluded[strings.ToLower(w)] = true
	}
}

// AddTypes adds money types by full name, as a user's configuration does.
func (m *MoneyPatterns) AddTypes(types ...string) {
	for _, t := range types {
		m.Types[t] = true
	}
}

// Words splits an identifier into lower-case words: "taxRateUSD" →
// [tax rate usd], "total_cents" → [total cents].
func Words(name string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	runes := []rune(name)
	for i, r := range runes {
		switch {
		case r == '_' || unicode.IsDigit(r):
			flush()
			continue
		case unicode.IsUpper(r) && len(cur) > 0:
			prevLower := unicode.IsLower(runes[i-1])
			nextLower := i+1 < len(runes) && unicode.IsLower(runes[i+1])
			if prevLower || nextLower {
				flush()
			}
		}
		cur = append(cur, r)
	}
	flush()
	return words
}

// NameIsMoney reports whether a value called name, of type t, holds money.
func (m *MoneyPatterns) NameIsMoney(name string, t types.Type) bool {
	if !moneyIsNumeric(t) && !m.TypeIsMoney(t) {
		return false
	}
	strong, weak := false, false
	for _, w := range Words(name) {
		switch {
		case m.Excluded[w]:
			return false
		case m.Strong[w]:
			strong = true
		case m.Weak[w]:
			weak = true
		}
	}
	return strong || (weak && (m.TypeIsMoney(t) || !moneyIsInteger(t)))
}

// TypeIsMoney reports whether t (or what it points to) is a money type: a
// decimal type of the table, or a named numeric or struct type whose name has
// a money word (Money, Cents, TaxAmount, Rate).
func (m *MoneyPatterns) TypeIsMoney(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	obj := named.Obj()
	if obj.Pkg() == nil || m.NotMoneyPackages[obj.Pkg().Path()] {
		return false
	}
	if m.Types[obj.Pkg().Path()+"."+obj.Name()] {
		return true
	}
	switch named.Underlying().(type) {
	case *types.Basic:
		if !moneyIsNumeric(named) {
			return false
		}
	case *types.Struct:
	default:
		return false
	}
	money := false
	for _, w := range Words(obj.Name()) {
		if m.Excluded[w] {
			return false
		}
		money = money || m.Strong[w] || m.Weak[w]
	}
	return money
}

func moneyIsNumeric(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsNumeric != 0
}

func moneyIsInteger(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

// MoneyConstructors build a money value from their arguments; called with
// constants only, they make a hard-coded value: decimal.NewFromFloat(0.07).
var MoneyConstructors = newTable(
	"github.com/shopspring/decimal.New", "github.com/shopspring/decimal.NewFromInt",
	"github.com/shopspring/decimal.NewFromInt32", "github.com/shopspring/decimal.NewFromFloat",
	"github.com/shopspring/decimal.NewFromFloat32", "github.com/shopspring/decimal.NewFromString",
	"github.com/shopspring/decimal.RequireFromString", "github.com/shopspring/decimal.NewFromFloatWithExponent",
	"github.com/cockroachdb/apd/v3.New", "github.com/cockroachdb/apd/v3.NewWithBigInt",
	"github.com/cockroachdb/apd/v2.New", "github.com/cockroachdb/apd.New",
	"github.com/govalues/decimal.New", "github.com/govalues/decimal.MustNew",
	"github.com/govalues/decimal.MustParse", "github.com/govalues/decimal.NewFromFloat64",
	"github.com/Rhymond/go-money.New", "github.com/Rhymond/go-money.NewFromFloat",
	"github.com/bojanz/currency.NewAmount",
)

// MoneyConstants are package-level money values that are constants in all
// but name: "github.com/shopspring/decimal.Zero".
var MoneyConstants = moneyKeySet(
	"github.com/shopspring/decimal.Zero", "github.com/govalues/decimal.Zero",
)

// VerifiedSources are reads of verified compensation tables: a value read
// from one is verified, not invented. bhlint's runtime has one,
// bulkhead/compensation; the linter knows it by import path only.
var VerifiedSources = newTable(
	"(*github.com/bhlint/bhlint/bulkhead/compensation.Table).*",
)

// FallbackFuncs register the function passed as the given argument as a
// fallback: its whole body is a fallback path.
var FallbackFuncs = map[string]int{
	"github.com/failsafe-go/failsafe-go/fallback.NewWithFunc":        0,
	"github.com/failsafe-go/failsafe-go/fallback.NewBuilderWithFunc": 0,
}

// FallbackValues register the value passed as the given argument as the
// result served when the protected call fails.
var FallbackValues = map[string]int{
	"github.com/failsafe-go/failsafe-go/fallback.NewWithResult":        0,
	"github.com/failsafe-go/failsafe-go/fallback.NewBuilderWithResult": 0,
}

// ErrorTests are functions whose call in a condition tests an error, so the
// branch it guards is a fallback path.
var ErrorTests = newTable(
	"errors.Is", "errors.As", "github.com/bhlint/bhlint/bulkhead.AsRejection",
)

// RejectionErrors are the errors of breakers and bulkheads that reject work
// without running it, with how to describe them in a finding. Any error
// test is a fallback path; these only name it better.
var RejectionErrors = map[string]string{
	"github.com/sony/gobreaker.ErrOpenState":                     "the circuit breaker is open",
	"github.com/sony/gobreaker.ErrTooManyRequests":               "the half-open circuit breaker refused the call",
	"github.com/sony/gobreaker/v2.ErrOpenState":                  "the circuit breaker is open",
	"github.com/sony/gobreaker/v2.ErrTooManyRequests":            "the half-open circuit breaker refused the call",
	"github.com/failsafe-go/failsafe-go/circuitbreaker.ErrOpen":  "the circuit breaker is open",
	"github.com/failsafe-go/failsafe-go/bulkhead.ErrFull":        "the bulkhead is full",
	"github.com/failsafe-go/failsafe-go/ratelimiter.ErrExceeded": "the rate limiter refused the call",
	"github.com/failsafe-go/failsafe-go/timeout.ErrExceeded":     "the call timed out",
	"github.com/bhlint/bhlint/bulkhead.ErrRejected":              "the lane rejected the work",
	"*github.com/bhlint/bhlint/bulkhead.Rejection":               "the lane rejected the work",
	"github.com/bhlint/bhlint/bulkhead.AsRejection":              "the lane rejected the work",
	"github.com/afex/hystrix-go/hystrix.ErrCircuitOpen":          "the circuit breaker is open",
	"github.com/afex/hystrix-go/hystrix.ErrMaxConcurrency":       "the bulkhead is full",
	"context.DeadlineExceeded":                                   "the call timed out",
}

// NotFoundErrors mean "there is no such row or key": a successful answer,
// not a failed dependency, so the branch they guard is not a fallback path.
var NotFoundErrors = moneyKeySet(
	"database/sql.ErrNoRows", "github.com/jackc/pgx/v5.ErrNoRows", "github.com/jackc/pgx/v4.ErrNoRows",
	"gorm.io/gorm.ErrRecordNotFound", "github.com/redis/go-redis/v9.Nil", "io/fs.ErrNotExist", "os.ErrNotExist",
)

func moneyKeySet(keys ...string) map[string]bool {
	m := make(map[string]bool, len(keys))
	for _, k := range keys {
		m[k] = true
	}
	return m
}
