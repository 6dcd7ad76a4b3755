// Package compensation serves the values a fallback may hand out when the
// service that normally computes them is down: a lookup table (key → rate or
// amount) with its source and as-of date, verified against an authoritative
// table by a contract test, and loaded only if its content is the content
// that was verified.
//
// The life of a table:
//
//  1. The table is a JSON file in the repository (see [Table] for the format).
//  2. A contract test calls [Verify] with the authoritative rates. Every entry
//     must be within the tolerance (default ±0.5%) of the authority; if so,
//     Verify writes the verification record, NAME.verified, next to the
//     table: the SHA-256 of the table's bytes and what was checked. Commit it.
//  3. At start-up the service calls [Load] or [LoadFS]. A table whose bytes
//     do not hash to its record — edited after the contract test, or never
//     verified — is refused with an [*UnverifiedError], so an unverified
//     table cannot reach production.
//
// bhlint's zerofallback analyzer knows [*Table] by its import path: a value a
// fallback reads from it is verified compensation, not an invented number.
package compensation

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path"
	"path/filepath"
	"sort"
	"time"
)

// Kind says what a table's values are.
type Kind string

const (
	// KindRate: values are fractions, 0.0725 for 7.25%.
	KindRate Kind = "rate"
	// KindAmount: values are amounts in minor units (cents).
	KindAmount Kind = "amount"
)

// DateLayout is the layout of a table's as_of date.
const DateLayout = "2006-01-02"

// RecordSuffix is appended to a table's file name to name its verification record.
const RecordSuffix = ".verified"

// ErrUnknownKey is returned for a key the table has no entry for. A fallback
// must pass it on (the request fails) rather than invent a value.
var ErrUnknownKey = errors.New("compensation: no entry for key")

// Table is a verified lookup table. Its file is JSON:
//
//	{
//	  "name": "us-sales-tax",
//	  "kind": "rate",
//	  "source": "state revenue departments' published rates",
//	  "as_of": "2026-10-01",
//	  "entries": {"US-CA": 0.0725, "US-NY": 0.04}
//	}
//
// A Table returned by [Load] or [LoadFS] is verified; one from [Parse] is not
// (it is what the contract test checks).
type Table struct {
	Name    string
	Kind    Kind
	Source  string
	AsOf    time.Time
	Entries map[string]float64

	digest   string // SHA-256 of the file's bytes
	verified bool
}

type tableFile struct {
	Name    string             `json:"name"`
	Kind    Kind               `json:"kind"`
	Source  string             `json:"source"`
	AsOf    string             `json:"as_of"`
	Entries map[string]float64 `json:"entries"`
}

// Parse decodes a table file. It checks the table's shape, not its values.
func Parse(data []byte) (*Table, error) {
	var f tableFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("compensation: decoding table: %w", err)
	}
	if f.Name == "" || f.Source == "" {
		return nil, errors.New("compensation: a table needs a name and a source")
	}
	if f.Kind != KindRate && f.Kind != KindAmount {
		return nil, fmt.Errorf("compensation: table %q: kind %q, want %q or %q", f.Name, f.Kind, KindRate, KindAmount)
	}
	asOf, err := time.Parse(DateLayout, f.AsOf)
	if err != nil {
		return nil, fmt.Errorf("compensation: table %q: as_of %q is not a date (%s)", f.Name, f.AsOf, DateLayout)
	}
	if len(f.Entries) == 0 {
		return nil, fmt.Errorf("compensation: table %q has no entries", f.Name)
	}
	for key, v := range f.Entries {
		if v < 0 || math.IsInf(v, 0) || math.IsNaN(v) || (f.Kind == KindAmount && v != math.Trunc(v)) {
			return nil, fmt.Errorf("compensation: table %q: entry %s = %v is not a %s", f.Name, key, v, f.Kind)
		}
	}
	return &Table{
		Name: f.Name, Kind: f.Kind, Source: f.Source, AsOf: asOf, Entries: f.Entries,
		digest: digest(data),
	}, nil
}

