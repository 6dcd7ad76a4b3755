package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/bhlint/bhlint/internal/suite"
)

// service is one corpus entry: bench/realworld/services/<name>/.
type service struct {
	Name   string
	Meta   map[string]string // service.txt
	Triage []triageEntry     // triage.tsv
	Recall []recallEntry     // recall.tsv: real instances, found by reading the code
	// Lookalikes (lookalikes.tsv) are code that resembles an instance and is fine: a finding
	// there is a false positive.
	Lookalikes []recallEntry
	// Pending are labels (of either file) for checks that have no analyzer yet: kept, not scored.
	Pending      []recallEntry
	FirstContact *firstContact // first-contact.json: the service's first run, recorded once
	Results      *results      // nil when the run did not cover it
}

// key identifies a finding for the triage file: the file relative to the module root, the
// line, and the diagnostic code. The corpus is pinned, so a line moves only when an analyzer
// reports at another statement, and then the finding is new and should be looked at again.
type key struct {
	File string
	Line int
	Code string
}

func (k key) String() string { return fmt.Sprintf("%s:%d\t%s", k.File, k.Line, k.Code) }

type triageEntry struct {
	key
	// Verdict: true, false, debatable; fixed, a false positive no longer reported, which must not
	// come back; or moved, a true finding an analyzer change now reports at another line (its
	// own row), kept so that the first-contact record, which holds the old line, stays decided.
	Verdict string
	Reason  string
}

type recallEntry struct {
	key
	Note string
}

var verdicts = map[string]bool{"true": true, "false": true, "debatable": true, "fixed": true, "moved": true}

// requiredMeta are the service.txt keys run.sh and the report need.
var requiredMeta = []string{"module", "version", "sum", "packages", "style"}

// loadServices reads every service directory under dir, or only the named ones.
func loadServices(dir string, only []string) ([]*service, error) {
	names := only
	if len(names) == 0 {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if e.IsDir() {
				names = append(names, e.Name())
			}
		}
	}
	sort.Strings(names)
	var out []*service
	for _, name := range names {
		s, err := loadService(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func loadService(dir string) (*service, error) {
	s := &service{Name: filepath.Base(dir)}
	var err error
	if s.Meta, err = readMeta(filepath.Join(dir, "service.txt")); err != nil {
		return nil, err
	}
	if s.Triage, err = readTriage(filepath.Join(dir, "triage.tsv")); err != nil {
		return nil, err
	}
	var pending []recallEntry
	if s.Recall, pending, err = readLabels(filepath.Join(dir, "recall.tsv")); err != nil {
		return nil, err
	}
	s.Pending = append(s.Pending, pending...)
	if s.Lookalikes, pending, err = readLabels(filepath.Join(dir, "lookalikes.tsv")); err != nil {
		return nil, err
	}
	s.Pending = append(s.Pending, pending...)
	if s.FirstContact, err = readFirstContact(filepath.Join(dir, firstContactFile)); err != nil {
		return nil, err
	}
	return s, nil
}

func readMeta(path string) (map[string]string, error) {
	meta := map[string]string{}
	err := eachLine(path, false, func(n int, line string) error {
		k, v, ok := strings.Cut(line, "=")
		if !ok || k == "" {
			return fmt.Errorf("%s:%d: want key=value, got %q", path, n, line)
		}
		meta[k] = v
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, k := range requiredMeta {
		if meta[k] == "" {
			return nil, fmt.Errorf("%s: the key %q is missing", path, k)
		}
	}
	return meta, nil
}

func readTriage(path string) ([]triageEntry, error) {
	var out []triageEntry
	seen := map[key]int{}
	err := eachLine(path, true, func(n int, line string) error {
		f := strings.Split(line, "\t")
		if len(f) != 4 {
			return fmt.Errorf("%s:%d: want 4 tab-separated fields (file:line, code, verdict, reason), got %d", path, n, len(f))
		}
		k, err := parseKey(f[0], f[1])
		if err != nil {
			return fmt.Errorf("%s:%d: %v", path, n, err)
		}
		if !verdicts[f[2]] {
			return fmt.Errorf("%s:%d: verdict %q is not true, false, debatable, fixed or moved", path, n, f[2])
		}
		if strings.TrimSpace(f[3]) == "" {
			return fmt.Errorf("%s:%d: the reason is empty", path, n)
		}
		if prev, dup := seen[k]; dup {
			return fmt.Errorf("%s:%d: %s is triaged already on line %d", path, n, k, prev)
		}
		seen[k] = n
		out = append(out, triageEntry{k, f[2], f[3]})
		return nil
	})
	return out, err
}

// plannedCodes are the diagnostic codes of checks designed but not built yet. Services are
// labelled for them blind, like the others, so that the labels exist before the analyzer does;
// until then they are kept aside and not scored. A first-contact record keeps only the labels
// scored when it was made, so a check built later does not change an earlier first contact.
// None is planned now: healthprobe, poolbudget and fairclaim were, and their labels are scored.
var plannedCodes = map[string]bool{}

// readLabels reads a recall.tsv or lookalikes.tsv: file:line, code, note. Labels of planned
// codes come back apart, as pending.
func readLabels(path string) (scored, pending []recallEntry, err error) {
	err = eachLine(path, true, func(n int, line string) error {
		f := strings.Split(line, "\t")
		if len(f) != 3 {
			return fmt.Errorf("%s:%d: want 3 tab-separated fields (file:line, code, note), got %d", path, n, len(f))
		}
		if plannedCodes[f[1]] {
			k, err := parsePlace(f[0])
			if err != nil {
				return fmt.Errorf("%s:%d: %v", path, n, err)
			}
			pending = append(pending, recallEntry{key{k.File, k.Line, f[1]}, f[2]})
			return nil
		}
		k, err := parseKey(f[0], f[1])
		if err != nil {
			return fmt.Errorf("%s:%d: %v", path, n, err)
		}
		scored = append(scored, recallEntry{k, f[2]})
		return nil
	})
	return scored, pending, err
}

func parseKey(posn, code string) (key, error) {
	p, err := parsePlace(posn)
	if err != nil {
		return key{}, err
	}
	if _, ok := suite.Lookup(code); !ok || !strings.HasPrefix(code, "ERR_") {
		return key{}, fmt.Errorf("%q is not a bhlint diagnostic code", code)
	}
	return key{p.File, p.Line, code}, nil
}

func parsePlace(posn string) (place, error) {
	file, lineStr, ok := strings.Cut(posn, ":")
	line, err := strconv.Atoi(lineStr)
	if !ok || err != nil || line <= 0 || file == "" {
		return place{}, fmt.Errorf("want file:line, got %q", posn)
	}
	return place{file, line}, nil
}

// eachLine calls fn for each line of path that is not blank or a # comment. A missing file is
// an error unless optional.
func eachLine(path string, optional bool, fn func(n int, line string) error) error {
	f, err := os.Open(path)
	if err != nil {
		if optional && os.IsNotExist(err) {
			return nil
		}
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if err := fn(n, line); err != nil {
			return err
		}
	}
	return sc.Err()
}

// analyzerOf names the analyzer that reports code.
func analyzerOf(code string) string {
	if e, ok := suite.Lookup(code); ok {
		return e.Analyzer.Name
	}
	return "?"
}
