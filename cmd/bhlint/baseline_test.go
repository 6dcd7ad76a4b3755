package main

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestNormaliseMessage(t *testing.T) {
	for in, want := range map[string]string{
		"the value served (set at line 42) is invented":         "the value served (set at line) is invented",
		"starts a goroutine per call (worker.go:17)":            "starts a goroutine per call (worker.go)",
		"pool opened at pools.go:12:3 serves lanes a and b":     "pool opened at pools.go serves lanes a and b",
		"lines 3-9 retry without a bound":                       "lines retry without a bound",
		"no position here: 3 attempts, 50ms, ERR_X stays as is": "no position here: 3 attempts, 50ms, ERR_X stays as is",
	} {
		if got := normaliseMessage(in); got != want {
			t.Errorf("normaliseMessage(%q) = %q, want %q", in, got, want)
		}
	}
}

const keyedSource = `package p

var atPackageLevel = func() { go work() }

func Plain() {
	go work()
}

func (c *Cache[K, V]) Get() {
	func() {
		go work()
	}()
}

func (s Server) Serve() { go work() }
`

func TestEnclosingFunction(t *testing.T) {
	file := filepath.Join(t.TempDir(), "p.go")
	if err := os.WriteFile(file, []byte(keyedSource), 0o644); err != nil {
		t.Fatal(err)
	}
	k := newKeyer()
	for _, tc := range []struct {
		line, col int
		want      string
	}{
		{3, 31, ""},
		{6, 2, "Plain"},
		{11, 3, "(*Cache).Get"}, // in a literal: the declaration around it
		{15, 27, "Server.Serve"},
		{99, 1, ""}, // past the end: no function, no panic
	} {
		if got := k.enclosingFunction(location{File: file, Line: tc.line, Column: tc.col}); got != tc.want {
			t.Errorf("line %d col %d: %q, want %q", tc.line, tc.col, got, tc.want)
		}
	}
	if got := k.enclosingFunction(location{File: filepath.Join(t.TempDir(), "gone.go"), Line: 1}); got != "" {
		t.Errorf("a file that does not exist: %q, want \"\"", got)
	}
}

// TestBaselineCountsDuplicates: an entry holds back as many findings as it
// counts; a further identical finding in the same function is new, and an
// entry with nothing left to match is stale only where the run looked.
func TestBaselineCountsDuplicates(t *testing.T) {
	file := filepath.Join(t.TempDir(), "p.go")
	if err := os.WriteFile(file, []byte(keyedSource), 0o644); err != nil {
		t.Fatal(err)
	}
	at := func(line int, msg string) finding {
		return finding{Code: "ERR_X", Package: "example.com/p", Message: msg, Location: location{File: file, Line: line, Column: 2}}
	}
	k := newKeyer()
	b := newBaseline([]finding{at(6, "one (line 6)"), at(6, "one (line 6)"), at(11, "two")}, k)
	if len(b.Findings) != 2 || b.Findings[0].Function != "(*Cache).Get" || b.Findings[1].Count != 2 {
		t.Fatalf("baseline %+v: want (*Cache).Get once, then Plain counted twice", b.Findings)
	}

	// Plain's finding moved a line and a third copy appeared; Get's is gone.
	now := []finding{at(7, "one (line 7)"), at(7, "one (line 7)"), at(7, "one (line 7)")}
	m := b.apply(now, k, func(findingKey) bool { return true })
	if len(m.held) != 2 || len(m.fresh) != 1 {
		t.Errorf("held %d, fresh %d; want 2 held and the third copy new", len(m.held), len(m.fresh))
	}
	if len(m.stale) != 1 || m.stale[0].Function != "(*Cache).Get" || m.stale[0].Count != 1 {
		t.Errorf("stale %+v, want Get's entry", m.stale)
	}
	if m = b.apply(now, k, func(findingKey) bool { return false }); len(m.stale) != 0 {
		t.Errorf("stale %+v in a package the run did not check, want none", m.stale)
	}
}

