package config

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestParseValid(t *testing.T) {
	cfg, err := Parse(".bhlint.yml", []byte(`
analyzers:
  unboundedqueue: false
catalog:
  network-calls: ["(*example.com/rpc.Client).Call", "example.com/rpc.Dial"]
  pool-acquires: ["(*example.com/db.Pool).Get"]
money:
  words: [premium]
  types: [example.com/money.Amount]
lanes:
  - package: example.com/legacy/tax
    lane: tax
`))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Enabled("unboundedqueue") || !cfg.Enabled("heldconn") {
		t.Errorf("Enabled: unboundedqueue=%v heldconn=%v, want false, true", cfg.Enabled("unboundedqueue"), cfg.Enabled("heldconn"))
	}
	if len(cfg.Catalog.NetworkCalls) != 2 || cfg.Lanes.Declare[0].Lane != "tax" || !cfg.InferLanes() || cfg.Hash == "" {
		t.Errorf("parsed %+v", cfg)
	}
}

func TestParseLanesMapping(t *testing.T) {
	cfg, err := Parse(".bhlint.yml", []byte("lanes:\n  infer: false\n  declare:\n    - package: example.com/x\n      lane: tax\n"))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.InferLanes() || len(cfg.Lanes.Declare) != 1 || cfg.Lanes.Declare[0].Lane != "tax" {
		t.Errorf("parsed %+v, want inference off and one lane", cfg.Lanes)
	}
	if cfg, err := Parse(".bhlint.yml", nil); err != nil || !cfg.InferLanes() {
		t.Errorf("default: infer = %v, %v; want on", cfg.InferLanes(), err)
	}
}

func TestParseEmptyIsDefault(t *testing.T) {
	cfg, err := Parse("empty.yml", nil)
	if err != nil || !cfg.Enabled("heldconn") {
		t.Fatalf("empty file: %+v, %v; want the default", cfg, err)
	}
}

func TestParseErrorsNameFileAndKey(t *testing.T) {
	for _, tc := range []struct{ content, want string }{
		{"analyzer:\n  heldconn: false\n", `.bhlint.yml: line 1: unknown key "analyzer"`},
		{"catalog:\n  network_calls: [x.Y]\n", `unknown key "network_calls"`},
		{"analyzers:\n  heldconn: maybe\n", `.bhlint.yml: line 2`},
		{"catalog:\n  network-calls: [\"not a function\"]\n", `catalog.network-calls[0]: "not a function" is not a function name`},
		{"money:\n  words: [\"two words\"]\n", `.bhlint.yml: line 2: money.words[0]`},
		{"lanes:\n  - package: example.com/x\n    lane: Card-Auth\n", `lanes[0]: lane "Card-Auth"`},
		{"lanes:\n  - lane: tax\n", `.bhlint.yml: line 2: lanes[0]: package is required`},
		{"[1, 2", `.bhlint.yml:`},
		{"lanes:\n  infer: maybe\n", `line 2: lanes.infer: "maybe" is not true or false`},
		{"lanes:\n  infere: false\n", `unknown key "infere" in lanes`},
		{"lanes:\n  declare:\n    - lane: tax\n", `lanes[0]: package is required`},
	} {
		_, err := Parse(".bhlint.yml", []byte(tc.content))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err = %v, want it to contain %q", tc.content, err, tc.want)
		}
	}
}

