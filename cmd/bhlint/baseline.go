package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"slices"
)

// A baseline holds the findings a team accepted when it adopted bhlint, so
// that the gate fails only on new ones. Entries are matched by findingKey,
// not by position: moving code, adding code above it or reformatting the
// file keeps a finding matched; a second identical finding in the same
// function is new, because each entry counts its findings.

// baselineVersion is the file format's version; a file of another version
// is an error, not a baseline that silently matches nothing.
const baselineVersion = 1

type baselineFile struct {
	Version  int             `json:"version"`
	Tool     string          `json:"tool"`
	Findings []baselineEntry `json:"findings"`
}

type baselineEntry struct {
	findingKey
	Count int `json:"count"`

	recorded int // of a stale entry: the count the file holds (Count is what is missing)
}

// newBaseline records every finding, one entry per key with its count, in a
// fixed order: the same findings give the same bytes on any machine, and a
// change to one finding changes only its entry.
func newBaseline(fs []finding, k *keyer) baselineFile {
	counts := map[findingKey]int{}
	keys, _ := k.keys(fs)
	for _, key := range keys {
		counts[key]++
	}
	b := baselineFile{Version: baselineVersion, Tool: "bhlint", Findings: []baselineEntry{}}
	for key, n := range counts {
		b.Findings = append(b.Findings, baselineEntry{findingKey: key, Count: n})
	}
	slices.SortFunc(b.Findings, func(x, y baselineEntry) int { return compareKeys(x.findingKey, y.findingKey) })
	return b
}

func compareKeys(a, b findingKey) int {
	return cmp.Or(cmp.Compare(a.Package, b.Package), cmp.Compare(a.Function, b.Function),
		cmp.Compare(a.Code, b.Code), cmp.Compare(a.Message, b.Message))
}

func writeBaseline(file string, b baselineFile) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(b); err != nil {
		return err
	}
	if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("-write-baseline: %v", err)
	}
	return nil
}

func readBaseline(file string) (baselineFile, error) {
	var b baselineFile
	data, err := os.ReadFile(file)
	if err != nil {
		return b, fmt.Errorf("-baseline: %v (bhlint -write-baseline=%s ./... writes one)", err, file)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		return b, fmt.Errorf("-baseline: %s: %v", file, err)
	}
	if b.Version != baselineVersion {
		return b, fmt.Errorf("-baseline: %s: version %d, this bhlint reads version %d (write it again with -write-baseline)", file, b.Version, baselineVersion)
	}
	for i, e := range b.Findings {
		if e.Code == "" || e.Package == "" || e.Count < 1 {
			return b, fmt.Errorf("-baseline: %s: finding %d needs a code, a package and a count of at least 1", file, i+1)
		}
	}
	return b, nil
}

// baselineMatch is a run's findings split by a baseline.
type baselineMatch struct {
	fresh     []finding       // not in the baseline: printed, and they fail the gate
	held      []finding       // matched an entry: not printed
	stale     []baselineEntry // entries, with the count left, that nothing matched in what the run checked
	freshKeys []findingKey    // the keys of fresh, for SARIF
	heldKeys  []findingKey
}

// apply splits findings (in position order) by the baseline: each entry
// holds back as many findings with its key as it counts, the first ones.
// An entry is stale only if the run checked its package and its analyzer
// ran: a run on part of the tree must not call the rest fixed.
func (b baselineFile) apply(fs []finding, k *keyer, checked func(findingKey) bool) baselineMatch {
	left := map[findingKey]int{}
	recorded := map[findingKey]int{}
	for _, e := range b.Findings {
		left[e.findingKey] += e.Count
		recorded[e.findingKey] += e.Count
	}
	var m baselineMatch
	keys, _ := k.keys(fs)
	for i, f := range fs {
		if left[keys[i]] > 0 {
			left[keys[i]]--
			m.held = append(m.held, f)
			m.heldKeys = append(m.heldKeys, keys[i])
			continue
		}
		m.fresh = append(m.fresh, f)
		m.freshKeys = append(m.freshKeys, keys[i])
	}
	for _, e := range b.Findings {
		if n := left[e.findingKey]; n > 0 && checked(e.findingKey) {
			left[e.findingKey] = 0 // a key listed twice is reported once
			m.stale = append(m.stale, baselineEntry{findingKey: e.findingKey, Count: n, recorded: recorded[e.findingKey]})
		}
	}
	return m
}
