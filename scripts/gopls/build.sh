#!/usr/bin/env bash
# Builds gopls with bhlint's analyzers in its analyzer list, using only the Go
# module proxy: gopls's source comes from the module cache, bhlint.go.in (one
# file, beside this script) is added to its internal/settings, and this
# repository replaces the bhlint module. gopls needs the exact golang.org/x/tools
# its go.mod names (it uses x/tools' internal packages), so that version
# replaces whatever this repository's go.mod asks for; bhlint's analyzers are
# compiled against it.
#
# usage: scripts/gopls/build.sh OUT_BINARY   [GOPLS_VERSION, default v0.23.0]
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
[ -f "$work/internal/settings/analysis.go" ] && grep -q '^var AllAnalyzers = ' "$work/internal/settings/analysis.go" ||
	{ echo "build.sh: gopls $version has no settings.AllAnalyzers to extend; bhlint.go.in needs updating" >&2; exit 2; }
cp "$here/bhlint.go.in" "$work/internal/settings/bhlint.go"

cd "$work"
tools=$(go list -m -f '{{.Version}}' golang.org/x/tools)
go mod edit -require=github.com/bhlint/bhlint@v0.0.0 -replace="github.com/bhlint/bhlint=$root" \
	-replace="golang.org/x/tools=golang.org/x/tools@$tools"
go mod tidy >/dev/null
go build -trimpath -o "$out" .
echo "built $out (gopls $version, golang.org/x/tools $tools, with bhlint's analyzers)"