func TestBaselineFileIsStable(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "p.go")
	if err := os.WriteFile(src, []byte(keyedSource), 0o644); err != nil {
		t.Fatal(err)
	}
	fs := []finding{
		{Code: "ERR_B", Package: "example.com/p", Message: "b", Location: location{File: src, Line: 6}},
		{Code: "ERR_A", Package: "example.com/p", Message: "a", Location: location{File: src, Line: 15, Column: 27}},
		{Code: "ERR_A", Package: "example.com/a", Message: "<a & b>", Location: location{File: src, Line: 6}},
	}
	var written []string
	for _, order := range [][]finding{fs, {fs[2], fs[0], fs[1]}} {
		file := filepath.Join(dir, "baseline.json")
		if err := writeBaseline(file, newBaseline(order, newKeyer())); err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(file)
		written = append(written, string(data))
		back, err := readBaseline(file)
		if err != nil {
			t.Fatal(err)
		}
		if got := slices.Collect(maps.Keys(countsOf(back))); len(got) != 3 {
			t.Errorf("read back %d keys, want 3", len(got))
		}
	}
	if written[0] != written[1] {
		t.Errorf("the same findings in another order wrote another file:\n%s\n%s", written[0], written[1])
	}
	if !strings.Contains(written[0], "<a & b>") || strings.Index(written[0], "example.com/a") > strings.Index(written[0], "example.com/p") {
		t.Errorf("want entries sorted by package and messages unescaped:\n%s", written[0])
	}
}

func countsOf(b baselineFile) map[findingKey]int {
	m := map[findingKey]int{}
	for _, e := range b.Findings {
		m[e.findingKey] += e.Count
	}
	return m
}

func TestReadBaselineErrors(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{
		"version":  `{"version": 2, "tool": "bhlint", "findings": []}`,
		"typo":     `{"version": 1, "tool": "bhlint", "findngs": []}`,
		"no count": `{"version": 1, "tool": "bhlint", "findings": [{"code": "ERR_X", "package": "p", "function": "", "message": "m"}]}`,
		"not json": `version: 1`,
	} {
		file := filepath.Join(dir, name+".json")
		os.WriteFile(file, []byte(content), 0o644)
		if _, err := readBaseline(file); err == nil || !strings.Contains(err.Error(), file) {
			t.Errorf("%s: error %v, want one naming %s", name, err, file)
		}
	}
	if _, err := readBaseline(filepath.Join(dir, "missing.json")); err == nil || !strings.Contains(err.Error(), "-write-baseline") {
		t.Errorf("missing file: error %v, want one saying how to write it", err)
	}
}

func TestParseUnifiedDiff(t *testing.T) {
	diff := `diff --git a/sub/notify.go b/sub/notify.go
index 1111111..2222222 100644
--- a/sub/notify.go
+++ b/sub/notify.go
@@ -3,0 +4,3 @@ package sub
+// a
+// b
+// c
@@ -10 +13 @@ func Notify(hooks []string, send func(string)) {
-	go send(h)
+	go send(h + "")
@@ -20,2 +22,0 @@ func Other() {
-	x()
-	y()
diff --git a/gone.go b/gone.go
deleted file mode 100644
--- a/gone.go
+++ /dev/null
@@ -1,3 +0,0 @@
-package sub
diff --git a/with space.go b/with space.go
new file mode 100644
--- /dev/null
+++ b/with space.go	
@@ -0,0 +1,2 @@
+package sub
+
`
	got := parseUnifiedDiff(diff)
	want := map[string][]int{"sub/notify.go": {4, 5, 6, 13}, "with space.go": {1, 2}}
	if len(got) != len(want) {
		t.Fatalf("files %v, want %v", slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
	}
	for file, lines := range want {
		if g := slices.Sorted(maps.Keys(got[file])); !slices.Equal(g, lines) {
			t.Errorf("%s: lines %v, want %v", file, g, lines)
		}
	}
}

func TestGitHubEscaping(t *testing.T) {
	if got := escapeData("100% sure\nnext\r"); got != "100%25 sure%0Anext%0D" {
		t.Errorf("escapeData: %q", got)
	}
	if got := escapeProperty("a,b:c%"); got != "a%2Cb%3Ac%25" {
		t.Errorf("escapeProperty: %q", got)
	}
}

func TestPluralEntry(t *testing.T) {
	if got := plural(2, "baseline entry"); got != "2 baseline entries" {
		t.Errorf("plural: %q", got)
	}
}
