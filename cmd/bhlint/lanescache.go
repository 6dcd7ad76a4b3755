package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/bhlint/bhlint/internal/config"
)

// bhlint lanes loads every package with its syntax and builds the SSA of
// the whole program: 45 to 60 seconds on a service, on every run, where a
// warm check takes two (go vet caches it). Its output is kept by a key of
// everything it depends on, as go vet keys a check: this binary, the
// configuration, the build flags, the format, and each package in the
// build — a module's version from the module cache, the standard
// library's Go version, and the content of every other package's files.

// lanesCacheDir is where lane maps are kept: BHLINT_LANES_CACHE, or bhlint/lanes
// under the user's cache directory. "off" turns the cache off.
func lanesCacheDir() string {
	if dir := os.Getenv("BHLINT_LANES_CACHE"); dir != "" {
		if dir == "off" {
			return ""
		}
		return dir
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "bhlint", "lanes")
}

// listedForKey is what go list says about a package that the key needs.
type listedForKey struct {
	ImportPath, Dir                             string
	Standard                                    bool
	GoFiles, CgoFiles, EmbedFiles, IgnoredFiles []string
	Module                                      *struct {
		Path, Version, GoMod string
		Replace              *struct{ Path, Version string }
	}
}

// lanesKey is the cache key of a lane map, "" when it cannot be computed
// (go list failed: the load will say why).
func lanesKey(format string, buildFlags, patterns []string) string {
	h := sha256.New()
	self, err := os.Executable()
	if err != nil || hashFile(h, self) != nil {
		return ""
	}
	wd, _ := os.Getwd()
	fmt.Fprintf(h, "%s\x00%s\x00%q\x00%q\x00%s\x00%s\x00", format, wd, buildFlags, patterns, config.Digest(wd), runtime.Version())
	for _, v := range []string{"GOOS", "GOARCH", "GOFLAGS", "GOEXPERIMENT", "CGO_ENABLED", "GOVERSION"} {
		fmt.Fprintf(h, "%s=%s\x00", v, os.Getenv(v))
	}
	args := append([]string{"list", "-deps", "-json=ImportPath,Dir,Standard,GoFiles,CgoFiles,EmbedFiles,IgnoredFiles,Module"}, buildFlags...)
	cmd := exec.Command("go", append(args, patterns...)...)
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	goVersion, _ := exec.Command("go", "env", "GOVERSION", "GOROOT").Output()
	h.Write(goVersion)
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listedForKey
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return ""
		}
		if !hashPackage(h, p) {
			return ""
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:40]
}

// hashPackage adds a package to the key: by version when it comes from the
// module cache (its files cannot change), by content otherwise.
func hashPackage(h io.Writer, p listedForKey) bool {
	fmt.Fprintf(h, "pkg %s\x00", p.ImportPath)
	switch m := p.Module; {
	case p.Standard:
		return true // the Go version is in the key
	case m != nil && m.Version != "" && m.Replace == nil:
		fmt.Fprintf(h, "%s@%s\x00", m.Path, m.Version)
		return true
	case m != nil && m.Replace != nil && m.Replace.Version != "":
		fmt.Fprintf(h, "%s@%s\x00", m.Replace.Path, m.Replace.Version)
		return true
	case m != nil && m.GoMod != "":
		if hashFile(h, m.GoMod) != nil {
			return false
		}
	}
	// Ignored files too: a build tag that is not set today may be tomorrow,
	// and the tags are in the key anyway.
	for _, list := range [][]string{p.GoFiles, p.CgoFiles, p.EmbedFiles, p.IgnoredFiles} {
		for _, name := range list {
			fmt.Fprintf(h, "file %s\x00", name)
			if hashFile(h, filepath.Join(p.Dir, name)) != nil {
				return false
			}
		}
	}
	return true
}

func hashFile(h io.Writer, name string) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(h, f)
	return err
}

// cachedLanes is the map kept under key, if any.
func cachedLanes(key string) ([]byte, bool) {
	dir := lanesCacheDir()
	if key == "" || dir == "" {
		return nil, false
	}
	data, err := os.ReadFile(filepath.Join(dir, key))
	return data, err == nil
}

// keepLanes stores a map under key; a failure to store only costs the
// next run its time.
func keepLanes(key string, output []byte) {
	dir := lanesCacheDir()
	if key == "" || dir == "" || os.MkdirAll(dir, 0o755) != nil {
		return
	}
	tmp, err := os.CreateTemp(dir, "tmp-")
	if err != nil {
		return
	}
	_, err = tmp.Write(output)
	if cerr := tmp.Close(); err == nil && cerr == nil {
		err = os.Rename(tmp.Name(), filepath.Join(dir, key))
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
}

// lanesBuildFlags are go's build flags for -tags.
func lanesBuildFlags(tags string) []string {
	if tags = strings.TrimSpace(tags); tags == "" {
		return nil
	}
	return []string{"-tags=" + tags}
}
