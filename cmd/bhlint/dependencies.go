package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// go vet caches a package's result under a key that does not say whether
// the package was vetted for itself or only for the facts a package that
// imports it needs (VetxOnly: unitchecker prints nothing then). So once
// `bhlint ./cmd/api` has vetted ./internal/store as a dependency, `bhlint
// ./internal/store` replays that empty result from the cache and reports
// nothing: a silent pass. Under the bhlint command (and its LSP server),
// which reads go vet's JSON and knows which packages it asked for, the vet
// tool therefore analyses the module's own packages in full even as
// dependencies, so that the result go vet caches holds their findings, and
// the command keeps only the findings of the packages it was asked for.
// Packages of other modules (versioned, in the module cache) and the
// standard library stay facts-only: nobody vets them for themselves.

// analyseInFull returns a copy of go vet's *.cfg for unit with VetxOnly
// off, when unit is a dependency of the module being vetted; "" otherwise.
func analyseInFull(unit string) string {
	data, err := os.ReadFile(unit)
	if err != nil {
		return ""
	}
	var cfg map[string]json.RawMessage
	if json.Unmarshal(data, &cfg) != nil {
		return ""
	}
	var u struct {
		VetxOnly      bool
		ModulePath    string
		ModuleVersion string
	}
	if json.Unmarshal(data, &u) != nil || !u.VetxOnly || u.ModulePath == "" || u.ModuleVersion != "" {
		return ""
	}
	cfg["VetxOnly"] = json.RawMessage("false")
	out, err := json.Marshal(cfg)
	if err != nil {
		return ""
	}
	full := filepath.Join(filepath.Dir(unit), "bhlint-full.cfg")
	if os.WriteFile(full, out, 0o644) != nil {
		return ""
	}
	return full
}

// rootPackages are the import paths the patterns name, as go vet matches
// them: the packages whose findings a run reports. nil when go list fails,
// and then nothing is filtered (go vet's own errors say why).
func rootPackages(dir string, buildFlags, patterns []string) map[string]bool {
	cmd := exec.Command("go", append(append([]string{"list", "-e", "-find", "-f", "{{.ImportPath}}"}, buildFlags...), patterns...)...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return nil
	}
	roots := map[string]bool{}
	for _, line := range strings.Split(string(bytes.TrimSpace(out)), "\n") {
		roots[line] = true
	}
	return roots
}

// isRoot reports whether a result of go vet's JSON, keyed "p", "p
// [p.test]" or "p_test [p.test]", belongs to one of the roots.
func isRoot(roots map[string]bool, pkg string) bool {
	if roots == nil {
		return true
	}
	path, _, _ := strings.Cut(pkg, " ")
	return roots[path] || roots[strings.TrimSuffix(path, "_test")]
}
