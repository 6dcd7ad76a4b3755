#!/usr/bin/env bash
# Builds a real golangci-lint v2 with bhlint's module plugin compiled in,
# using only the Go module proxy: golangci-lint's source comes from the module
# cache, the plugin is added as a blank import, and this repository replaces
# the bhlint module. (`golangci-lint custom` does the same from a
# .custom-gcl.yml, but clones golangci-lint with git, which needs more network
# than the module proxy.)
#
# usage: scripts/golangci/build.sh OUT_BINARY   [GOLANGCI_VERSION, default v2.15.0]
set -euo pipefail
out=$(realpath -m "${1:?usage: build.sh OUT_BINARY}")
version=${GOLANGCI_VERSION:-v2.15.0}
root=$(cd "$(dirname "$0")/../.." && pwd)

src=$(go mod download -json "github.com/golangci/golangci-lint/v2@$version" |
	sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
[ -d "$src" ] || { echo "build.sh: could not download golangci-lint $version" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$src/." "$work/"
chmod -R u+w "$work"
cat > "$work/cmd/golangci-lint/plugin_bhlint.go" <<'GO'
package main

import _ "github.com/bhlint/bhlint/plugin/golangci"
GO
cd "$work"
go mod edit -require=github.com/bhlint/bhlint@v0.0.0 -replace="github.com/bhlint/bhlint=$root"
go mod tidy >/dev/null
go build -trimpath -o "$out" ./cmd/golangci-lint
echo "built $out ($("$out" version --short 2>/dev/null || echo "$version") with the bhlint plugin)"
