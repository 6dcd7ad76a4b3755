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
	"deploy:",
	"  replicas: 30",
	"  commands: [cmd/api]",
	"databases:",
	"  main:",
	"    max-connections: 100",
	"    reserved: 3",
	"    dsn-env: DATABASE_URL",
	"dependencies:",
	"  tax-api:",
	"    capacity: 100",
	"    lanes: [tax]",
}

// userNamed are the lines of everyKey whose key is a name the user chooses
// (a database, a dependency), not a key of the schema.
var userNamed = map[string]bool{"  main:": true, "  tax-api:": true}

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
			if userNamed[line] {
				continue // any name is a database's or a dependency's
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

func TestParseCapacity(t *testing.T) {
	cfg, err := Parse(".bhlint.yml", []byte(`
deploy:
  replicas: 30
databases:
  main: {max-connections: 100, reserved: 3, dsn-env: DATABASE_URL}
  reports: {max-connections: 50, dsn-env: REPORTS_URL}
dependencies:
  tax-api: {capacity: 100, lanes: [tax]}
`))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.ReplicaCount() != 30 || !cfg.DeclaresCapacity() {
		t.Errorf("replicas %d, declares %v; want 30, true", cfg.ReplicaCount(), cfg.DeclaresCapacity())
	}
	if got := cfg.Databases["main"].Allowed(); got != 97 {
		t.Errorf("main allows %d, want 97", got)
	}
	for env, want := range map[string]string{"DATABASE_URL": "main", "REPORTS_URL": "reports", "OTHER": "", "": ""} {
		if got := cfg.DatabaseFor(env); got != want {
			t.Errorf("DatabaseFor(%q) = %q, want %q", env, got, want)
		}
	}
	if dep := cfg.Dependencies["tax-api"]; dep.Capacity != 100 || len(dep.Lanes) != 1 {
		t.Errorf("tax-api: %+v", dep)
	}
	one, err := Parse(".bhlint.yml", []byte("databases:\n  main: {max-connections: 100}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if one.DatabaseFor("") != "main" || one.DatabaseFor("ANY") != "main" || one.ReplicaCount() != 1 {
		t.Errorf("one database: DatabaseFor = %q, replicas %d; want main for every pool, 1 replica", one.DatabaseFor(""), one.ReplicaCount())
	}
	if none, _ := Parse(".bhlint.yml", nil); none.DeclaresCapacity() {
		t.Errorf("an empty file declares capacity")
	}
}

func TestParseCapacityErrors(t *testing.T) {
	for _, tc := range []struct{ content, want string }{
		{"deploy:\n  replicas: 0\n", `.bhlint.yml: line 2: deploy.replicas: 0 is not a number of processes`},
		{"deploy:\n  replicas: lots\n", `.bhlint.yml: line 2: cannot unmarshal`},
		{"databases:\n  main:\n    reserved: 3\n", `.bhlint.yml: line 2: databases.main.max-connections: want the database's max_connections`},
		{"databases:\n  main: {max-connections: 10, reserved: 10}\n", `line 2: databases.main.reserved: 10 must be at least 0 and below max-connections 10`},
		{"databases:\n  main:\n    max-connections: 10\n    reserved: -1\n", `line 4: databases.main.reserved: -1`},
		{"databases:\n  main: {max-connections: 10, dsn-env: \"database url\"}\n", `databases.main.dsn-env: "database url" is not an environment variable name`},
		{"databases:\n  a: {max-connections: 10, dsn-env: A}\n  b: {max-connections: 10}\n", `line 3: databases.b: with several databases each needs dsn-env`},
		{"databases:\n  a: {max-connections: 10, dsn-env: A}\n  b: {max-connections: 10, dsn-env: A}\n", `databases.b.dsn-env: A is also the dsn-env of database a`},
		{"databases:\n  main:\n    max-conections: 10\n", `line 3: unknown key "max-conections" (known: max-connections, reserved, dsn-env)`},
		{"databases:\n  main: 100\n", `.bhlint.yml: line 2: cannot unmarshal`},
		{"dependencies:\n  tax-api: {capacity: 0}\n", `line 2: dependencies.tax-api.capacity: want the concurrent calls`},
		{"dependencies:\n  tax-api:\n    capacity: 5\n    lanes: [Tax]\n", `line 4: dependencies.tax-api.lanes[0]: lane "Tax"`},
		{"dependencies:\n  tax-api:\n    capacty: 5\n", `line 3: unknown key "capacty" (known: capacity, lanes)`},
		{"deploy:\n  replica: 3\n", `line 2: unknown key "replica" (known: replicas, commands)`},
		{"deploy:\n  commands: [\"cmd/ api\"]\n", `line 2: deploy.commands[0]: "cmd/ api" is not a directory below the configuration's`},
		{"deploy:\n  commands: [\"/cmd\"]\n", `deploy.commands[0]: "/cmd" is not`},
		{"deploy:\n  commands: [../other/cmd]\n", `deploy.commands[0]: "../other/cmd" is not`},
	} {
		_, err := Parse(".bhlint.yml", []byte(tc.content))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err = %v, want it to contain %q", tc.content, err, tc.want)
		}
	}
}

func TestReplicated(t *testing.T) {
	all, _ := Parse("svc/.bhlint.yml", []byte("deploy: {replicas: 3}\n"))
	some, err := Parse("svc/.bhlint.yml", []byte("deploy:\n  replicas: 3\n  commands: [cmd/api, ./worker, services/...]\n"))
	if err != nil {
		t.Fatal(err)
	}
	for dir, want := range map[string]bool{
		"svc/cmd/api":                true,
		"svc/worker":                 true,
		"svc/services":               true,
		"svc/services/billing":       true,
		"svc/cmd/migrate":            false,
		"svc/cmd/api2":               false,
		"svc/devtools/services":      false,
		"svc":                        false,
		"elsewhere/svc/cmd/api":      false,
		"svc/cmd/api/../../tool/api": false,
	} {
		if got := some.Replicated(dir); got != want {
			t.Errorf("Replicated(%q) = %v, want %v", dir, got, want)
		}
		if !all.Replicated(dir) {
			t.Errorf("without deploy.commands, %q is not replicated", dir)
		}
	}
	root, _ := Parse("svc/.bhlint.yml", []byte("deploy:\n  commands: [./...]\n"))
	if !root.Replicated("svc/cmd/x") || !root.Replicated("svc") {
		t.Errorf("./... does not cover every directory below the configuration")
	}
}
