package compensation_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/bhlint/bhlint/bulkhead/compensation"
)

const taxTable = `{
  "name": "us-sales-tax",
  "kind": "rate",
  "source": "state revenue departments' published base rates",
  "as_of": "2026-10-01",
  "entries": {"US-CA": 0.0725, "US-NY": 0.04, "US-TX": 0.0625}
}
`

var authority = compensation.Authority{
	Name:    "published base rates 2026-10",
	Entries: map[string]float64{"US-CA": 0.0725, "US-NY": 0.04, "US-TX": 0.0625, "US-WA": 0.065},
}

// fakeTB records what Verify reports, so that a failing contract test can be
// tested without failing this one.
type fakeTB struct {
	errors, fatals, logs []string
}

func (f *fakeTB) Helper() {}
func (f *fakeTB) Errorf(format string, args ...any) {
	f.errors = append(f.errors, fmt.Sprintf(format, args...))
}
func (f *fakeTB) Fatalf(format string, args ...any) {
	f.fatals = append(f.fatals, fmt.Sprintf(format, args...))
}
func (f *fakeTB) Logf(format string, args ...any) {
	f.logs = append(f.logs, fmt.Sprintf(format, args...))
}
func (f *fakeTB) failed() bool { return len(f.errors)+len(f.fatals) > 0 }

var _ compensation.TB = (*testing.T)(nil)

func writeTable(t *testing.T, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "tax_rates.json")
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestVerifyThenLoad(t *testing.T) {
	path := writeTable(t, taxTable)
	compensation.Verify(t, path, authority)

	table, err := compensation.Load(path)
	if err != nil {
		t.Fatalf("Load after Verify: %v", err)
	}
	if !table.Verified() || table.Source == "" || table.AsOf.Format(compensation.DateLayout) != "2026-10-01" {
		t.Errorf("loaded table = %+v, want verified, with source and as-of date", table)
	}
	if rate, err := table.Rate("US-CA"); err != nil || rate != 0.0725 {
		t.Errorf("Rate(US-CA) = %v, %v; want 0.0725", rate, err)
	}
	if _, err := table.Rate("US-OR"); !errors.Is(err, compensation.ErrUnknownKey) {
		t.Errorf("Rate(US-OR) error = %v, want ErrUnknownKey", err)
	}
	if _, err := table.Amount("US-CA"); err == nil {
		t.Error("Amount on a rate table: want an error")
	}
}

func TestEditedTableIsRefused(t *testing.T) {
	path := writeTable(t, taxTable)
	compensation.Verify(t, path, authority)
	edited := strings.Replace(taxTable, `"US-CA": 0.0725`, `"US-CA": 0`, 1)
	if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := compensation.Load(path)
	var unverified *compensation.UnverifiedError
	if !errors.As(err, &unverified) || !strings.Contains(err.Error(), "edited after its contract test") {
		t.Fatalf("Load of an edited table: err = %v, want an *UnverifiedError saying it was edited", err)
	}
}

func TestTableWithoutRecordIsRefused(t *testing.T) {
	path := writeTable(t, taxTable)
	_, err := compensation.Load(path)
	var unverified *compensation.UnverifiedError
	if !errors.As(err, &unverified) || !strings.Contains(err.Error(), "no verification record") {
		t.Fatalf("Load of a never-verified table: err = %v, want an *UnverifiedError", err)
	}
}

func TestRateOffByMoreThanTolerance(t *testing.T) {
	// 0.0725 × 1.006: 0.6% off, beyond the default ±0.5%.
	off := strings.Replace(taxTable, `"US-CA": 0.0725`, `"US-CA": 0.072935`, 1)
	path := writeTable(t, off)
	tb := &fakeTB{}
	compensation.Verify(tb, path, authority)
	if len(tb.errors) != 1 || !strings.Contains(tb.errors[0], "US-CA = 0.072935, authority 0.0725 (off by 0.600%)") {
		t.Fatalf("Verify reported %q, want one error naming US-CA off by 0.600%%", tb.errors)
	}
	if _, err := os.Stat(path + compensation.RecordSuffix); !os.IsNotExist(err) {
		t.Errorf("a failed verification left a record: stat err = %v", err)
	}
	if _, err := compensation.Load(path); err == nil {
		t.Error("Load of a table that failed its contract test: want a refusal")
	}
}

func TestRateWithinTolerance(t *testing.T) {
	// 0.0725 × 1.004: 0.4% off, within ±0.5%.
	path := writeTable(t, strings.Replace(taxTable, `"US-CA": 0.0725`, `"US-CA": 0.07279`, 1))
	tb := &fakeTB{}
	compensation.Verify(tb, path, authority)
	if tb.failed() {
		t.Fatalf("Verify failed a rate 0.4%% off: %q %q", tb.errors, tb.fatals)
	}
	if _, err := compensation.Load(path); err != nil {
		t.Fatal(err)
	}
}

