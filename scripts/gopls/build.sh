#!/usr/bin/env bash
# Builds gopls with bhlint's analyzers in its analyzer list, using only the Go
# module proxy: gopls's source comes from the module cache, gopls.patch (beside
# this script) is applied to it, and this repository replaces the bhlint
# module. The patch adds two files and one line: settings/bhlint.go appends
# bhlint's analyzers to settings.AllAnalyzers (on by default, each switchable
# by name in the "analyses" setting; with bhlintconfig, which reports a
# .bhlint.yml they cannot use as an error), and the analysis cache key gets the
# .bhlint.yml in effect for the package (bhlint's analyzers read it
# themselves; without it an edited .bhlint.yml would not take effect, even
# after a restart, as gopls keeps analysis results on disk).
#
# gopls needs the exact golang.org/x/tools its go.mod names (it uses x/tools'
# internal packages), so that version replaces whatever this repository's
# go.mod asks for; bhlint's analyzers are compiled against it.
#
# usage: scripts/gopls/build.sh OUT_BINARY   [GOPLS_VERSION, default v0.23.0;
#        another version may need gopls.patch remade]
set -euo pipefail
out=$(realpath -m "${1:?usage: build.sh OUT_BINARY}")
version=${GOPLS_VERSION:-v0.23.0}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

src=$(go mod download -json "golang.org/x/tools/gopls@$version" |
	sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
[ -d "$src" ] || { echo "build.sh: could not download gopls $version" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$src/." "$work/"
chmod -R u+w "$work"
cd "$work"
# (GIT_CEILING_DIRECTORIES: git apply patches this directory, never a
# repository that might hold it.)
GIT_CEILING_DIRECTORIES=$(dirname "$work") git apply -p1 "$here/gopls.patch" ||
	{ echo "build.sh: gopls.patch does not apply to gopls $version; remake it for that version" >&2; exit 2; }
tools=$(go list -m -f '{{.Version}}' golang.org/x/tools)
go mod edit -require=github.com/bhlint/bhlint@v0.0.0 -replace="github.com/bhlint/bhlint=$root" \
	-replace="golang.org/x/tools=golang.org/x/tools@$tools"
go mod tidy >/dev/null
go build -trimpath -o "$out" .
echo "built $out (gopls $version, golang.org/x/tools $tools, with bhlint's analyzers)"