func TestFindUpward(t *testing.T) {
	root := t.TempDir()
	deep := filepath.Join(root, "svc", "internal", "tax")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	if got := Find(deep); got != "" && strings.HasPrefix(got, root) {
		t.Fatalf("Find with no file = %q", got)
	}
	cfgPath := filepath.Join(root, "svc", FileName)
	if err := os.WriteFile(cfgPath, []byte("analyzers:\n  retrystorm: false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := Find(deep); got != cfgPath {
		t.Fatalf("Find = %q, want %q", got, cfgPath)
	}
	cfg, err := ForDir(deep)
	if err != nil || cfg.Enabled("retrystorm") || cfg.Path != cfgPath {
		t.Fatalf("ForDir = %+v, %v", cfg, err)
	}
}

// TestDigestSeesEveryConfig: adding, editing or removing a .bhlint.yml
// anywhere in the module (nested ones too) or above it changes the digest;
// files in hidden directories do not count.
func TestDigestSeesEveryConfig(t *testing.T) {
	top := t.TempDir()
	mod := filepath.Join(top, "mod")
	writeFile(t, filepath.Join(mod, "go.mod"), "module example.com/m\n")
	writeFile(t, filepath.Join(mod, "sub", "x.go"), "package sub\n")
	seen := map[string]string{}
	step := func(name string) {
		t.Helper()
		d := Digest(filepath.Join(mod, "sub"))
		if other, dup := seen[d]; dup {
			t.Errorf("%s: digest %s is the same as after %s", name, d, other)
		}
		seen[d] = name
	}
	step("no config")
	writeFile(t, filepath.Join(mod, "sub", "deeper", FileName), "analyzers:\n  heldconn: false\n")
	step("nested config added")
	writeFile(t, filepath.Join(mod, "sub", "deeper", FileName), "analyzers:\n  heldconn: true\n")
	step("nested config edited")
	writeFile(t, filepath.Join(mod, FileName), "bogus: 1\n")
	step("invalid root config added")
	writeFile(t, filepath.Join(top, FileName), "")
	step("config above the module added")
	if err := os.Remove(filepath.Join(mod, "sub", "deeper", FileName)); err != nil {
		t.Fatal(err)
	}
	step("nested config removed")

	before := Digest(mod)
	writeFile(t, filepath.Join(mod, ".git", FileName), "analyzers:\n  heldconn: false\n")
	if Digest(mod) != before {
		t.Errorf("a .bhlint.yml inside .git changed the digest")
	}
	if Digest(mod) != Digest(filepath.Join(mod, "sub")) {
		t.Errorf("the digest depends on the directory inside the module it is asked from")
	}
}

func TestCheckAnalyzers(t *testing.T) {
	cfg, err := Parse("x/.bhlint.yml", []byte("analyzers:\n  heldcon: false\n  heldconn: true\n"))
	if err != nil {
		t.Fatal(err)
	}
	err = cfg.CheckAnalyzers([]string{"heldconn", "sharedpool"})
	if err == nil || !strings.Contains(err.Error(), `x/.bhlint.yml: line 2: analyzers: unknown analyzer "heldcon" (known: heldconn, sharedpool)`) {
		t.Errorf("CheckAnalyzers: %v; want the file and the unknown name", err)
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// everyKey is a configuration that uses every key of the schema, each on a
// line of its own, in both forms of lanes.
var everyKey = []string{
	"analyzers:",
	"  heldconn: true",
	"catalog:",
	"  network-calls: [example.com/rpc.Dial]",
	"  pool-acquires: [example.com/db.Get]",
	"money:",
	"  words: [premium]",
	"  weak-words: [cost]",
	"  not-money: [score]",
	"  types: [example.com/money.Amount]",
	"lanes:",
	"  infer: true",
	"  declare:",
	"    - package: example.com/legacy/tax",
	"      func: Foo",
	"      lane: tax",
}

// TestEveryMisspeltKeyIsAnError: a typo in any key of the schema, however
// deep, is an error naming the file, the line and the misspelt key; the
// README promises it, and a misspelt func: used to widen a lane to every
// exported function of its package in silence.
func TestEveryMisspeltKeyIsAnError(t *testing.T) {
	if _, err := Parse(".bhlint.yml", []byte(strings.Join(everyKey, "\n"))); err != nil {
		t.Fatalf("the valid configuration: %v", err)
	}
	listForm := []string{"lanes:", "  - package: example.com/legacy/tax", "    func: Foo", "    lane: tax"}
	for _, cfg := range [][]string{everyKey, listForm} {
		for i, line := range cfg {
			key := strings.TrimLeft(line, " -")
			key, _, _ = strings.Cut(key, ":")
			if cfg[0] == "analyzers:" && i == 1 {
				continue // analyzer names are checked against the suite: TestCheckAnalyzers
			}
			typo := key[1:] + key[:1] // "func" -> "uncf"
			lines := slices.Clone(cfg)
			lines[i] = strings.Replace(line, key+":", typo+":", 1)
			_, err := Parse("svc/.bhlint.yml", []byte(strings.Join(lines, "\n")))
			want := fmt.Sprintf("svc/.bhlint.yml: line %d: ", i+1)
			if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), fmt.Sprintf("%q", typo)) {
				t.Errorf("%q misspelt as %q on line %d: err = %v; want it to start %q and name the key", key, typo, i+1, err, want)
			}
		}
	}
}
