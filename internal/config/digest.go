package config

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Digest identifies every configuration that can apply to a package of the
// workspace around dir: the content and place of each .bhlint.yml in the
// tree of the go.work or go.mod that holds dir, and of those above it. Any
// edit, addition or removal changes it, valid or not.
//
// Drivers that cache results put it in their cache keys: go vet keys a vet
// tool's results on the identity the tool prints for -V=full, and
// golangci-lint keys them on the analyzers' names. A per-package key would
// be finer, but neither driver offers one; a whole-workspace digest costs
// one directory walk per run and can never serve a stale result.
func Digest(dir string) string {
	root := workspaceRoot(dir)
	h := sha256.New()
	for _, path := range configFiles(root) {
		fmt.Fprintf(h, "%s\n", path)
		hashFile(h, path)
	}
	return hex.EncodeToString(h.Sum(nil)[:12])
}

// configFiles lists the .bhlint.yml files above root and below it, in a
// fixed order.
func configFiles(root string) []string {
	var files []string
	for dir := filepath.Dir(root); ; dir = filepath.Dir(dir) {
		if isRegular(filepath.Join(dir, FileName)) {
			files = append(files, filepath.Join(dir, FileName))
		}
		if filepath.Dir(dir) == dir {
			break
		}
	}
	_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			files = append(files, path+" (unreadable: "+err.Error()+")")
			return nil
		case d.IsDir() && path != root && skipDir(d.Name()):
			return filepath.SkipDir
		case !d.IsDir() && d.Name() == FileName:
			files = append(files, path)
		}
		return nil
	})
	slices.Sort(files)
	return files
}

// skipDir: directories the go command never reads packages from, and the
// version-control and dependency trees that can be large.
func skipDir(name string) bool {
	return strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "node_modules"
}

func hashFile(w io.Writer, path string) {
	f, err := os.Open(path)
	if err != nil {
		fmt.Fprintf(w, "error %v\n", err)
		return
	}
	defer f.Close()
	if _, err := io.Copy(w, f); err != nil {
		fmt.Fprintf(w, "error %v\n", err)
	}
}

// workspaceRoot is the directory of the go.work (unless GOWORK=off) or
// go.mod that holds dir, or dir itself when there is neither.
func workspaceRoot(dir string) string {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return dir
	}
	if gowork := os.Getenv("GOWORK"); gowork != "" && gowork != "off" {
		return filepath.Dir(gowork)
	}
	names := []string{"go.work", "go.mod"}
	if os.Getenv("GOWORK") == "off" {
		names = names[1:]
	}
	for _, name := range names {
		for d := dir; ; d = filepath.Dir(d) {
			if isRegular(filepath.Join(d, name)) {
				return d
			}
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	return dir
}

func isRegular(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.Mode().IsRegular()
}

// CheckAnalyzers reports an analyzer name under analyzers: that is not one
// of known, naming the file: a misspelt name must not leave the analyzer
// on while the user believes it off.
func (c *Config) CheckAnalyzers(known []string) error {
	var unknown []string
	for name := range c.Analyzers {
		if !slices.Contains(known, name) {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	slices.Sort(unknown)
	where := ""
	if line := c.Line("analyzers." + unknown[0]); line > 0 {
		where = fmt.Sprintf("line %d: ", line)
	}
	return fmt.Errorf("%s: %sanalyzers: unknown analyzer %q (known: %s)", c.Path, where, unknown[0], strings.Join(known, ", "))
}
