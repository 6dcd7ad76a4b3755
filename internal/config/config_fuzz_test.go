package config

import "testing"

// FuzzParse: any input either parses into a config that validates and
// re-parses to the same hash, or returns an error that names the file —
// never a panic.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"analyzers:\n  heldconn: false\n",
		"catalog:\n  network-calls: [\"(*a.b/c.D).E\"]\n",
		"money:\n  words: [premium]\n  types: [a.b/c.D]\n",
		"lanes:\n  - package: a/b\n    lane: tax\n",
		"deploy: {replicas: 3}\ndatabases: {main: {max-connections: 10, reserved: 1}}\ndependencies: {x: {capacity: 4, lanes: [tax]}}\n",
		"analyzer: 1\n", "[", "{}", "",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := Parse("fuzz.yml", data)
		if err != nil {
			if len(err.Error()) < len("fuzz.yml") || err.Error()[:len("fuzz.yml")] != "fuzz.yml" {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		if err := cfg.validate(); err != nil {
			t.Fatalf("parsed config does not validate: %v", err)
		}
		again, err := Parse("fuzz.yml", data)
		if err != nil || again.Hash != cfg.Hash {
			t.Fatalf("re-parse differs: %v", err)
		}
	})
}