// Verified reports whether the table was loaded against a matching
// verification record.
func (t *Table) Verified() bool { return t.verified }

// Digest is the SHA-256 of the table file's bytes, in hex.
func (t *Table) Digest() string { return t.digest }

// Lookup returns the entry for key, or ErrUnknownKey.
func (t *Table) Lookup(key string) (float64, error) {
	v, ok := t.Entries[key]
	if !ok {
		return 0, fmt.Errorf("%w %q in table %q (as of %s)", ErrUnknownKey, key, t.Name, t.AsOf.Format(DateLayout))
	}
	return v, nil
}

// Rate returns the rate for key; the table must be a rate table.
func (t *Table) Rate(key string) (float64, error) {
	if t.Kind != KindRate {
		return 0, fmt.Errorf("compensation: table %q holds %ss, not rates", t.Name, t.Kind)
	}
	return t.Lookup(key)
}

// Amount returns the amount for key, in minor units; the table must be an
// amount table.
func (t *Table) Amount(key string) (int64, error) {
	if t.Kind != KindAmount {
		return 0, fmt.Errorf("compensation: table %q holds %ss, not amounts", t.Name, t.Kind)
	}
	v, err := t.Lookup(key)
	return int64(v), err
}

// Keys returns the table's keys, sorted.
func (t *Table) Keys() []string {
	keys := make([]string, 0, len(t.Entries))
	for k := range t.Entries {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Record is the verification record written next to a table by [Verify].
type Record struct {
	Table     string  `json:"table"`  // the table's name
	SHA256    string  `json:"sha256"` // of the table file's bytes
	AsOf      string  `json:"as_of"`
	Entries   int     `json:"entries"`
	Authority string  `json:"authority"` // what the entries were checked against
	Tolerance float64 `json:"tolerance"` // relative, 0.005 for ±0.5%
}

// UnverifiedError is the loader's refusal: the table has no verification
// record, or its content is not the content that was verified.
type UnverifiedError struct {
	Path   string
	Reason string
}

func (e *UnverifiedError) Error() string {
	return fmt.Sprintf("compensation: refusing table %s: %s; run its contract test (compensation.Verify) and commit the %s record",
		e.Path, e.Reason, RecordSuffix)
}

// Load reads the table at path and its verification record, and returns the
// table only if the record matches the table's content.
func Load(file string) (*Table, error) {
	dir, name := filepath.Split(file)
	if dir == "" {
		dir = "."
	}
	return LoadFS(os.DirFS(dir), name)
}

// LoadFS is Load from a file system, such as an embed.FS compiled into the
// binary with the table and its record.
func LoadFS(fsys fs.FS, name string) (*Table, error) {
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, fmt.Errorf("compensation: reading table: %w", err)
	}
	recData, err := fs.ReadFile(fsys, name+RecordSuffix)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, &UnverifiedError{Path: name, Reason: "it has no verification record " + path.Base(name) + RecordSuffix}
	}
	if err != nil {
		return nil, fmt.Errorf("compensation: reading verification record: %w", err)
	}
	var rec Record
	if err := json.Unmarshal(recData, &rec); err != nil {
		return nil, &UnverifiedError{Path: name, Reason: "its verification record is unreadable: " + err.Error()}
	}
	t, err := Parse(data)
	if err != nil {
		return nil, err
	}
	if rec.SHA256 != t.digest {
		return nil, &UnverifiedError{Path: name, Reason: fmt.Sprintf(
			"its content (sha256 %.12s…) is not the content that was verified (sha256 %.12s…): it was edited after its contract test",
			t.digest, rec.SHA256)}
	}
	if rec.Table != t.Name || rec.Entries != len(t.Entries) {
		return nil, &UnverifiedError{Path: name, Reason: "its verification record describes another table"}
	}
	t.verified = true
	return t, nil
}

func digest(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}
