package main

import (
	"runtime/debug"
	"strings"

	"golang.org/x/mod/semver"
)

// xtoolsCaveat explains a load failure that may not be the user's: this
// binary's golang.org/x/tools is one whose unitchecker (v0.50.0 to at least
// v0.52.0) reads an interface's unexported methods back as the wrong
// package's, so that valid code fails with "missing method". bhlint's own
// go.mod pins v0.49.0, but a module that builds bhlint with `go get -tool`
// chooses the version itself. See docs/UPSTREAM.md.
func xtoolsCaveat(sum *runSummary) string {
	version := xtoolsVersion()
	if version == "" || semver.Compare(version, "v0.50.0") < 0 || !mentionsMissingMethod(sum) {
		return ""
	}
	return "bhlint: note: this bhlint was built with golang.org/x/tools " + version +
		", whose vet protocol wrongly reports \"missing method\" for an interface with unexported methods " +
		"that another package re-declares; install bhlint with `go install github.com/bhlint/bhlint/cmd/bhlint@VERSION`, " +
		"which builds it with the x/tools its go.mod pins (v0.49.0), or select v0.49.0 in the module whose tool directive builds it"
}

func xtoolsVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	for _, dep := range info.Deps {
		if dep.Path == "golang.org/x/tools" {
			if dep.Replace != nil {
				return dep.Replace.Version
			}
			return dep.Version
		}
	}
	return ""
}

func mentionsMissingMethod(sum *runSummary) bool {
	for _, u := range sum.NotAnalysed {
		if strings.Contains(u.Reason, "(missing method ") {
			return true
		}
	}
	return false
}
