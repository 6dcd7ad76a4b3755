package compensation

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
)

// DefaultTolerance is the relative error an entry may have against its
// authoritative value: ±0.5%.
const DefaultTolerance = 0.005

// TB is the part of testing.TB that Verify uses; *testing.T satisfies it.
type TB interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
	Logf(format string, args ...any)
}

// Authority is the authoritative table an entry is checked against, with a
// name for the verification record ("CDTFA published rates 2026-10").
type Authority struct {
	Name    string
	Entries map[string]float64
}

// VerifyOption changes how Verify checks.
type VerifyOption func(*verifyConfig)

type verifyConfig struct{ tolerance float64 }

// WithTolerance sets the relative tolerance, 0.005 for ±0.5%. A negative or
// NaN tolerance makes Verify fail.
func WithTolerance(relative float64) VerifyOption {
	return func(c *verifyConfig) { c.tolerance = relative }
}

// Mismatch is one entry that failed verification.
type Mismatch struct {
	Key       string
	Value     float64 // the table's
	Authority float64 // the authority's; NaN if it has no such key
}

func (m Mismatch) String() string {
	if math.IsNaN(m.Authority) {
		return fmt.Sprintf("%s = %g: the authority has no entry for it, so it cannot be verified", m.Key, m.Value)
	}
	return fmt.Sprintf("%s = %g, authority %g (off by %.3f%%)", m.Key, m.Value, m.Authority, 100*relativeError(m.Value, m.Authority))
}

// Compare checks every entry of t against the authority and returns the
// entries that are off by more than the relative tolerance, or that the
// authority does not know, sorted by key.
func Compare(t *Table, authority map[string]float64, tolerance float64) []Mismatch {
	var out []Mismatch
	for _, key := range t.Keys() {
		v := t.Entries[key]
		want, ok := authority[key]
		switch {
		case !ok:
			out = append(out, Mismatch{Key: key, Value: v, Authority: math.NaN()})
		case !(relativeError(v, want) <= tolerance):
			out = append(out, Mismatch{Key: key, Value: v, Authority: want})
		}
	}
	return out
}

// relativeError is |v-want|/|want|; an authoritative zero must be matched exactly.
func relativeError(v, want float64) float64 {
	if want == 0 {
		if v == 0 {
			return 0
		}
		return math.Inf(1)
	}
	return math.Abs(v-want) / math.Abs(want)
}

// Verify is the contract test of the table file at path: call it from a
// go test with the authoritative rates or amounts. Every entry must be
// within the tolerance of the authority's value (DefaultTolerance unless
// WithTolerance says otherwise), and the authority must know every key. If
// all are, Verify writes the verification record (path + ".verified") that
// Load requires; if any is not, it reports each one with tb.Errorf and
// removes a stale record, so the table cannot be loaded until it is fixed.
func Verify(tb TB, path string, authority Authority, opts ...VerifyOption) {
	tb.Helper()
	cfg := verifyConfig{tolerance: DefaultTolerance}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.tolerance < 0 || math.IsNaN(cfg.tolerance) {
		tb.Fatalf("compensation.Verify(%s): tolerance %g is not a relative error ≥ 0", path, cfg.tolerance)
		return
	}
	if authority.Name == "" || len(authority.Entries) == 0 {
		tb.Fatalf("compensation.Verify(%s): the authority needs a name and entries", path)
		return
	}
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatalf("compensation.Verify: %v", err)
		return
	}
	t, err := Parse(data)
	if err != nil {
		tb.Fatalf("compensation.Verify(%s): %v", path, err)
		return
	}
	record := path + RecordSuffix
	if mismatches := Compare(t, authority.Entries, cfg.tolerance); len(mismatches) > 0 {
		for _, m := range mismatches {
			tb.Errorf("compensation table %s (%s): %s; tolerance ±%g%%", t.Name, path, m, 100*cfg.tolerance)
		}
		if err := os.Remove(record); err != nil && !errors.Is(err, fs.ErrNotExist) {
			tb.Errorf("compensation.Verify: removing the stale record: %v", err)
		}
		return
	}
	rec := Record{
		Table: t.Name, SHA256: t.digest, AsOf: t.AsOf.Format(DateLayout),
		Entries: len(t.Entries), Authority: authority.Name, Tolerance: cfg.tolerance,
	}
	out, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		tb.Fatalf("compensation.Verify: %v", err)
		return
	}
	if err := os.WriteFile(record, append(out, '\n'), 0o644); err != nil {
		tb.Fatalf("compensation.Verify: writing the record: %v", err)
		return
	}
	tb.Logf("compensation table %s: %d entries verified against %s within ±%g%%; recorded in %s",
		t.Name, len(t.Entries), authority.Name, 100*cfg.tolerance, record)
}
