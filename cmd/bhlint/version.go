package main

import (
	"fmt"
	"io"
	"runtime/debug"
	"strings"
)

// buildVersion is what the build recorded about bhlint: the module version
// (a tag, a pseudo-version, or "(devel)" for a build in a clone) and, for a
// build in a clone, the commit and whether the tree had changes.
type buildVersion struct {
	Module   string
	Revision string
	Modified bool
	Go       string
}

func toolVersion() buildVersion {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return buildVersion{Module: "unknown"}
	}
	v := buildVersion{Module: info.Main.Version, Go: info.GoVersion}
	if v.Module == "" {
		v.Module = "(devel)" // a test binary
	}
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Revision = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		}
	}
	return v
}

// String is the version on one line: "v1.2.0", "(devel) 0123abcd… modified".
func (v buildVersion) String() string {
	parts := []string{v.Module}
	if v.Revision != "" && !strings.Contains(v.Module, v.Revision[:min(12, len(v.Revision))]) {
		parts = append(parts, v.Revision)
	}
	if v.Modified {
		parts = append(parts, "modified")
	}
	return strings.Join(parts, " ")
}

// printVersion is bhlint version and bhlint -version.
func printVersion(w io.Writer) {
	v := toolVersion()
	fmt.Fprintf(w, "bhlint %s (built with %s)\n", v, v.Go)
}