func TestStaleRecordRemovedWhenAuthorityMoves(t *testing.T) {
	path := writeTable(t, taxTable)
	compensation.Verify(t, path, authority)
	moved := compensation.Authority{Name: "published base rates 2027-01", Entries: map[string]float64{
		"US-CA": 0.075, "US-NY": 0.04, "US-TX": 0.0625,
	}}
	tb := &fakeTB{}
	compensation.Verify(tb, path, moved)
	if !tb.failed() {
		t.Fatal("Verify passed a table the authority no longer agrees with")
	}
	if _, err := compensation.Load(path); err == nil {
		t.Error("Load after a failed re-verification: want a refusal, the old record must be gone")
	}
}

func TestKeyUnknownToAuthorityFails(t *testing.T) {
	path := writeTable(t, strings.Replace(taxTable, `"US-TX": 0.0625`, `"US-TX": 0.0625, "US-XX": 0.05`, 1))
	tb := &fakeTB{}
	compensation.Verify(tb, path, authority)
	if len(tb.errors) != 1 || !strings.Contains(tb.errors[0], "US-XX") {
		t.Fatalf("Verify reported %q, want one error for US-XX", tb.errors)
	}
}

func TestZeroAuthorityNeedsExactZero(t *testing.T) {
	auth := compensation.Authority{Name: "a", Entries: map[string]float64{"US-CA": 0.0725, "US-NY": 0.04, "US-TX": 0}}
	path := writeTable(t, taxTable)
	tb := &fakeTB{}
	compensation.Verify(tb, path, auth)
	if len(tb.errors) != 1 || !strings.Contains(tb.errors[0], "US-TX") {
		t.Fatalf("Verify reported %q, want US-TX rejected against an authoritative 0", tb.errors)
	}
}

func TestVerifyRefusesBadInputs(t *testing.T) {
	path := writeTable(t, taxTable)
	for name, run := range map[string]func(tb compensation.TB){
		"negative tolerance": func(tb compensation.TB) {
			compensation.Verify(tb, path, authority, compensation.WithTolerance(-1))
		},
		"empty authority": func(tb compensation.TB) {
			compensation.Verify(tb, path, compensation.Authority{Name: "x"})
		},
		"missing table": func(tb compensation.TB) {
			compensation.Verify(tb, path+".missing", authority)
		},
	} {
		tb := &fakeTB{}
		run(tb)
		if len(tb.fatals) != 1 {
			t.Errorf("%s: fatals = %q, want one", name, tb.fatals)
		}
	}
}

func TestLoadFS(t *testing.T) {
	path := writeTable(t, taxTable)
	compensation.Verify(t, path, authority)
	record, err := os.ReadFile(path + compensation.RecordSuffix)
	if err != nil {
		t.Fatal(err)
	}
	fsys := fstest.MapFS{
		"rates/tax.json":          {Data: []byte(taxTable)},
		"rates/tax.json.verified": {Data: record},
	}
	if _, err := compensation.LoadFS(fsys, "rates/tax.json"); err != nil {
		t.Fatalf("LoadFS: %v", err)
	}
	fsys["rates/tax.json"] = &fstest.MapFile{Data: []byte(strings.Replace(taxTable, "0.04", "0.041", 1))}
	if _, err := compensation.LoadFS(fsys, "rates/tax.json"); err == nil {
		t.Fatal("LoadFS of an edited table: want a refusal")
	}
}

func TestParseRejectsMalformedTables(t *testing.T) {
	for _, bad := range []string{
		`{`,
		`{"name":"t","kind":"rate","as_of":"2026-10-01","entries":{"a":1}}`,
		`{"name":"t","kind":"percent","source":"s","as_of":"2026-10-01","entries":{"a":1}}`,
		`{"name":"t","kind":"rate","source":"s","as_of":"Oct 2026","entries":{"a":1}}`,
		`{"name":"t","kind":"rate","source":"s","as_of":"2026-10-01","entries":{}}`,
		`{"name":"t","kind":"rate","source":"s","as_of":"2026-10-01","entries":{"a":-0.1}}`,
		`{"name":"t","kind":"amount","source":"s","as_of":"2026-10-01","entries":{"a":2.5}}`,
	} {
		if _, err := compensation.Parse([]byte(bad)); err == nil {
			t.Errorf("Parse(%s): want an error", bad)
		}
	}
}
